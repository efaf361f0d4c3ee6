/**
 * age's jobs for the pool's workers (parallel/worker.ts and worker-js.ts
 * serve them): sealing and opening a piece of payload chunks (payload.ts)
 * in the job's slot, under a payload key the job carries, which the worker
 * wipes after it. postRun and takeOpened are the calling side, for
 * pieces.ts (a one-shot payload) and parallel/age-pool.ts (a stream's
 * pieces).
 *
 * A one-shot call's pieces work in place in the slot, with no copy: a
 * piece's output starts at or before its input, and the engines work
 * front to back, reading each part of the input before they write that
 * part's output (as a move to a lower address may overlap its source).
 * A stream's pieces are read from its shared buffers and written to a new
 * array the worker moves to the caller, which hands it on as it is.
 */
import { PLAIN_CHUNK, openInPlace, openRun, plainLength, type ChunkRun, SEALED_CHUNK, sealedLength, sealInPlace, sealPlainAt, sealRun } from './payload.js';
import { bufferFor, type FilePiece, openFilePiece, pieceBuffer, type PieceOutcome, type PieceSink, type PieceSource, sealFilePiece } from './file-pieces.js';
import type { ChachaEngine } from '../chacha/engine.js';
import type { JobDone, JobHandle } from '../pool/job-handle.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import { type Handlers, type JobType, moved, type WithBlob } from '../pool/protocol.js';
import { zeroize } from '../runtime/bytes.js';
import { toBeWritten } from '../runtime/native.js';

/** A piece: the payload key, its first chunk's counter, whether it ends the payload, and its input's bytes (plaintext to seal, sealed chunks to open). */
type ChunkPieceParams = { key: Uint8Array; counter: number; final: boolean; length: number };

export type AgeJobs = {
  /**
   * Seals the slot's plaintext (at sealPlainAt, `length` bytes) into the
   * slot from 0 (sealedLength bytes), answering nothing; or a stream's
   * shared input (`length` bytes) into a new array, moved to the caller
   * (protocol.ts moved()).
   */
  readonly 'age.seal': JobType<ChunkPieceParams, Uint8Array | undefined>;
  /**
   * Opens the slot's sealed chunks (from 0, `length` bytes) into the
   * slot's plaintext, from 0: the result is one byte, the number of chunks
   * that verified (a piece has fewer than 256), past whose plaintext the
   * slot holds zeros. Or opens a stream's shared input into a new array,
   * moved to the caller: the plaintext when every chunk verified (its
   * length plainLength), else that of the chunks that did, then zeros,
   * then one byte more, their count (answerOf). Either way the calling
   * thread, which has the sealed bytes, tells why the next did not verify.
   */
  readonly 'age.open': JobType<ChunkPieceParams, Uint8Array>;
  /**
   * Seals or opens a piece of one file into another at their offsets
   * (file-pieces.ts), a buffer's worth at a time through one the worker
   * keeps (pieceBuffer): the result is three bytes, the chunks that
   * verified (all, sealing; two bytes, little-endian) and 1 where the
   * input ended before the piece did; with the Blob of the piece's output
   * where it writes into one (a browser's). No payload byte is in a
   * message (a Blob passes by reference), but for decryptRange's: its
   * verified plaintext follows the three bytes, moved to the caller.
   */
  readonly 'age.sealFile': JobType<FilePieceParams, Uint8Array | WithBlob>;
  readonly 'age.openFile': JobType<FilePieceParams, Uint8Array | WithBlob>;
};

/** A file piece (file-pieces.ts FilePiece), flat, with the payload key. */
type FilePieceParams = { key: Uint8Array; counter: number; final: boolean; length: number; from: PieceSource; readAt: number; to: PieceSink; writeAt: number };

/** A stream's piece sealed from its shared input into a new array of the worker's own, moved to the caller. */
function sealToNew(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, input: Uint8Array): Uint8Array {
  const out = toBeWritten(sealedLength(input.length));
  sealRun(engine, key, run, input, out);
  return moved(out);
}

/**
 * A stream's piece opened from its shared input into a new array of the
 * worker's own, moved to the caller: its plaintext when every chunk
 * verified; else, one byte longer, that of the chunks that did, zeros
 * after it, and their count. The input is the stream's own (postRun),
 * read in place: the stream writes it again only once the piece is back,
 * and drops the answer of a job still running then (pool/in-flight.ts).
 */
function openToNew(engine: ChachaEngine, key: Uint8Array, run: ChunkRun, input: Uint8Array): Uint8Array {
  const plain = plainLength(input.length);
  const out = toBeWritten(plain);
  const good = openRun(engine, key, run, input, out, true);
  if (good === Math.ceil(input.length / SEALED_CHUNK)) return moved(out);
  const failed = new Uint8Array(plain + 1);
  failed.set(out.subarray(0, good * PLAIN_CHUNK));
  failed[plain] = good;
  zeroize(out);
  return moved(failed);
}

/**
 * The jobs on one tier's ChaCha engine (node:crypto's past the crossovers,
 * where the caller's thread uses it: chacha/native.ts nativeOver): in
 * place in the slot, or from a stream's shared input into a new array.
 * File pieces run on the tier's own engine (`own`): node:crypto makes a
 * new array per chunk, and a file's memory must stay bounded by design.
 */
