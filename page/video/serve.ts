/**
 * The video check's server (node:http, on 127.0.0.1): the example's
 * built files, its config.json, and the media files with Range requests
 * (RFC 9110, section 14: one range, 206 and Content-Range, 416 past the
 * end), each read from disk as it is sent; one of them served with a byte
 * of one chunk changed on the way. It records every media request (the
 * phase the page last marked, the range, the bytes written, whether the
 * client went away first), and resolves `result` with what the page
 * POSTs to /__result.
 */
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/** A media file: its path on disk, and where (if anywhere) a byte is changed on the way. */
export interface Media {
  readonly file: string;
  readonly changeAt?: number;
}

/** A media request the server answered. */
export interface Logged {
  readonly phase: string;
  readonly name: string;
  readonly range: string | undefined;
  readonly start: number;
  readonly end: number;
  sent: number;
  closedEarly: boolean;
}

export interface VideoServer {
  readonly url: string;
  readonly log: Logged[];
  /** Resolves with the next outcome the page POSTs. */
  result(): Promise<{ ok: boolean; value?: unknown; error?: string }>;
  /** Forgets the log and the phase (before another browser). */
  reset(): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json' };

/** A request's body as text. */
async function body(req: IncomingMessage): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of req) pieces.push(piece as Buffer);
  return Buffer.concat(pieces).toString('utf8');
}

/** Sends bytes [start, end) of `media`, read from disk as the connection takes them, counting them into `entry`. */
function sendMedia(res: ServerResponse, media: Media, start: number, end: number, entry: Logged): void {
  if (end <= start) {
    res.end();
    return;
  }
  const stream = createReadStream(media.file, { start, end: end - 1, highWaterMark: 65536 });
  let at = start;
  stream.on('data', (piece) => {
    const bytes = piece as Buffer;
    const change = media.changeAt;
    if (change !== undefined && change >= at && change < at + bytes.length) bytes[change - at]! ^= 0x01;
    at += bytes.length;
    entry.sent += bytes.length;
  });
  stream.pipe(res);
  res.on('close', () => stream.destroy());
}

/** Answers a media request: 206 for one satisfiable range, 416 past the end, 200 and all of it without a Range. */
function answerMedia(req: IncomingMessage, res: ServerResponse, name: string, media: Media, phase: string, log: Logged[]): void {
  const size = statSync(media.file).size;
  const range = req.headers.range;
  const m = range === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
  res.setHeader('accept-ranges', 'bytes');
  res.setHeader('content-type', 'application/octet-stream');
  if (m !== null && Number(m[1]) >= size) {
    res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
    return;
  }
  const start = m === null ? 0 : Number(m[1]);
  const end = m === null || m[2] === '' ? size : Math.min(size, Number(m[2]) + 1);
  const entry: Logged = { phase, name, range, start, end, sent: 0, closedEarly: false };
  log.push(entry);
  res.on('close', () => (entry.closedEarly = !res.writableFinished));
  const headers = { 'content-length': end - start, ...(m === null ? {} : { 'content-range': `bytes ${start}-${end - 1}/${size}` }) };
  res.writeHead(m === null ? 200 : 206, headers);
  if (req.method === 'HEAD') res.end();
  else sendMedia(res, media, start, end, entry);
}

/** Serves `site` (the built example), `config` at /config.json and `media` at /media/<name>. */
export async function serveVideo(site: string, config: unknown, media: Record<string, Media>): Promise<VideoServer> {
  const root = normalize(site + sep);
  const log: Logged[] = [];
  let phase = 'open';
  let deliver: ((o: { ok: boolean; value?: unknown; error?: string }) => void) | undefined;
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      res.setHeader('cache-control', 'no-store');
      if (req.method === 'POST' && (path === '/mark' || path === '/__result')) {
        const text = await body(req);
        res.end('ok');
        if (path === '/mark') phase = (JSON.parse(text) as { phase: string }).phase;
        else deliver?.(JSON.parse(text) as { ok: boolean });
        return;
      }
      if (path === '/config.json') {
        res.setHeader('content-type', TYPES['.json']!);
        res.end(JSON.stringify(config));
        return;
      }
      const name = path.startsWith('/media/') ? path.slice('/media/'.length) : undefined;
      if (name !== undefined && media[name] !== undefined) {
        answerMedia(req, res, name, media[name]!, phase, log);
        return;
      }
      const file = normalize(join(root, path === '/' ? 'index.html' : path));
      if (!file.startsWith(root)) throw new Error('outside the site');
      const data = await readFile(file);
      res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
      res.end(data);
    } catch {
      if (!res.headersSent) res.statusCode = 404;
      res.end();
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    log,
    result: () => new Promise((resolve) => (deliver = resolve)),
    reset: () => {
      log.length = 0;
      phase = 'open';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
