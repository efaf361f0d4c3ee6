/**
 * Random access (C2SP age, "Payload": the payload can be seeked in chunk
 * increments): the plaintext bytes [start, end) of a binary age file read
 * from a source that reads byte ranges (a Blob or File, a path, a Node
 * file handle, or any { size, read(offset, length) }), reading only the
 * header, the chunks the range needs, and the final chunk once, which
 * tells the plaintext's length and shows the file is neither cut short
 * nor extended. The range's chunks of a Blob or a file are read where
 * they are opened, as a file call's pieces (files.ts): on the pool's
 * workers for fourfold/parallel.
 */
import { BYTES_NOT_TEXT } from './api.js';
import { AgeFormatError } from './errors.js';
import { AuthenticationError } from '../runtime/errors.js';
import { INTO_BYTES, isBlob, type PieceSource } from './file-pieces.js';
import type { AgeRunners } from './codec.js';
import { firstFailureError, type FirstFailure, firstFailure, runFiles } from './files.js';
import { fileOf } from './file-ends.js';
import { forgetKeys, openHeader, receiverOf } from './file-key.js';
import { PLAIN_CHUNK, chunkFailure, NONCE_BYTES, openRun, payloadKey, plainLength, type ChunkRun, SEALED_CHUNK, TAG_BYTES } from './payload.js';
import { engine } from '../chacha/tiers.js';
import * as check from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';
import { WORKERS_SHARE_DESCRIPTORS } from '../runtime/host.js';
import { nodeFs } from './node-fs.js';
import { type FileHandleLike, handleSource, type RangeSource, readExactly, readHeader } from './range-source.js';

/** What decryptRange reads from: a Blob or File, a path (a string or a file: URL), a Node file handle, or a RangeSource. */
export type RangeInput = Blob | string | URL | FileHandleLike | RangeSource;

const isHandle = (s: object): s is FileHandleLike => typeof (s as FileHandleLike).stat === 'function' && typeof (s as FileHandleLike).read === 'function';

/**
 * A call's input: read here through `source` (the header, the payload
 * nonce, the final chunk), and, where it is a Blob or a file, by the
 * pieces too (`pieces`: the Blob, or the file's descriptor), which read
 * it on a worker where they can; `close` closes what the call opened.
 */
export interface RangeOpened {
  readonly source: RangeSource;
  readonly pieces?: PieceSource;
  close(): Promise<void>;
}

/** A file handle's descriptor, where it has one the pieces can read (node:fs/promises', and a runtime with node:fs). */
function handleDescriptor(handle: FileHandleLike): number | undefined {
  const fd = (handle as { fd?: unknown }).fd;
  return typeof fd === 'number' && fd >= 0 && nodeFs() !== undefined ? fd : undefined;
}

/** `input`, opened. */
export async function openSource(input: unknown): Promise<RangeOpened> {
  const nothing = async () => {};
  if (isBlob(input)) {
    const source = {
      size: input.size,
      read: async (offset: number, length: number) => new Uint8Array(await input.slice(offset, offset + length).arrayBuffer()),
    };
    return { source, pieces: input, close: nothing };
  }
  if (typeof input === 'string' || input instanceof URL) {
    const fs = nodeFs();
    if (fs === undefined) throw new TypeError('age: decryptRange needs a file system (Node, Deno, Bun) for a path; here, give it a Blob or { size, read }');
    const path = fileOf(input, 'source') as string;
    const handle = await fs.promises.open(path, 'r');
    try {
      // The pieces read the file this call opened, where workers share its descriptor (not Deno: there they open the path).
      return { source: await handleSource(handle), pieces: WORKERS_SHARE_DESCRIPTORS ? handle.fd : path, close: () => handle.close() };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }
  if (typeof input !== 'object' || input === null || check.isPromise(input))
    throw new TypeError(`source must be a Blob, a path, a file handle or { size, read }, got ${check.describe(input)}`);
  if (isHandle(input)) return { source: await handleSource(input), pieces: handleDescriptor(input), close: nothing };
  const { size, read } = input as Partial<RangeSource>;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || typeof read !== 'function') {
    throw new TypeError('source must be a Blob, a path, a file handle, or { size, read(offset, length) }');
  }
  return { source: { size, read: (offset, length) => read.call(input, offset, length) }, close: nothing };
}

/**
 * The plaintext bytes [start, end) (clamped to its length, as
 * Blob.slice clamps) of the age file `input`, for `from`. The chunks of a
 * Blob or a file are read and opened by the runner's `files` (fourfold/parallel:
 * on the pool's workers, where they can read it); those of a RangeSource
 * are read here and opened by `runners.runner()`.
 */
