/**
 * A piece of an age file sealed or opened from one file into another, at
 * their offsets: read into a buffer, sealed or opened there, written out.
 * The same code runs in a worker of the pool (jobs.ts) and on the calling
 * thread of a one-thread call (files.ts), so no payload byte crosses a
 * message. A piece reads from a file through node:fs (found at run time:
 * Node, Deno, Bun), by path (opened for the piece, closed after) or by
 * the descriptor of a FileHandle the caller gave (left open); or from a
 * Blob, with FileReaderSync (a browser's workers), or from its bytes read
 * before (the calling thread, which can read a Blob only asynchronously).
 * It writes to a file the same way, or into a Blob of its output, which
 * the call puts in place among the others (blob-files.ts), or into an
 * array of its output's bytes (decryptRange: only verified plaintext is
 * written, so that is all the array ever holds). A piece longer
 * than its buffer is done a buffer at a time, so that a worker takes a
 * few MiB per message.
 */
import {
  PLAIN_CHUNK,
  chunkCount,
  openInPlace,
  PIECE_CHUNKS,
  plainLength,
  type ChunkRun,
  SEALED_CHUNK,
  sealedLength,
  sealInPlace,
  sealPlainAt,
  wholePieces,
} from './payload.js';
import { ArmoredRun } from './armor-lines.js';
import type { ChachaEngine } from '../chacha/engine.js';
import { zeroize } from '../runtime/bytes.js';
import { type NodeFs, nodeFs } from './node-fs.js';

/** What a call reads its input through on this thread: node:fs/promises' FileHandle, the same calls over a descriptor (descriptorFile), or a Blob's. */
export interface InputFile {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number; dev: number; ino: number }>;
  close(): Promise<void>;
}

/** What a call writes its output through: a file's positioned writes, or Blob parts (where `put` takes a piece's Blob, at its position). */
export interface OutputFile {
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<unknown>;
  put?(part: Blob, position: number): void;
}

/** A file: its path, or the descriptor of one the caller opened (Node and Bun share a process's descriptors with its workers). */
export type FileRef = string | number;

/** Where a piece reads: a file, or a Blob. */
export type PieceSource = FileRef | Blob;

/** Whether `value` is a Blob (or File), where the engine has Blobs. */
export const isBlob = (value: unknown): value is Blob => typeof Blob === 'function' && value instanceof Blob;

/** A piece's output kept in memory: a Blob of it (the outcome's `part`), or its bytes (the outcome's `bytes`). */
export interface MemorySink {
  readonly into: 'blob' | 'bytes';
}

/** A file written as armor (armor-lines.ts ArmoredRun): the piece's bytes as base64 lines at their offsets in its text. */
export interface ArmoredSink {
  readonly armored: FileRef;
}

/** Where a piece writes: a file, armored or not, or memory. */
export type PieceSink = FileRef | ArmoredSink | MemorySink;

/** The file a sink writes, if any. */
export const sinkFile = (sink: PieceSink): FileRef | undefined => (typeof sink !== 'object' ? sink : 'armored' in sink ? sink.armored : undefined);

/** A Blob of the piece's output: a browser's file calls. */
export const INTO_BLOB: MemorySink = { into: 'blob' };

/** An array of the piece's output: decryptRange's chunks. */
export const INTO_BYTES: MemorySink = { into: 'bytes' };

/** Whether `sink` is memory of kind `into` (a sink that crossed a message is a copy: compared by kind). */
const isInto = (sink: PieceSink, into: MemorySink['into']): boolean => typeof sink === 'object' && 'into' in sink && sink.into === into;

/** A piece: its run of chunks, its input's bytes and where they are, and where its output goes. */
export interface FilePiece {
  readonly run: ChunkRun;
  /** Bytes of input: plaintext to seal, or sealed chunks to open. */
  readonly length: number;
  readonly from: PieceSource;
  readonly readAt: number;
  readonly to: PieceSink;
  readonly writeAt: number;
}

