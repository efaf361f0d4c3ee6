/**
 * A piece of an age file sealed or opened from one file into another, at
 * their offsets: read into a buffer, sealed or opened there, written out.
 * The same code runs in a worker of the pool (jobs.ts, its slot as the
 * buffer) and on the calling thread of a one-thread call (files.ts), so
 * no payload byte crosses a message. Positioned, synchronous reads and
 * writes through node:fs (found at run time: Node, Deno, Bun), each file
 * opened by path for the piece and closed after it, or used through the
 * descriptor of a FileHandle the caller gave (left open); a piece longer than
 * its buffer is done a buffer at a time, so that a worker takes a few
 * MiB per message.
 */
import { CHUNK, chunksOf, openInPlace, PIECE_CHUNKS, plainLength, type Run, SEALED_CHUNK, sealedLength, sealInPlace, sealPlainAt } from './payload.js';
import type { ChachaEngine } from '../chacha/engine.js';
import { zeroize } from '../runtime/bytes.js';
import { builtinModule } from '../runtime/host.js';

/** The synchronous calls of node:fs a piece makes (declared here: the package's types name no node: module). */
interface Fs {
  openSync(path: string, flags: string): number;
  closeSync(fd: number): void;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
}

/** node:fs's synchronous calls, or undefined where the runtime has none (browsers, Hermes). */
const fileSystem = (): Fs | undefined => builtinModule<Fs>('node:fs');

/** A file: its path, or the descriptor of one the caller opened (Node and Bun share a process's descriptors with its workers). */
export type FileRef = string | number;

/** A piece: its run of chunks, its input's bytes and where they are, and where its output goes. */
export interface FilePiece {
  readonly run: Run;
  /** Bytes of input: plaintext to seal, or sealed chunks to open. */
  readonly length: number;
  readonly from: FileRef;
  readonly readAt: number;
  readonly to: FileRef;
  readonly writeAt: number;
}

/** A buffer for file pieces, kept by whoever does them (a worker, this thread): a slot's size, 15 sealed chunks done at a time. */
export const pieceBuffer = (): Uint8Array => new Uint8Array(PIECE_CHUNKS * SEALED_CHUNK);

/** What a piece did: how many of its chunks verified (all, sealing), and whether its input ended before `length` bytes. */
export interface PieceOutcome {
  readonly good: number;
  readonly short: boolean;
}

/** Reads `into.length` bytes of `fd` from `at`, or fewer where the file ends; returns how many. */
function readFully(fs: Fs, fd: number, into: Uint8Array, at: number): number {
  let done = 0;
  while (done < into.length) {
    const n = fs.readSync(fd, into, done, into.length - done, at + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** Writes all of `bytes` to `fd` at `at`. */
function writeFully(fs: Fs, fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done, at + done);
}

/** Runs `f` on `file` (a path opened with `flags` and closed after, or a descriptor used as it is). */
function withFile<T>(fs: Fs, file: FileRef, flags: string, f: (fd: number) => T): T {
  if (typeof file === 'number') return f(file);
  const fd = fs.openSync(file, flags);
  try {
    return f(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function needFs(): Fs {
  const fs = fileSystem();
  if (fs === undefined) throw new Error('fourfold: this runtime has no node:fs for age file calls');
  return fs;
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
 * out. The buffer is zeroed after, as far as it was used.
 */
export function sealFilePiece(engine: ChachaEngine, key: Uint8Array, p: FilePiece, buffer: Uint8Array): PieceOutcome {
  const fs = needFs();
  const part = chunksAtOnce(buffer) * CHUNK;
  const chunks = chunksOf(p.length);
  try {
    return withFile(fs, p.from, 'r', (input) =>
      withFile(fs, p.to, 'r+', (output) => {
        // An empty piece is one empty chunk: the loop runs once.
        for (let at = 0; at === 0 || at < p.length; at += part) {
          const length = Math.min(part, p.length - at);
          const into = sealPlainAt(length);
          if (readFully(fs, input, buffer.subarray(into, into + length), p.readAt + at) < length) return { good: 0, short: true };
          const first = at / CHUNK;
          sealInPlace(engine, key, { counter: p.run.counter + first, final: p.run.final && first + chunksOf(length) === chunks }, buffer, length);
          writeFully(fs, output, buffer.subarray(0, sealedLength(length)), p.writeAt + first * SEALED_CHUNK);
        }
        return { good: chunks, short: false };
      }),
    );
  } finally {
    zeroize(buffer.subarray(0, sealedLength(Math.min(part, p.length))));
  }
}

/**
 * Opens piece `p` through `buffer` (at least one sealed chunk long), as
 * many chunks at a time as it holds: each part's sealed chunks read in,
 * opened in place (payload.ts openInPlace), and the plaintext of those
 * that verified, and only theirs, written out; it stops at the first that
 * does not. The buffer is zeroed after, as far as it was used.
 */
export function openFilePiece(engine: ChachaEngine, key: Uint8Array, p: FilePiece, buffer: Uint8Array): PieceOutcome {
  const fs = needFs();
  const part = chunksAtOnce(buffer) * SEALED_CHUNK;
  try {
    return withFile(fs, p.from, 'r', (input) =>
      withFile(fs, p.to, 'r+', (output) => {
        let good = 0;
        for (let at = 0; at < p.length; at += part) {
          const length = Math.min(part, p.length - at);
          if (readFully(fs, input, buffer.subarray(0, length), p.readAt + at) < length) return { good, short: true };
          const first = at / SEALED_CHUNK;
          const run = { counter: p.run.counter + first, final: p.run.final && at + length === p.length };
          const opened = openInPlace(engine, key, run, buffer, length);
          const plain = Math.min(opened * CHUNK, plainLength(length));
          if (plain > 0) writeFully(fs, output, buffer.subarray(0, plain), p.writeAt + first * CHUNK);
          good += opened;
          if (opened < Math.ceil(length / SEALED_CHUNK)) break;
        }
        return { good, short: false };
      }),
    );
  } finally {
    zeroize(buffer.subarray(0, Math.min(part, p.length)));
  }
}
