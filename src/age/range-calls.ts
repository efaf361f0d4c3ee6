/**
 * fourfold/age's calls that read an age file by range over HTTP and answer
 * Range requests, as small wrappers that import their code at the first
 * call (http-source.ts, http-blocks.ts, http-fetch.ts, range-reader.ts,
 * range-response.ts): a page that imports the whole entry but never plays
 * a file over HTTP does not download them. RangeRequestError, which a
 * caller tests with `instanceof`, is here as it is (http-error.ts). The
 * specifiers are in parentheses to keep Vite's preload helper out, as
 * keys.ts explains.
 */
import type { AgeRunners } from './codec.js';
import type { HttpRangeOptions, HttpRangeSource } from './http-source.js';
import type { RangeReader } from './range-reader.js';
import type { RangeResponseOptions } from './range-response.js';

export { RangeRequestError } from './http-error.js';

// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const sourceCode = () => import(('./http-source.js'));
// biome-ignore format: as above
const readerCode = () => import(('./range-reader.js'));
// biome-ignore format: as above
const responseCode = () => import(('./range-response.js'));

/**
 * The age file at `url` as a RangeSource for decryptRange and
 * openRangeReader, once its header has been read: a first request for
 * its first 16 KiB (more where the header is longer) tells its size (the
 * Content-Range) and where its payload starts. Rejects with
 * RangeRequestError when the server does not serve the range as asked,
 * AgeFormatError when the file is not a binary age file.
 */
export async function httpRangeSource(url: string | URL, options?: HttpRangeOptions): Promise<HttpRangeSource> {
  return (await sourceCode()).openHttpSource(url, options);
}

/** openRangeReader on `runners` (fourfold/age's thread, or fourfold/parallel's pool): range-reader.ts, imported at the first call. */
export async function openRangeReaderOn(runners: AgeRunners, input: unknown, from: unknown, extra: readonly unknown[]): Promise<RangeReader> {
  return (await readerCode()).openRangeReaderWith(runners, input, from, extra);
}

/**
 * The response to `request` (a GET or HEAD, from a Service Worker's
 * fetch event) with the plaintext `reader` decrypts: 206 and the range
 * asked for, 416 for a range past the end, 200 and all of it without a
 * Range header; 405 for other methods. It resolves once the range's
 * first chunk has verified: where that one does not (or cannot be
 * fetched), with 502 and the error's text, which stops a media element
 * at once; a later chunk that does not verify errors the body.
 *
 * @example
 * ```ts
 * // sw.js
 * import { httpRangeSource, openRangeReader, rangeResponse } from 'fourfold/age';
 * let video;
 * self.addEventListener('fetch', (event) => {
 *   if (new URL(event.request.url).pathname !== '/film.webm') return;
 *   video ??= httpRangeSource('/film.webm.age').then((source) => openRangeReader(source, { identities: [identity] }));
 *   event.respondWith(video.then((reader) => rangeResponse(event.request, reader, { type: 'video/webm' })));
 * });
 * ```
 */
export async function rangeResponse(request: Request, reader: RangeReader, options?: RangeResponseOptions, ...extra: unknown[]): Promise<Response> {
  return (await responseCode()).respondWithRange(request, reader, options, ...extra);
}