export function ageJobs(engineNow: () => ChachaEngine, own: ChachaEngine): Handlers<AgeJobs> {
  // A file piece's buffer: this worker's own memory, kept for every piece. Not the slot: a slot is
  // shared memory, where no unverified plaintext may go, so opening there would make an array per chunk.
  let kept: Uint8Array | undefined;
  const buffer = (p: FilePiece): Uint8Array => (kept = bufferFor(p, kept ?? pieceBuffer()));
  const filePiece = (p: FilePieceParams): FilePiece => ({ ...p, run: { counter: p.counter, final: p.final } });
  const outcome = (o: PieceOutcome): Uint8Array | WithBlob => {
    const head = [o.good & 0xff, o.good >>> 8, o.short ? 1 : 0];
    if (o.part !== undefined) return { bytes: Uint8Array.of(...head), blob: o.part };
    if (o.bytes === undefined) return Uint8Array.of(...head);
    // The piece's output after its outcome, moved to the caller; the worker's copy wiped.
    const answer = new Uint8Array(OUTCOME_BYTES + o.bytes.length);
    answer.set(head);
    answer.set(o.bytes, OUTCOME_BYTES);
    zeroize(o.bytes);
    return moved(answer);
  };
  return {
    'age.sealFile': (params) => {
      const p = filePiece(params);
      return outcome(sealFilePiece(own, params.key, p, buffer(p)));
    },
    'age.openFile': (params) => {
      const p = filePiece(params);
      return outcome(openFilePiece(own, params.key, p, buffer(p)));
    },
    'age.seal': (p, { input, slot }) => {
      const run = { counter: p.counter, final: p.final };
      if (input !== slot) return sealToNew(engineNow(), p.key, run, input!.subarray(0, p.length));
      sealInPlace(engineNow(), p.key, run, slot!, p.length);
      return undefined;
    },
    'age.open': (p, { input, slot }) => {
      const run = { counter: p.counter, final: p.final };
      if (input !== slot) return openToNew(engineNow(), p.key, run, input!.subarray(0, p.length));
      return Uint8Array.of(openInPlace(engineNow(), p.key, run, slot!, p.length));
    },
  };
}

/**
 * Gives a run of chunks (`input`: plaintext to seal, or sealed chunks to
 * open) to `w`, with a copy of the payload key that moves to the worker.
 * `own`: input in shared memory that no other code writes (a stream's
 * gathered buffers), which the worker reads where it is, answering with
 * the output in a new array (answerOf); any other input is
 * copied into the slot, where the job works in place (a caller's
 * ciphertext is read once, as decryption must).
 */
export function postRun(w: PoolWorker, key: Uint8Array, run: ChunkRun, input: Uint8Array, opening: boolean, own: boolean): JobHandle<unknown> {
  const copy = key.slice();
  const params = { key: copy, counter: run.counter, final: run.final, length: input.length };
  if (own) return w.run<AgeJobs, 'age.seal' | 'age.open'>(opening ? 'age.open' : 'age.seal', params, 0, { input }, [copy.buffer], input.length);
  if (opening) {
    w.slot(input.length).set(input);
    return w.run<AgeJobs, 'age.open'>('age.open', params, input.length, {}, [copy.buffer]);
  }
  const bytes = sealedLength(input.length);
  w.slot(bytes).set(input, sealPlainAt(input.length));
  return w.run<AgeJobs, 'age.seal'>('age.seal', params, bytes, {}, [copy.buffer], input.length);
}

/** An open's answer in the slot: the number of chunks that verified, whose plaintext (only theirs: past it the slot holds zeros, then sealed bytes) goes to `out`. */
export function takeOpened(done: JobDone<unknown>, out: Uint8Array): number {
  const good = (done.result as Uint8Array)[0]!;
  out.set(done.data.subarray(0, Math.min(good * PLAIN_CHUNK, out.length)));
  return good;
}

/**
 * What postRun's job on `input` gives back: the output (with `own`, the
 * worker's new array; else a copy out of the slot) and, for an open, how
 * many chunks verified (past them the output is zeros).
 */
export function answerOf(done: JobDone<unknown>, input: Uint8Array, opening: boolean, own: boolean): { output: Uint8Array; good?: number } {
  const plain = plainLength(input.length);
  if (!own) {
    const output = new Uint8Array(opening ? plain : sealedLength(input.length));
    if (!opening) output.set(done.data);
    return { output, good: opening ? takeOpened(done, output) : undefined };
  }
  const result = done.result as Uint8Array;
  if (!opening) return { output: result };
  if (result.length === plain) return { output: result, good: Math.ceil(input.length / SEALED_CHUNK) };
  return { output: result.subarray(0, plain), good: result[plain]! };
}

/** Gives file piece `p` to `w`, with a copy of the payload key that moves to the worker (which reads and writes through its own buffer). */
export function postFilePiece(w: PoolWorker, key: Uint8Array, p: FilePiece, opening: boolean): JobHandle<Uint8Array | WithBlob> {
  const copy = key.slice();
  const params = { key: copy, counter: p.run.counter, final: p.run.final, length: p.length, from: p.from, readAt: p.readAt, to: p.to, writeAt: p.writeAt };
  // No bytes of the slot: the worker reads and writes the files through a buffer of its own (ageJobs).
  return w.run<AgeJobs, 'age.sealFile' | 'age.openFile'>(opening ? 'age.openFile' : 'age.sealFile', params, 0, {}, [copy.buffer], p.length);
}

/** A file piece's outcome in its answer: chunks that verified (two bytes, little-endian), and whether its input ended early. */
const OUTCOME_BYTES = 3;

/** A file piece's answer (postFilePiece). */
export const fileOutcome = (done: JobDone<unknown>): PieceOutcome => {
  const result = done.result as Uint8Array | WithBlob;
  const r = result instanceof Uint8Array ? result : result.bytes;
  const outcome = { good: r[0]! | (r[1]! << 8), short: r[2] === 1 };
  if (!(result instanceof Uint8Array)) return { ...outcome, part: result.blob };
  return r.length > OUTCOME_BYTES ? { ...outcome, bytes: r.subarray(OUTCOME_BYTES) } : outcome;
};
