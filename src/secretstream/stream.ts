/**
 * Whole byte streams through secretstream, as WHATWG TransformStreams (the
 * same objects in browsers, Deno, Bun and Node, where Readable.toWeb /
 * Writable.toWeb connect Node streams). The encrypted stream is the
 * 24-byte header, then a TAG_MESSAGE message (chunkSize + 17 bytes) per
 * whole chunk of input, then a TAG_FINAL message with the 0 .. chunkSize - 1
 * bytes left. So an empty input encrypts to 24 + 17 bytes, and a stream of
 * L bytes to 24 + L + 17 * (floor(L / chunkSize) + 1). Closing with its own
 * message, possibly empty, lets every whole chunk go out as soon as it is
 * complete: nothing is held back to learn whether it is the last.
 *
 * Input chunks of any size are re-chunked; whole chunks inside an input
 * chunk are encrypted in place, only the pieces across input boundaries are
 * gathered in a buffer. Memory stays at one chunk (plus one input chunk's
 * output while it is queued) for any stream length. The decryptor also
 * accepts streams whose FINAL message is a whole chunk (libsodium's
 * file-encryption example writes those).
 */
import type { Pulled } from './engine.js';
import { initPull, initPush, type SecretstreamPull, type SecretstreamPush } from './messages.js';
import { ABYTES, HEADER_BYTES, TAG_FINAL, TAG_MESSAGE } from './state.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';
import { type Emit, needTransformStream, releasingStream } from '../runtime/releasing-stream.js';

/** The options of encryptStream and decryptStream. Any other property is refused (TypeError). */
export interface StreamOptions {
  /**
   * Plaintext bytes per message, 64 KiB by default (1 to 2^30). Decryption
   * must use the value encryption used: the stream does not record it.
   */
  chunkSize?: number;
}

/** What a byte stream may carry into encryptStream and decryptStream: any ArrayBufferView (a Uint8Array, a Buffer...) or buffer. */
export type StreamChunk = ArrayBufferView | ArrayBufferLike;

export const DEFAULT_CHUNK = 65536;

/**
 * Why the first message of a stream did not verify. Besides a changed
 * stream or another key, a decryptStream given another chunkSize than
 * encryptStream was cuts the stream at the wrong places, and its first
 * message is where that shows (the stream does not record its chunkSize).
 */
export function firstMessageFailed(chunkSize: number): AuthenticationError {
  return new AuthenticationError(
    'secretstream: the first message does not verify: the stream was changed, the key is not the one it was encrypted with, ' +
      `or it was encrypted with another chunkSize (decryptStream must be given encryptStream's; this one's is ${chunkSize})`,
  );
}

/** The options' chunk size (each option read once). */
export function chunkSizeOf(options: unknown): number {
  const size = (check.options(options, 'options', ['chunkSize']) as StreamOptions | undefined)?.chunkSize;
  if (size === undefined) return DEFAULT_CHUNK;
  if (typeof size !== 'number') throw new TypeError(`chunkSize must be a number, got ${check.describe(size)}`);
  if (!Number.isSafeInteger(size) || size < 1 || size > 2 ** 30) {
    // Each message is held whole in memory (up to four at once in fourfold/parallel): at most 1 GiB.
    throw new RangeError(`chunkSize must be an integer from 1 to 2^30 (a message is held whole in memory), got ${size}`);
  }
  return size;
}

/** A chunk of a byte stream (any ArrayBufferView, ArrayBuffer or SharedArrayBuffer, of any realm) as a plain Uint8Array. */
export const chunkBytes = (chunk: unknown): Uint8Array => check.byteSource(chunk, 'chunk');

/**
 * Cuts a byte stream into records of `size` bytes and a last, shorter one
 * (possibly empty). A whole record is handed over at once, straight from
 * the input when the input holds one (no copy), else gathered in a buffer
 * of its own (made when first needed: a stream of whole chunks never
 * needs it).
 */
export class Records {
  private pending: Uint8Array | undefined;
  private filled = 0;

  constructor(private readonly size: number) {}

  /** Hands each record that `data` completes to `emit`, in order, and keeps the bytes after the last. */
  write(data: Uint8Array, emit: (record: Uint8Array) => void): void {
    const size = this.size;
    let pos = 0;
    if (this.filled > 0) {
      const take = Math.min(size - this.filled, data.length);
      this.pending!.set(data.subarray(0, take), this.filled);
      this.filled += take;
      pos = take;
      if (this.filled < size) return;
      this.filled = 0;
      emit(this.pending!);
    }
    for (; data.length - pos >= size; pos += size) emit(data.subarray(pos, pos + size));
    if (pos === data.length) return;
    this.pending ??= new Uint8Array(size);
    this.pending.set(data.subarray(pos), 0);
    this.filled = data.length - pos;
  }

