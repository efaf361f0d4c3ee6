/**
 * A local HTTP server (node:http) for the tests of httpRangeSource and
 * rangeResponse: serves one file with Range requests (RFC 9110, section
 * 14: one range per request, 206 and Content-Range, 416 past the end),
 * records every request (its range and the bytes sent, and whether the
 * client went away before the end), and misbehaves on request, as the
 * servers a source must survive do: ignoring Range (200 and the whole
 * file), lying about the file's size or the range sent, a body shorter or
 * longer than its Content-Range, a connection cut mid-body, a stall after
 * the first chunk. Node, Deno and Bun (node:http); undefined elsewhere.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const http = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:http') as
  | typeof import('node:http')
  | undefined;

/** Why the tests that need a server skip, or false where there is one. */
export const NO_HTTP: false | string = http === undefined ? 'not applicable: this engine has no node:http to serve ranges from' : false;

/** How the server answers. */
export type Behaviour =
  | 'ranges'
  | 'ignores-range'
  | 'wrong-total'
  | 'wrong-start'
  | 'short-body'
  | 'long-body'
  | 'cut'
  | 'no-content-range'
  | 'not-found'
  | 'stall-after-first-chunk';

/** A request the server saw. */
export interface Seen {
  readonly range: string | undefined;
  /** Bytes [start, end) it answered with (the whole file for a 200). */
  readonly start: number;
  readonly end: number;
  /** Body bytes written. */
  sent: number;
  /** Whether the client closed the connection before the body's end. */
  closedEarly: boolean;
}

export interface RangeServer {
  readonly url: string;
  readonly seen: Seen[];
  behaviour: Behaviour;
  /** The file served (replace it to change the file under the source). */
  file: Uint8Array;
  /** Resolves once every stalled response has been closed by its client. */
  close(): Promise<void>;
}

/** A Range header's single range of a file of `size`, or undefined (none, or unsatisfiable: `unsatisfiable` true). */
function parse(range: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = range === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
  if (m === null) return undefined;
  const start = Number(m[1]);
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size : Math.min(size, Number(m[2]) + 1) };
}

/** Writes `body` and ends, counting what was written into `seen`. */
function send(res: ServerResponse, seen: Seen, body: Uint8Array): void {
  seen.sent += body.length;
  res.end(body);
}

function answer(server: RangeServer, req: IncomingMessage, res: ServerResponse): void {
  const { file, behaviour } = server;
  const range = req.headers.range;
  const asked = parse(range, file.length);
  const seen: Seen = { range, start: 0, end: file.length, sent: 0, closedEarly: false };
  server.seen.push(seen);
  res.on('close', () => (seen.closedEarly = !res.writableFinished));
  if (behaviour === 'not-found') {
    res.writeHead(404).end();
    return;
  }
  res.setHeader('accept-ranges', 'bytes');
  if (asked === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${file.length}` }).end();
    return;
  }
  if (asked === undefined || behaviour === 'ignores-range') {
    res.writeHead(200, { 'content-length': file.length });
    send(res, seen, file);
    return;
  }
  Object.assign(seen, asked);
  const { start, end } = asked;
  const total = behaviour === 'wrong-total' ? file.length + 1 : file.length;
  const first = behaviour === 'wrong-start' ? start + 1 : start;
  const headers: Record<string, string | number> = { 'content-range': `bytes ${first}-${end - 1}/${total}` };
  if (behaviour === 'no-content-range') delete headers['content-range'];
  const body = file.subarray(start, end);
  if (behaviour === 'short-body' || behaviour === 'long-body') {
    // No Content-Length: the body's length is what the connection carries, as a chunked response's.
    res.writeHead(206, headers);
    send(res, seen, behaviour === 'short-body' ? body.subarray(0, body.length - 1) : new Uint8Array([...body, 0]));
    return;
  }
  res.writeHead(206, { ...headers, 'content-length': body.length });
  if (behaviour === 'cut' && start > 0) {
    seen.sent += body.length >> 1;
    res.write(body.subarray(0, body.length >> 1), () => res.destroy());
    return;
  }
  if (behaviour === 'stall-after-first-chunk' && body.length > 65552) {
    // The first sealed chunk, then nothing: the rest waits until the client goes away.
    seen.sent += 65552;
    res.write(body.subarray(0, 65552));
    return;
  }
  send(res, seen, body);
}

/** Serves `file` on 127.0.0.1 at a free port. */
export async function rangeServer(file: Uint8Array, behaviour: Behaviour = 'ranges'): Promise<RangeServer> {
  let server!: Server;
  const state: RangeServer = {
    url: '',
    seen: [],
    behaviour,
    file,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server = http!.createServer((req, res) => answer(state, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (state as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/file.age`;
  return state;
}

/** Polls `condition` until it holds, or fails after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
