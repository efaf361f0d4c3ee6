/**
 * A Service Worker's answer to a Range request (RFC 9110, section 14)
 * for the plaintext of an age file (a RangeReader, range-reader.ts): what
 * a media element's requests need to play and seek an encrypted file the
 * worker decrypts as it is read. A satisfiable single range gets 206 with
 * Content-Range and a body streamed a chunk at a time, each chunk sent
 * only once it verified (a chunk that does not errors the body, and the
 * element stops with an error); a range past the end gets 416 with a
 * Content-Range of `*` and the size; a range whose first chunk does not
 * verify (or cannot be fetched) gets 502, which a media element does not
 * retry as it retries a body that failed; no Range header (or one this does not
 * serve: several ranges, or one that breaks the syntax, which a server
 * may ignore, section 14.2) gets the whole plaintext with 200.
 */
import type { RangeReader } from './range-reader.js';
import * as check from '../runtime/assert.js';

/** Options of rangeResponse. */
export interface RangeResponseOptions {
  /** The plaintext's Content-Type; default application/octet-stream. */
  type?: string;
  /** More headers on every response (Cache-Control, say). */
  headers?: HeadersInit;
}

/** What a Range header asks of a representation of `size` bytes: all of it, bytes [start, end), or nothing it has. */
export type RangeAsked = { kind: 'all' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const BYTE_RANGE = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/** A decimal position, or undefined where it is not a safe integer (so large that no file has it: clamped as such). */
const position = (digits: string): number => (digits === '' ? NaN : Math.min(Number(digits), Number.MAX_SAFE_INTEGER));

/** The range a Range header `value` asks for (one byte range; anything else is served whole, as section 14.2 allows). */
export function rangeAsked(value: string | null, size: number): RangeAsked {
  const m = value === null ? null : BYTE_RANGE.exec(value);
  if (m === null) return { kind: 'all' };
  const first = position(m[1]!);
  const last = position(m[2]!);
  if (Number.isNaN(first)) {
    // A suffix (`-n`): the last n bytes; none of them (n = 0) is unsatisfiable.
    if (Number.isNaN(last)) return { kind: 'all' };
    return last === 0 || size === 0 ? { kind: 'unsatisfiable' } : { kind: 'part', start: Math.max(0, size - last), end: size };
  }
  if (!Number.isNaN(last) && last < first) return { kind: 'all' };
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start: first, end: Number.isNaN(last) ? size : Math.min(last + 1, size) };
}

/** rangeResponse (range-calls.ts has its doc; it imports this module at its first call). */
export async function respondWithRange(request: Request, reader: RangeReader, options?: RangeResponseOptions, ...extra: unknown[]): Promise<Response> {
  check.noMoreArguments('rangeResponse', ['request', 'reader', 'options'], extra);
  const o = (check.options(options, 'options', ['type', 'headers']) ?? {}) as RangeResponseOptions;
  if (typeof request !== 'object' || request === null || typeof request.method !== 'string' || typeof request.headers?.get !== 'function')
    throw new TypeError(`request must be a Request, got ${check.describe(request)}`);
  // openRangeReader's promise, not awaited, would otherwise fail later as "reader.stream is not a function".
  if (typeof reader !== 'object' || reader === null || typeof reader.stream !== 'function' || typeof reader.size !== 'number')
    throw new TypeError(`reader must be a RangeReader (openRangeReader's), got ${check.describe(reader)}`);
  const headers = new Headers(o.headers);
  headers.set('accept-ranges', 'bytes');
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    headers.set('allow', 'GET, HEAD');
    return new Response(null, { status: 405, headers });
  }
  const { size } = reader;
  const asked = rangeAsked(request.headers.get('range'), size);
  if (asked.kind === 'unsatisfiable') {
    headers.set('content-range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const [start, end] = asked.kind === 'part' ? [asked.start, asked.end] : [0, size];
  headers.set('content-type', o.type ?? 'application/octet-stream');
  headers.set('content-length', String(end - start));
  if (asked.kind === 'part') headers.set('content-range', `bytes ${start}-${end - 1}/${size}`);
  const status = asked.kind === 'part' ? 206 : 200;
  if (method === 'HEAD') return new Response(null, { status, headers });
  const body = reader.stream(start, end).getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  try {
    first = await body.read();
  } catch (e) {
    // Nothing sent yet: a status says it, where an errored body would make a media element retry the same range.
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return new Response(why, { status: 502, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }
  return new Response(after(first, body), { status, headers });
}

/** The stream of `first` and what `rest` reads after it, each piece when asked for; an error of `rest` errors it. */
function after(first: ReadableStreamReadResult<Uint8Array>, rest: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let pending: ReadableStreamReadResult<Uint8Array> | undefined = first;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        const { done, value } = pending ?? (await rest.read());
        pending = undefined;
        if (cancelled) return; // a read that was under way when the reader went away
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => {
        cancelled = true;
        return rest.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