/**
 * A file call's payload, or a run of its chunks: which way, under which
 * key, which chunks (`run`: the first one's counter, and whether the run
 * ends the payload; a file call's is all of them, { counter: 0, final:
 * true }), where their input starts and how long it is, and where their
 * output starts.
 */
export interface FilePayload {
  readonly opening: boolean;
  readonly key: Uint8Array;
  readonly run: ChunkRun;
  readonly from: PieceSource;
  readonly inputAt: number;
  readonly length: number;
  readonly to: PieceSink;
  readonly outputAt: number;
}

/** A whole payload's run of chunks: from the first, to the final one. */
export const WHOLE: ChunkRun = { counter: 0, final: true };

/** The piece of `payload` over its input's bytes [start, start + length), start on a chunk boundary. */
export function pieceOf(payload: FilePayload, start: number, length: number): FilePiece {
  const [unit, outUnit] = payload.opening ? [SEALED_CHUNK, PLAIN_CHUNK] : [PLAIN_CHUNK, SEALED_CHUNK];
  const first = start / unit;
  const total = payload.opening ? Math.ceil(payload.length / unit) : chunkCount(payload.length);
  const chunks = payload.opening ? Math.ceil(length / unit) : chunkCount(length);
  return {
    run: { counter: payload.run.counter + first, final: payload.run.final && first + chunks === total },
    length,
    from: payload.from,
    readAt: payload.inputAt + start,
    to: payload.to,
    writeAt: payload.outputAt + first * outUnit,
  };
}

/** The pieces over a payload's input, of `chunks` chunks (an empty plaintext is one empty piece: its one empty chunk). */
export const piecesOf = (payload: FilePayload, chunks = PIECE_CHUNKS) =>
  payload.length === 0 ? [{ start: 0, length: 0 }] : wholePieces(payload.length, payload.opening ? SEALED_CHUNK : PLAIN_CHUNK, chunks);

/** A buffer for file pieces, kept by whoever does them (a worker, this thread): a slot's size, 15 sealed chunks done at a time. */
export const pieceBuffer = (): Uint8Array => new Uint8Array(PIECE_CHUNKS * SEALED_CHUNK);

/**
 * Chunks in a piece of a Blob (3.9 MiB): each read of a Blob and each Blob
 * made is a round trip to the browser's process (2-3 ms in Chromium), so
 * a Blob's piece is read and written whole, in one of each.
 */
export const BLOB_PIECE_CHUNKS = 60;

/** `kept` where it holds piece `p` as it must be done, else a new buffer that does: a piece that reads or writes a Blob is done whole, at once. */
export function bufferFor(p: FilePiece, kept: Uint8Array): Uint8Array {
  const blob = isBlob(p.from) || isInto(p.to, 'blob');
  const bytes = blob ? chunkCount(p.length) * SEALED_CHUNK : 0;
  return kept.length >= bytes ? kept : new Uint8Array(bytes);
}

/**
 * What a piece did: how many of its chunks verified (all, sealing),
 * whether its input ended before `length` bytes, and, written into
 * memory, the Blob or the bytes of its output (opening, of the chunks
 * that verified: zeros after them), to go at writeAt; written as armor,
 * its edges (`bytes`: ArmoredRun.edges).
 */
export interface PieceOutcome {
  readonly good: number;
  readonly short: boolean;
  readonly part?: Blob;
  readonly bytes?: Uint8Array;
}

/** A piece's input, read at absolute positions: returns how many bytes it read (fewer only where the input ends). */
export interface PieceInput {
  read(into: Uint8Array, at: number): number;
  close(): void;
}

/** A piece's output, written at absolute positions; closing it gives what it holds in memory (the outcome's `part` or `bytes`). */
interface PieceOutput {
  write(bytes: Uint8Array, at: number): void;
  close(): Pick<PieceOutcome, 'part' | 'bytes'>;
}