export async function decryptRangeWith(
  runners: AgeRunners,
  input: unknown,
  start: unknown,
  end: unknown,
  from: unknown,
  extra: readonly unknown[],
): Promise<Bytes> {
  check.noMoreArguments('decryptRange', ['source', 'start', 'end', 'from'], extra, BYTES_NOT_TEXT);
  const first = check.count(start, 'start');
  const last = check.count(end, 'end');
  if (last < first) throw new RangeError(`end (${last}) must not be below start (${first})`);
  const receiver = receiverOf(from);
  let key: Uint8Array | undefined;
  try {
    const opened = await openSource(input);
    try {
      const { source } = opened;
      const header = await readHeader(source);
      const fileKey = await openHeader(header, receiver, runners.scrypt);
      const payloadAt = header.length + NONCE_BYTES;
      if (source.size < payloadAt) throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
      key = payloadKey(fileKey, await readExactly(source, header.length, NONCE_BYTES));
      zeroize(fileKey);
      const size = await finalChunk(source, payloadAt, key);
      const from_ = Math.min(first, size);
      const to = Math.min(last, size);
      if (from_ === to) return new Uint8Array(0);
      const range = rangeOf(source, payloadAt, from_, to, size);
      return opened.pieces === undefined ? await readAndOpen(runners, source, key, range) : await openOnFiles(runners, opened.pieces, source, key, range);
    } finally {
      await opened.close();
    }
  } finally {
    forgetKeys(receiver);
    if (key !== undefined) zeroize(key);
  }
}

/** Opens the payload's final chunk (flagged final, at the payload's end) and returns the plaintext's length. */
export async function finalChunk(source: RangeSource, payloadAt: number, key: Uint8Array): Promise<number> {
  const payload = source.size - payloadAt;
  const chunks = Math.max(1, Math.ceil(payload / SEALED_CHUNK));
  const lastAt = (chunks - 1) * SEALED_CHUNK;
  const sealed = await readExactly(source, payloadAt + lastAt, payload - lastAt);
  const plain = new Uint8Array(Math.max(0, sealed.length - TAG_BYTES));
  try {
    if (openRun(engine(), key, { counter: chunks - 1, final: true }, sealed, plain) !== 1) throw chunkFailure(engine(), key, chunks - 1, true, sealed);
  } finally {
    zeroize(plain);
  }
  return payload - TAG_BYTES * chunks;
}

/**
 * The chunks holding plaintext [from, to) of a payload of `size`
 * plaintext bytes: their run, where their sealed bytes are in the file,
 * and the plaintext asked for.
 */
export interface ChunkRange {
  readonly run: ChunkRun;
  readonly at: number;
  readonly length: number;
  readonly from: number;
  readonly to: number;
}

export function rangeOf(source: RangeSource, payloadAt: number, from: number, to: number, size: number): ChunkRange {
  const firstChunk = Math.floor(from / PLAIN_CHUNK);
  const endChunk = Math.ceil(to / PLAIN_CHUNK);
  const lastChunk = Math.max(1, Math.ceil(size / PLAIN_CHUNK)) - 1;
  const sealedEnd = Math.min(endChunk * SEALED_CHUNK, source.size - payloadAt);
  const at = payloadAt + firstChunk * SEALED_CHUNK;
  return { run: { counter: firstChunk, final: endChunk - 1 === lastChunk }, at, length: payloadAt + sealedEnd - at, from, to };
}

/** The plaintext asked for, its chunks read here at once and opened by the runner. */
export async function readAndOpen(runners: AgeRunners, source: RangeSource, key: Uint8Array, range: ChunkRange): Promise<Bytes> {
  const sealed = await readExactly(source, range.at, range.length);
  const plain = new Uint8Array(plainLength(sealed.length));
  const runner = runners.runner();
  try {
    const opened = await runner.open(key, range.run, sealed, plain);
    if (!(opened instanceof Uint8Array)) throw opened.error;
    const at = range.run.counter * PLAIN_CHUNK;
    return plain.slice(range.from - at, range.to - at);
  } finally {
    zeroize(plain);
    runner.done();
  }
}

/**
 * The plaintext asked for, each piece of its chunks read and opened by
 * whoever does it (a worker, where it can read `pieces`), the verified
 * plaintext sent back put in place: the calling thread holds no sealed
 * byte, and makes no array but the one it returns.
 */
async function openOnFiles(runners: AgeRunners, pieces: PieceSource, source: RangeSource, key: Uint8Array, range: ChunkRange): Promise<Bytes> {
  const payload = { opening: true, key, run: range.run, from: pieces, inputAt: range.at, length: range.length, to: INTO_BYTES, outputAt: 0 };
  const plain = new Uint8Array(range.to - range.from);
  const plainAt = range.run.counter * PLAIN_CHUNK;
  let first: FirstFailure;
  let short = false;
  try {
    await runFiles(runners, payload, (p, o) => {
      short ||= o.short;
      first = firstFailure(first, p, o);
      if (o.bytes !== undefined) putInRange(plain, range, o.bytes, plainAt + p.writeAt);
    });
    if (short) throw new AuthenticationError(`the file changed size during the call (it ended before its ${source.size} bytes)`);
    if (first !== undefined) throw await firstFailureError(key, first, async (into, at) => into.set(await readExactly(source, at, into.length)));
    return plain;
  } catch (e) {
    zeroize(plain);
    throw e;
  }
}

/** Copies what of `bytes` (plaintext from `bytesAt`) lies in the range into `plain`, and wipes the rest, which the caller did not ask for. */
function putInRange(plain: Uint8Array, range: ChunkRange, bytes: Uint8Array, bytesAt: number): void {
  const start = Math.min(Math.max(range.from - bytesAt, 0), bytes.length);
  const end = Math.max(Math.min(range.to - bytesAt, bytes.length), start);
  plain.set(bytes.subarray(start, end), bytesAt + start - range.from);
  zeroize(bytes.subarray(0, start));
  zeroize(bytes.subarray(end));
}