  /** The bytes after the last whole record (a view, valid until the next write). */
  rest(): Uint8Array {
    return this.pending?.subarray(0, this.filled) ?? new Uint8Array(0);
  }

  wipe(): void {
    this.pending?.fill(0);
    this.filled = 0;
  }
}

/**
 * A TransformStream from plaintext bytes to an encrypted stream under a
 * 32-byte key: the 24-byte header (the stream's random nonce) first, then
 * one message of `chunkSize + 17` bytes per chunk of input and a final
 * one. Everything decryption needs but the key is in the stream; memory
 * stays at about one chunk, whatever the stream's length. The key is
 * copied: the caller may wipe its own.
 *
 * @example
 * ```ts
 * import { encryptStream, decryptStream } from 'fourfold/secretstream';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const encrypted = new Blob(['a file of any size']).stream().pipeThrough(encryptStream(key));
 * const blob = await new Response(encrypted).blob(); // store or upload it
 * const text = await new Response(blob.stream().pipeThrough(decryptStream(key))).text();
 * ```
 */
export function encryptStream(key: Uint8Array, options?: StreamOptions): TransformStream<StreamChunk, Bytes> {
  const chunkSize = chunkSizeOf(options);
  needTransformStream('secretstream: encryptStream', 'initPush / initPull directly');
  const stream: SecretstreamPush = initPush(key);
  const records = new Records(chunkSize);
  let started = false;
  /** The header goes out before the first message. */
  const start = (emit: Emit): void => {
    if (!started) emit(stream.header.slice());
    started = true;
  };
  return releasingStream({
    transform(chunk, emit) {
      const data = chunkBytes(chunk);
      start(emit);
      records.write(data, (record) => emit(stream.push(record, TAG_MESSAGE)));
    },
    flush(emit) {
      start(emit);
      emit(stream.push(records.rest(), TAG_FINAL));
    },
    release() {
      records.wipe();
      stream.destroy();
    },
  });
}

/**
 * A TransformStream from an encrypted stream (encryptStream's, or
 * libsodium's) back to the plaintext, under the 32-byte key and the
 * chunkSize it was encrypted with. It errors with AuthenticationError,
 * releasing no plaintext of the failing message, when a message does not
 * verify, when the stream ends before its final message (truncation), or
 * when data follows that message.
 */
export function decryptStream(key: Uint8Array, options?: StreamOptions): TransformStream<StreamChunk, Bytes> {
  const chunkSize = chunkSizeOf(options);
  needTransformStream('secretstream: decryptStream', 'initPush / initPull directly');
  // The key is needed only once the header has come: a copy (wiped then), so the caller may wipe its own now.
  const streamKey = check.bytes(key, 'key', 32).slice();
  const header = new Uint8Array(HEADER_BYTES);
  let headerFilled = 0;
  let stream: SecretstreamPull | undefined;
  let finished = false;
  const records = new Records(chunkSize + ABYTES);
  const fail = (message: string): never => {
    throw new AuthenticationError(`secretstream: ${message}`);
  };

  let verified = 0;
  /** One message: its plaintext goes out only once it verified. */
  const pull = (record: Uint8Array, emit: Emit): void => {
    if (finished) fail('data follows the final message');
    if (record.length < ABYTES) fail('the stream ends inside a message (truncated)');
    let pulled: Pulled;
    try {
      pulled = stream!.pull(record);
    } catch (cause) {
      throw verified === 0 && cause instanceof AuthenticationError ? firstMessageFailed(chunkSize) : cause;
    }
    verified++;
    if (pulled.tag === TAG_FINAL) finished = true;
    emit(pulled.message);
  };

  return releasingStream({
    transform(chunk, emit) {
      let data = chunkBytes(chunk);
      if (stream === undefined) {
        const take = Math.min(HEADER_BYTES - headerFilled, data.length);
        header.set(data.subarray(0, take), headerFilled);
        headerFilled += take;
        data = data.subarray(take);
        if (headerFilled < HEADER_BYTES) return;
        stream = initPull(header, streamKey);
        streamKey.fill(0);
      }
      if (finished && data.length > 0) fail('data follows the final message');
      records.write(data, (record) => pull(record, emit));
    },
    flush(emit) {
      if (stream === undefined) fail('the stream ended inside its header (truncated)');
      const rest = records.rest();
      if (rest.length > 0) pull(rest, emit);
      if (!finished) fail('the stream ended before its final message (truncated)');
    },
    release() {
      records.wipe();
      streamKey.fill(0);
      stream?.destroy();
    },
  });
}