/** Reads `into.length` bytes of `fd` from `at`, or fewer where the file ends; returns how many. */
function readFully(fs: NodeFs, fd: number, into: Uint8Array, at: number): number {
  let done = 0;
  while (done < into.length) {
    const n = fs.readSync(fd, into, done, into.length - done, at + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** Writes all of `bytes` to `fd` at `at`. */
function writeFully(fs: NodeFs, fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done, at + done);
}

/** A file (a path opened with `flags` and closed by close(), or a descriptor used as it is). */
function openDescriptor(file: FileRef, flags: string): { fs: NodeFs; fd: number; close(): void } {
  const fs = nodeFs();
  if (fs === undefined) throw new Error('fourfold: this runtime has no node:fs for age file calls');
  if (typeof file === 'number') return { fs, fd: file, close() {} };
  const fd = fs.openSync(file, flags);
  return { fs, fd, close: () => fs.closeSync(fd) };
}

interface FileReaderSyncLike {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** A Blob read synchronously: FileReaderSync, which a browser's dedicated workers have (its window has none). */
function blobReadSync(blob: Blob): PieceInput {
  const Reader = (globalThis as { FileReaderSync?: new () => FileReaderSyncLike }).FileReaderSync;
  if (Reader === undefined) throw new Error('fourfold: this thread cannot read a Blob synchronously (no FileReaderSync)');
  const reader = new Reader();
  return {
    read(into, at) {
      const bytes = new Uint8Array(reader.readAsArrayBuffer(blob.slice(at, at + into.length)));
      into.set(bytes);
      zeroize(bytes);
      return bytes.length;
    },
    close() {},
  };
}

/** The input of a piece whose bytes were read before (from `at`): the calling thread's, for a Blob. */
export function readBefore(bytes: Uint8Array, at: number): PieceInput {
  return {
    read(into, position) {
      const part = bytes.subarray(position - at, position - at + into.length);
      into.set(part);
      return part.length;
    },
    close: () => zeroize(bytes),
  };
}

function inputOf(source: PieceSource | PieceInput): PieceInput {
  if (isBlob(source)) return blobReadSync(source);
  if (typeof source === 'object') return source as PieceInput;
  const { fs, fd, close } = openDescriptor(source, 'r');
  return { read: (into, at) => readFully(fs, fd, into, at), close };
}

/** Output into a Blob: the parts written, in order (a piece's writes are front to back), joined once it is done. */
function blobOutput(): PieceOutput {
  const parts: Blob[] = [];
  return {
    // The Blob copies the bytes (File API, "process blob parts"): the buffer is used again.
    write: (bytes) => void parts.push(new Blob([bytes as Uint8Array<ArrayBuffer>])),
    close: () => ({ part: new Blob(parts) }),
  };
}

/** Output into a new array of `length` bytes, the piece's output from `from` (its writeAt); zeroed if the piece throws. */
function bytesOutput(from: number, length: number): PieceOutput {
  const bytes = new Uint8Array(length);
  return {
    write: (part, at) => bytes.set(part, at - from),
    close: () => ({ bytes }),
  };
}

function pieceOutputOf(p: FilePiece, length: number): PieceOutput {
  if (isInto(p.to, 'blob')) return blobOutput();
  if (isInto(p.to, 'bytes')) return bytesOutput(p.writeAt, length);
  const { fs, fd, close } = openDescriptor(sinkFile(p.to)!, 'r+');
  if (typeof p.to !== 'object') {
    return {
      write: (bytes, at) => writeFully(fs, fd, bytes, at),
      close() {
        close();
        return {};
      },
    };
  }
  // Armored: the lines it holds whole written here; its edges, which its neighbours share, to the call.
  const run = new ArmoredRun(p.writeAt, p.writeAt + length, (text, at) => writeFully(fs, fd, text, at));
  return {
    write: (bytes) => run.push(bytes),
    close() {
      close();
      return { bytes: run.edges() };
    },
  };
}

/** Runs `f` on the piece's input and its output (`length` bytes at most), closed after; what the output holds in memory joins the outcome. */
function through(p: FilePiece, source: PieceSource | PieceInput, length: number, f: (input: PieceInput, output: PieceOutput) => PieceOutcome): PieceOutcome {
  const input = inputOf(source);
  try {
    const output = pieceOutputOf(p, length);
    let outcome: PieceOutcome | undefined;
    try {
      outcome = f(input, output);
    } finally {
      const held = output.close();
      if (outcome !== undefined) outcome = { ...outcome, ...held };
      else if (held.bytes !== undefined) zeroize(held.bytes);
    }
    return outcome;
  } finally {
    input.close();
  }
}

/**
 * The chunks of a piece's input done at once in `buffer`: as many as fit,
 * sealed; at least one (a buffer shorter than a sealed chunk is given for
 * a piece that is shorter still: the final chunk alone).
 */
const chunksAtOnce = (buffer: Uint8Array): number => Math.max(1, Math.floor(buffer.length / SEALED_CHUNK));

/**
 * Seals piece `p` through `buffer` (at least one sealed chunk long), as
 * many chunks at a time as it holds: each part's plaintext read in after
 * room for its tags, sealed in place (payload.ts sealInPlace), written
 * out. The buffer is zeroed after, as far as it was used. `source`: where
 * the input is read, p.from unless its bytes were read before (readBefore).
 */
export function sealFilePiece(
  engine: ChachaEngine,
  key: Uint8Array,
  p: FilePiece,
  buffer: Uint8Array,
  source: PieceSource | PieceInput = p.from,
): PieceOutcome {
  const part = chunksAtOnce(buffer) * PLAIN_CHUNK;
  const chunks = chunkCount(p.length);
  try {
    return through(p, source, sealedLength(p.length), (input, output) => {
      // An empty piece is one empty chunk: the loop runs once.
      for (let at = 0; at === 0 || at < p.length; at += part) {
        const length = Math.min(part, p.length - at);
        const into = sealPlainAt(length);
        if (input.read(buffer.subarray(into, into + length), p.readAt + at) < length) return { good: 0, short: true };
        const first = at / PLAIN_CHUNK;
        sealInPlace(engine, key, { counter: p.run.counter + first, final: p.run.final && first + chunkCount(length) === chunks }, buffer, length);
        output.write(buffer.subarray(0, sealedLength(length)), p.writeAt + first * SEALED_CHUNK);
      }
      return { good: chunks, short: false };
    });
  } finally {
    zeroize(buffer.subarray(0, sealedLength(Math.min(part, p.length))));
  }
}

/**
 * Opens piece `p` through `buffer` (at least one sealed chunk long), as
 * many chunks at a time as it holds: each part's sealed chunks read in,
 * opened in place (payload.ts openInPlace), and the plaintext of those
 * that verified, and only theirs, written out; it stops at the first that
 * does not. The buffer is zeroed after, as far as it was used; `source`
 * as sealFilePiece's.
 */
export function openFilePiece(
  engine: ChachaEngine,
  key: Uint8Array,
  p: FilePiece,
  buffer: Uint8Array,
  source: PieceSource | PieceInput = p.from,
): PieceOutcome {
  const part = chunksAtOnce(buffer) * SEALED_CHUNK;
  try {
    return through(p, source, plainLength(p.length), (input, output) => {
      let good = 0;
      for (let at = 0; at < p.length; at += part) {
        const length = Math.min(part, p.length - at);
        if (input.read(buffer.subarray(0, length), p.readAt + at) < length) return { good, short: true };
        const first = at / SEALED_CHUNK;
        const run = { counter: p.run.counter + first, final: p.run.final && at + length === p.length };
        const opened = openInPlace(engine, key, run, buffer, length);
        const plain = Math.min(opened * PLAIN_CHUNK, plainLength(length));
        if (plain > 0) output.write(buffer.subarray(0, plain), p.writeAt + first * PLAIN_CHUNK);
        good += opened;
        if (opened < Math.ceil(length / SEALED_CHUNK)) break;
      }
      return { good, short: false };
    });
  } finally {
    zeroize(buffer.subarray(0, Math.min(part, p.length)));
  }
}
