/**
 * One HTTP Range request (RFC 9110, section 14) for httpRangeSource
 * (http-source.ts): asks for bytes [start, end) of a file, checks that the
 * answer is those bytes of a file of the size known (a 206 whose
 * Content-Range names exactly them; a 200 only where the whole file was
 * asked for), and hands its body on as it arrives, never more than was
 * asked for. Whatever else the server does (an error status, a 200 to a
 * part, a Content-Range or a body of other lengths, a connection cut) is
 * a RangeRequestError saying which. The bytes are ciphertext: they are
 * authenticated later, chunk by chunk, by whoever opens them.
 */
import { RangeRequestError } from './http-error.js';

export { RangeRequestError } from './http-error.js';

/** What a request needs: the file, how to fetch, the headers sent with each request; and the counts it adds to. */
export interface Requester {
  readonly url: string;
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly headers: readonly (readonly [string, string])[];
  /** Requests sent, body bytes received, requests aborted before their end. */
  readonly counts: { requests: number; bytes: number; aborted: number };
}

/** `bytes start-last/total` (or `bytes * /total` of a 416) of a Content-Range value. */
const CONTENT_RANGE = /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i;

/** A header's decimal value as a safe integer, or undefined. */
function integer(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A Content-Range header parsed: the part sent (absent for `*`) and the file's size (absent for `*`). */
export function contentRange(value: string | null): { first?: number; last?: number; total?: number } | undefined {
  const m = value === null ? null : CONTENT_RANGE.exec(value.trim());
  if (m === null) return undefined;
  return { first: integer(m[1]), last: integer(m[2]), total: integer(m[3]) };
}

/** Sends `Range: bytes=start-(end-1)`, failures of the request itself made RangeRequestErrors (an abort stays the signal's reason). */
export async function requestRange(r: Requester, start: number, end: number, signal: AbortSignal): Promise<Response> {
  const headers = new Headers(r.headers as [string, string][]);
  headers.set('range', `bytes=${start}-${end - 1}`);
  r.counts.requests++;
  try {
    return await r.fetch(r.url, { headers, signal, cache: 'no-store' });
  } catch (e) {
    if (signal.aborted) throw aborted(r, signal);
    throw new RangeRequestError(`the request for bytes ${start} to ${end} of ${r.url} failed: ${(e as Error)?.message ?? e}`, 'network', undefined, {
      cause: e,
    });
  }
}

/** An aborted request's error (the signal's reason), counted. */
function aborted(r: Requester, signal: AbortSignal): unknown {
  r.counts.aborted++;
  return signal.reason;
}

/** Drops a response's body without reading it. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/**
 * The bytes [start, end) `response` holds, checked against what was
 * asked and the file's size: the body, which the caller reads (readBody),
 * or a RangeRequestError (the body dropped).
 */
export function checkedBody(url: string, response: Response, start: number, end: number, size: number): ReadableStream<Uint8Array> | undefined {
  const where = `bytes ${start} to ${end} of ${url}`;
  const fail = (message: string, reason: RangeRequestError['reason']): never => {
    discard(response);
    throw new RangeRequestError(`${where}: ${message}`, reason, response.status);
  };
  if (response.status === 200) {
    // The server ignored the Range header: only usable where the whole file was asked for.
    if (start !== 0 || end !== size) fail('the server sent the whole file (200), not the range: it does not serve Range requests', 'no-ranges');
    const length = integer(response.headers.get('content-length') ?? undefined);
    if (length !== undefined && length !== size) fail(`the server sent a file of ${length} bytes, not ${size}`, 'length');
    return response.body ?? undefined;
  }
  if (response.status === 416) fail(`the server cannot satisfy the range (416): the file is no longer ${size} bytes`, 'length');
  if (response.status !== 206) fail(`the server answered ${response.status} ${response.statusText}`.trimEnd(), 'status');
  const range = contentRange(response.headers.get('content-range'));
  if (range?.first === undefined) fail(`a 206 without a Content-Range of one part (${response.headers.get('content-range')})`, 'length');
  if (range!.first !== start || range!.last !== end - 1) fail(`the server sent bytes ${range!.first}-${range!.last}, not ${start}-${end - 1}`, 'length');
  if (range!.total !== undefined && range!.total !== size) fail(`the file is now ${range!.total} bytes, not ${size}: it changed`, 'length');
  return response.body ?? undefined;
}

/**
 * Reads `body` (the bytes from `start`, `length` of them), giving each
 * piece to `take` as it arrives; a body longer or shorter than `length`,
 * or one that fails, is a RangeRequestError (an abort: the signal's
 * reason). Stops reading at `length`: a server that sends more is not
 * read further.
 */
export async function readBody(
  r: Requester,
  body: ReadableStream<Uint8Array> | undefined,
  where: string,
  length: number,
  signal: AbortSignal,
  take: (bytes: Uint8Array) => void,
): Promise<void> {
  let got = 0;
  const reader = body?.getReader();
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array> | undefined;
      try {
        step = reader === undefined ? { done: true, value: undefined } : await reader.read();
      } catch (e) {
        if (signal.aborted) throw aborted(r, signal);
        throw new RangeRequestError(`${where}: the body failed after ${got} of ${length} bytes: ${(e as Error)?.message ?? e}`, 'network', undefined, {
          cause: e,
        });
      }
      if (step.done) break;
      if (got + step.value.length > length) throw new RangeRequestError(`${where}: the server sent more than the ${length} bytes asked for`, 'length');
      got += step.value.length;
      r.counts.bytes += step.value.length;
      take(step.value);
    }
    if (got !== length) throw new RangeRequestError(`${where}: the body ended after ${got} of its ${length} bytes`, 'length');
  } finally {
    if (got !== length || signal.aborted) reader?.cancel().catch(() => {});
    reader?.releaseLock();
  }
}

/** Bytes [start, end) of a file of `size`: one request, its answer checked, each piece of its body given to `take` as it arrives. */
export async function streamRange(
  r: Requester,
  start: number,
  end: number,
  size: number,
  signal: AbortSignal,
  take: (piece: Uint8Array) => void,
): Promise<void> {
  const response = await requestRange(r, start, end, signal);
  await readBody(r, checkedBody(r.url, response, start, end, size), `bytes ${start} to ${end} of ${r.url}`, end - start, signal, take);
}

/** Bytes [start, end) of a file of `size`, whole (streamRange). */
export async function fetchRange(r: Requester, start: number, end: number, size: number, signal: AbortSignal): Promise<Uint8Array> {
  const bytes = new Uint8Array(end - start);
  let at = 0;
  await streamRange(r, start, end, size, signal, (piece) => {
    bytes.set(piece, at);
    at += piece.length;
  });
  return bytes;
}
