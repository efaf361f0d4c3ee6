/**
 * A one-shot call's payload chunks sealed or opened on the pool's workers
 * and this thread together, by the pool's scheduler (pool/schedule.ts
 * runPieces, whose rules docs/parallel.md gives: equal cuts near the end,
 * short turns, no workers on a shared core, a lost worker's piece redone
 * here). Chunks are independent, so a piece is any run of them, given its
 * first counter and whether it ends the payload; pieces are cut on chunk
 * boundaries, at most as many chunks as a sealed piece fits in a slot.
 * jobs.ts is the workers' side. The workers' slots keep the plaintext of
 * their last pieces until the caller zeroes them (parallel/age-pool.ts,
 * once a payload is done).
 */
import { postRun, takeOpened } from './jobs.js';
import { PLAIN_CHUNK, failureAt, type OpenFailure, openRun, plainLength, type ChunkRun, SEALED_CHUNK, sealedLength, sealRun, wholePieces } from './payload.js';
import { engine } from '../chacha/tiers.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import { runPieces, type Piece, type PieceWork } from '../pool/schedule.js';
import { splitter } from '../pool/transform.js';

/** The run of a piece starting at chunk `first` of a batch, `chunks` long: final when it ends a final batch. */
const runOf = (run: ChunkRun, first: number, chunks: number, batchChunks: number): ChunkRun => ({
  counter: run.counter + first,
  final: run.final && first + chunks === batchChunks,
});

/** Seals `plain` (a batch: whole chunks but the final's last) into `out` on `workers` and this thread. */
export async function sealPayloadPieces(key: Uint8Array, run: ChunkRun, plain: Uint8Array, out: Uint8Array, workers: readonly PoolWorker[]): Promise<void> {
  const chunks = Math.ceil(plain.length / PLAIN_CHUNK);
  const pieceRun = (p: Piece) => runOf(run, p.start / PLAIN_CHUNK, Math.ceil(p.length / PLAIN_CHUNK), chunks);
  const sealedAt = (p: Piece) => (p.start / PLAIN_CHUNK) * SEALED_CHUNK;
  const work: PieceWork<Piece> = {
    split: splitter(PLAIN_CHUNK),
    direct: false,
    onThisThread(p) {
      const at = sealedAt(p);
      sealRun(engine(), key, pieceRun(p), plain.subarray(p.start, p.start + p.length), out.subarray(at, at + sealedLength(p.length)));
    },
    toWorker: (w, p) => postRun(w, key, pieceRun(p), plain.subarray(p.start, p.start + p.length), false, false),
    fromWorker(p, done) {
      out.set(done.data, sealedAt(p));
    },
  };
  await runPieces(wholePieces(plain.length, PLAIN_CHUNK), workers, work);
}

/** A piece of an open, and how many of its chunks verified. */
interface OpenPiece extends Piece {
  good?: number;
}

/**
 * Opens `sealed` (a batch) into `out` on `workers` and this thread: `out`
 * when every chunk verified, else the OpenFailure of the first that did not
 * (payload.ts openOrFail), `out` past what it releases zeroed.
 */
export async function openPayloadPieces(
  key: Uint8Array,
  run: ChunkRun,
  sealed: Uint8Array,
  out: Uint8Array,
  workers: readonly PoolWorker[],
): Promise<Uint8Array | OpenFailure> {
  const chunks = Math.ceil(sealed.length / SEALED_CHUNK);
  const pieceRun = (p: Piece) => runOf(run, p.start / SEALED_CHUNK, Math.ceil(p.length / SEALED_CHUNK), chunks);
  const plainAt = (p: Piece) => (p.start / SEALED_CHUNK) * PLAIN_CHUNK;
  const work: PieceWork<OpenPiece> = {
    split: splitter(SEALED_CHUNK),
    direct: false,
    onThisThread(p) {
      const at = plainAt(p);
      p.good = openRun(engine(), key, pieceRun(p), sealed.subarray(p.start, p.start + p.length), out.subarray(at, at + plainLength(p.length)));
    },
    toWorker: (w, p) => postRun(w, key, pieceRun(p), sealed.subarray(p.start, p.start + p.length), true, false),
    fromWorker(p, done) {
      const at = plainAt(p);
      p.good = takeOpened(done, out.subarray(at, at + plainLength(p.length)));
    },
  };
  const pieces = await runPieces<OpenPiece>(wholePieces(sealed.length, SEALED_CHUNK), workers, work);
  const failed = pieces.find((p) => p.good! < Math.ceil(p.length / SEALED_CHUNK));
  return failed === undefined ? out : failureAt(engine(), key, run, sealed, out, failed.start / SEALED_CHUNK + failed.good!);
}
