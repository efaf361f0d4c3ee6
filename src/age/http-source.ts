/**
 * An age file on an HTTP server as a RangeSource (range-source.ts) for
 * decryptRange and openRangeReader, read by Range requests (RFC 9110,
 * section 14): first the header (and the payload nonce), then only the
 * sealed 64 KiB chunks (C2SP age, "Payload") that each read touches. The
 * file is cut into blocks that are its chunks, so a chunk is fetched once
 * while it stays in a bounded cache (least recently used out first); the
 * chunks after a read are fetched ahead in the same request, and again
 * when fewer than half of them are left; a request that only fetches
 * ahead is aborted when a read needs chunks it does not hold (a seek: the
 * reader moved on). Every request names its bytes (never `bytes=N-`), so
 * an aborted one costs at most what it asked for. The source hands on
 * ciphertext: each chunk is authenticated by whoever opens it.
 */
import { Blocks } from './http-blocks.js';
import { checkedBody, discard, fetchRange, RangeRequestError, readBody, type Requester, requestRange } from './http-fetch.js';
import { NONCE_BYTES } from './payload.js';
import { type RangeSource, readHeader } from './range-source.js';
import * as check from '../runtime/assert.js';

export { RangeRequestError } from './http-fetch.js';

/** Options of httpRangeSource. */
export interface HttpRangeOptions {
  /** Chunks (64 KiB and a tag each) fetched past the last one a read touches; default 16 (1 MiB), 0 for none. */
  readAhead?: number;
  /** Chunks kept once fetched, at least readAhead + 1; default 64 (4 MiB). */
  cacheChunks?: number;
  /** Headers sent with every request (an Authorization, say); the source sets Range. */
  headers?: HeadersInit;
  /** Aborts every request, and the reads after it reject with the signal's reason. */
  signal?: AbortSignal;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** What a source has fetched so far. */
export interface HttpRangeStats {
  /** Range requests sent. */
  readonly requests: number;
  /** Body bytes received. */
  readonly bytes: number;
  /** Requests aborted before their end (fetching ahead when a read moved elsewhere, or close()). */
  readonly aborted: number;
}

/** A RangeSource over HTTP: an age file on a server, read by Range requests. */
export interface HttpRangeSource extends RangeSource {
  /** The file's address. */
  readonly url: string;
  /** What it has fetched so far. */
  readonly stats: HttpRangeStats;
  /** Aborts every request; reads after it reject. */
  close(): void;
}

/** The first request's bytes: most headers (an X25519 one is about 200 bytes) and the payload nonce fit. */
const HEAD_BYTES = 16384;
const DEFAULT_READ_AHEAD = 16;
const DEFAULT_CACHE_CHUNKS = 64;

/** The options, checked. */
function optionsOf(options: unknown): Required<Omit<HttpRangeOptions, 'signal' | 'headers'>> & { signal?: AbortSignal; headers: [string, string][] } {
  const o = (check.options(options, 'options', ['readAhead', 'cacheChunks', 'headers', 'signal', 'fetch']) ?? {}) as HttpRangeOptions;
  const readAhead = o.readAhead === undefined ? DEFAULT_READ_AHEAD : check.count(o.readAhead, 'readAhead');
  const cacheChunks = o.cacheChunks === undefined ? Math.max(DEFAULT_CACHE_CHUNKS, readAhead + 1) : check.count(o.cacheChunks, 'cacheChunks');
  if (cacheChunks < readAhead + 1)
    throw new RangeError(`cacheChunks (${cacheChunks}) must hold the chunks fetched ahead and one more: at least ${readAhead + 1}`);
  const signal = o.signal === undefined ? undefined : check.abortSignal(o.signal, 'signal');
  const given = o.fetch ?? globalThis.fetch;
  if (typeof given !== 'function') throw new TypeError(`fetch must be a function, got ${check.describe(given)}`);
  // Called as a plain function: a browser's fetch throws "Illegal invocation" when called as another object's method.
  const fetcher =
    o.fetch === undefined ? (url: string, init: RequestInit) => globalThis.fetch(url, init) : (url: string, init: RequestInit) => given(url, init);
  const headers: [string, string][] = [];
  new Headers(o.headers).forEach((value, name) => {
    headers.push([name, value]);
  });
  return { readAhead, cacheChunks, signal, fetch: fetcher, headers };
}

/** A URL as a string: an absolute one, or one relative to the page or worker (location). */
function urlOf(url: unknown): string {
  if (url instanceof URL) return url.href;
  if (typeof url !== 'string') throw new TypeError(`url must be a string or a URL, got ${check.describe(url)}`);
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  return new URL(url, base).href;
}

/** httpRangeSource (range-calls.ts has its doc; it imports this module at its first call). */
export async function openHttpSource(url: string | URL, options?: HttpRangeOptions): Promise<HttpRangeSource> {
  const o = optionsOf(options);
  const counts = { requests: 0, bytes: 0, aborted: 0 };
  const r: Requester = { url: urlOf(url), fetch: o.fetch, headers: o.headers, counts };
  const lifetime = new AbortController();
  const stop = () => lifetime.abort(o.signal?.reason ?? new DOMException('the source was closed', 'AbortError'));
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    check.throwIfAborted(o.signal);
    const head = await fetchHead(r, lifetime.signal);
    const headSource = prefixSource(r, head, lifetime.signal);
    const header = await readHeader(headSource);
    const payloadAt = Math.min(head.size, header.length + NONCE_BYTES);
    // The bytes fetched so far (the header, the nonce and what followed them) serve the reads below their end.
    const start = await headSource.read(0, Math.max(payloadAt, head.bytes.length));
    const blocks = new Blocks({ size: head.size, payloadAt }, r, lifetime.signal, o.readAhead, o.cacheChunks);
    blocks.offer(head.bytes, 0);
    return {
      url: r.url,
      size: head.size,
      get stats() {
        return { ...counts };
      },
      read: async (offset, length) => {
        check.throwIfAborted(lifetime.signal);
        return readSpan(start, blocks, check.count(offset, 'offset'), check.count(length, 'length'));
      },
      close: stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}

/** Bytes [offset, offset + length) (fewer at the end of the file): the head's from `start`, the rest from the blocks. */
async function readSpan(start: Uint8Array, blocks: Blocks, offset: number, length: number): Promise<Uint8Array> {
  const end = Math.min(blocks.geometry.size, offset + length);
  const out = new Uint8Array(Math.max(0, end - offset));
  if (out.length === 0) return out;
  if (offset < start.length) out.set(start.subarray(offset, Math.min(end, start.length)));
  const from = Math.max(offset, start.length);
  if (from >= end) return out;
  for (const block of await blocks.read(from, end)) {
    const a = Math.max(from, block.at);
    const b = Math.min(end, block.at + block.bytes.length);
    if (a < b) out.set(block.bytes.subarray(a - block.at, b - block.at), a - offset);
  }
  return out;
}

/** The first bytes of the file and its size. */
interface Head {
  readonly bytes: Uint8Array;
  readonly size: number;
}

/** The file's size as the first response gives it: a 206's or 416's Content-Range, a 200's Content-Length. */
function sizeOf(response: Response): number | undefined {
  const text = response.status === 200 ? response.headers.get('content-length') : /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1];
  const n = text === null || text === undefined ? NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The first request: up to HEAD_BYTES from 0, whose answer gives the file's size (a 416: an empty file). */
async function fetchHead(r: Requester, signal: AbortSignal): Promise<Head> {
  const response = await requestRange(r, 0, HEAD_BYTES, signal);
  const where = `the first ${HEAD_BYTES} bytes of ${r.url}`;
  const size = sizeOf(response);
  const fail = (message: string, reason: RangeRequestError['reason']): never => {
    discard(response);
    throw new RangeRequestError(`${where}: ${message}`, reason, response.status);
  };
  if (response.status === 416) {
    if (size !== 0) fail(`the server cannot satisfy a range from 0 (416) of a file of ${size ?? 'unknown'} bytes`, 'length');
    return { bytes: new Uint8Array(0), size: 0 };
  }
  if (size === undefined && (response.status === 200 || response.status === 206)) {
    fail(`the server gave no ${response.status === 206 ? "Content-Range with the file's size" : 'Content-Length'}`, 'length');
  }
  // A 200 is the whole file: checkedBody takes it only where that is no more than was asked for.
  const end = Math.min(HEAD_BYTES, size ?? 0);
  const body = checkedBody(r.url, response, 0, end, size ?? 0);
  const bytes = new Uint8Array(end);
  let at = 0;
  await readBody(r, body, where, end, signal, (piece) => {
    bytes.set(piece, at);
    at += piece.length;
  });
  return { bytes, size: size ?? 0 };
}

/**
 * The head's bytes as a RangeSource for readHeader: what the first
 * request brought, then (a header longer than that) more from the server
 * as readHeader asks for it.
 */
function prefixSource(r: Requester, head: Head, signal: AbortSignal): RangeSource {
  let prefix = head.bytes;
  return {
    size: head.size,
    read: async (offset, length) => {
      const end = Math.min(head.size, offset + length);
      if (end > prefix.length) {
        const more = await fetchRange(r, prefix.length, end, head.size, signal);
        const grown = new Uint8Array(end);
        grown.set(prefix);
        grown.set(more, prefix.length);
        prefix = grown;
      }
      return prefix.slice(offset, end);
    },
  };
}
