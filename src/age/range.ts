/**
 * Random access (C2SP age, "Payload": the payload can be seeked in chunk
 * increments): the plaintext bytes [start, end) of a binary age file read
 * from a source that reads byte ranges (a Blob or File, a Node file
 * handle, or any { size, read(offset, length) }), reading only the header,
 * the chunks the range needs, and the final chunk once, which tells the
 * plaintext's length and shows the file is neither cut short nor
 * extended.
 */
import { isArmored } from './armor.js';
import { BYTES_NOT_TEXT } from './api.js';
import type { Tools } from './codec.js';
import { AgeFormatError } from './errors.js';
import { isBlob } from './file-pieces.js';
import { forget, openHeader, receiverOf } from './file-key.js';
import { type Header, HeaderReader } from './header.js';
import { CHUNK, chunkFailure, NONCE_BYTES, openRun, payloadKey, plainLength, SEALED_CHUNK, TAG } from './payload.js';
import { engine } from '../chacha/tiers.js';
import * as check from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';

/** Anything that reads byte ranges of a file of known size. */
export interface RangeSource {
  /** The file's bytes. */
  readonly size: number;
  /** `length` bytes from `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** The methods of a Node FileHandle (node:fs/promises open()) that decryptRange uses. */
export interface FileHandleLike {
  /** The file's size. */
  stat(): Promise<{
    /** Bytes. */
    size: number | bigint;
  }>;
  /** Reads `length` bytes at `position` into `buffer` from `offset`. */
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{
    /** Bytes read: fewer than asked only at the end of the file. */
    bytesRead: number;
  }>;
}

/** What decryptRange reads from: a Blob or File, a Node file handle, or a RangeSource. */
export type RangeInput = Blob | FileHandleLike | RangeSource;

const isHandle = (s: object): s is FileHandleLike => typeof (s as FileHandleLike).stat === 'function' && typeof (s as FileHandleLike).read === 'function';

/** `input` as a RangeSource. */
async function sourceOf(input: unknown): Promise<RangeSource> {
  if (isBlob(input)) return { size: input.size, read: async (offset, length) => new Uint8Array(await input.slice(offset, offset + length).arrayBuffer()) };
  if (typeof input !== 'object' || input === null) throw new TypeError(`source must be a Blob, a file handle or { size, read }, got ${check.describe(input)}`);
  if (isHandle(input)) {
    const size = Number((await input.stat()).size);
    return {
      size,
      read: async (offset, length) => {
        const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
        let got = 0;
        while (got < buffer.length) {
          const { bytesRead } = await input.read(buffer, got, buffer.length - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return buffer.subarray(0, got);
      },
    };
  }
  const { size, read } = input as Partial<RangeSource>;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || typeof read !== 'function') {
    throw new TypeError('source must be a Blob, a file handle, or { size, read(offset, length) }');
  }
  return { size, read: (offset, length) => read.call(input, offset, length) };
}

/** Exactly `length` bytes at `offset`, or an AgeFormatError: the source gave fewer than its size promised. */
async function readExactly(source: RangeSource, offset: number, length: number): Promise<Uint8Array> {
  const bytes = check.bytes(await source.read(offset, length), 'what source.read returned');
  if (bytes.length !== length) throw new AgeFormatError(`the source gave ${bytes.length} bytes at ${offset}, not the ${length} its size promises`);
  return bytes;
}

/** The header at the start of `source`: reads more until it parses (binary files only), each byte once. */
async function readHeader(source: RangeSource): Promise<Header> {
  const reader = new HeaderReader();
  for (let at = 0, length = 4096; ; at += length, length *= 2) {
    const bytes = await readExactly(source, at, Math.min(length, source.size - at));
    const ended = at + bytes.length === source.size;
    if (at === 0 && isArmored(bytes, ended)) throw new AgeFormatError('an armored file: random access needs the binary form (decrypt it whole instead)');
    const read = reader.push(bytes);
    if (read !== undefined) return read.header;
    if (ended) throw reader.ended();
  }
}

/**
 * The plaintext bytes [start, end) (clamped to its length, as
 * Blob.slice clamps) of the age file `input`, for `from`: its chunks
 * opened by `tools.runner()`.
 */
export async function decryptRangeWith(tools: Tools, input: unknown, start: unknown, end: unknown, from: unknown, extra: readonly unknown[]): Promise<Bytes> {
  check.noMoreArguments('decryptRange', ['source', 'start', 'end', 'from'], extra, BYTES_NOT_TEXT);
  const first = check.count(start, 'start');
  const last = check.count(end, 'end');
  if (last < first) throw new RangeError(`end (${last}) must not be below start (${first})`);
  const receiver = receiverOf(from);
  let key: Uint8Array | undefined;
  try {
    const source = await sourceOf(input);
    const header = await readHeader(source);
    const fileKey = await openHeader(header, receiver, tools.scrypt);
    const payloadAt = header.length + NONCE_BYTES;
    if (source.size < payloadAt) throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
    key = payloadKey(fileKey, await readExactly(source, header.length, NONCE_BYTES));
    zeroize(fileKey);
    const size = await finalChunk(source, payloadAt, key);
    const from_ = Math.min(first, size);
    const to = Math.min(last, size);
    if (from_ === to) return new Uint8Array(0);
    return await chunksOf(tools, source, payloadAt, key, from_, to, size);
  } finally {
    forget(receiver);
    if (key !== undefined) zeroize(key);
  }
}

/** Opens the payload's final chunk (flagged final, at the payload's end) and returns the plaintext's length. */
async function finalChunk(source: RangeSource, payloadAt: number, key: Uint8Array): Promise<number> {
  const payload = source.size - payloadAt;
  const chunks = Math.max(1, Math.ceil(payload / SEALED_CHUNK));
  const lastAt = (chunks - 1) * SEALED_CHUNK;
  const sealed = await readExactly(source, payloadAt + lastAt, payload - lastAt);
  const plain = new Uint8Array(Math.max(0, sealed.length - TAG));
  try {
    if (openRun(engine(), key, { counter: chunks - 1, final: true }, sealed, plain) !== 1) throw chunkFailure(engine(), key, chunks - 1, true, sealed);
  } finally {
    zeroize(plain);
  }
  return payload - TAG * chunks;
}

/** The plaintext [from, to) of a payload of `size` plaintext bytes: its chunks read at once and opened together. */
async function chunksOf(tools: Tools, source: RangeSource, payloadAt: number, key: Uint8Array, from: number, to: number, size: number): Promise<Bytes> {
  const firstChunk = Math.floor(from / CHUNK);
  const endChunk = Math.ceil(to / CHUNK);
  const lastChunk = Math.max(1, Math.ceil(size / CHUNK)) - 1;
  const sealedEnd = Math.min(endChunk * SEALED_CHUNK, source.size - payloadAt);
  const sealed = await readExactly(source, payloadAt + firstChunk * SEALED_CHUNK, sealedEnd - firstChunk * SEALED_CHUNK);
  const plain = new Uint8Array(plainLength(sealed.length));
  const runner = tools.runner();
  try {
    const opened = await runner.open(key, { counter: firstChunk, final: endChunk - 1 === lastChunk }, sealed, plain);
    if (!(opened instanceof Uint8Array)) throw opened.error;
    const at = firstChunk * CHUNK;
    return plain.slice(from - at, to - at);
  } finally {
    zeroize(plain);
    runner.done();
  }
}
