/**
 * The pool as age's runners (age/codec.ts AgeRunners), for fourfold/parallel's age
 * and the fourfold age command. A payload's chunks are independent, so a
 * one-shot call's payload is shared between the pool's workers and this
 * thread by the pool's scheduler (age/pieces.ts), and a stream's pieces go to
 * whichever of them is free as they come (pool/in-order.ts); what is too
 * small to be worth the workers runs here. A passphrase's scrypt runs on
 * a worker too (fourfold/parallel's scrypt), leaving the calling thread
 * free.
 */
import type { AgeRunners } from '../age/codec.js';
import {
  BLOB_PIECE_CHUNKS,
  bufferFor,
  type FilePayload,
  type FilePiece,
  isBlob,
  pieceBuffer,
  pieceOf,
  type PieceOutcome,
  piecesOf,
  sinkFile,
} from '../age/file-pieces.js';
import { anyPieceHere, filePieceHere, hereRunner } from '../age/here.js';
import { answerOf, fileOutcome, postFilePiece, postRun } from '../age/jobs.js';
import { PLAIN_CHUNK, PIECE_CHUNKS, SEALED_CHUNK, wholePieces } from '../age/payload.js';
import { openPayloadPieces, sealPayloadPieces } from '../age/pieces.js';
import { doPiece, type Lane, type PayloadPiece, type Runner } from '../age/pipeline.js';
import { lazyScrypt } from '../age/recipients.js';
import { engine } from '../chacha/tiers.js';
import { handOutWorkersFor, workersFor } from './workers.js';
import { InOrder } from '../pool/in-order.js';
import { runOnWorkers, type Piece, type PieceWork } from '../pool/schedule.js';
import { canShare, type PoolWorker } from '../pool/pool-worker.js';
import { workerThreads } from '../pool/threads.js';
import { PARALLEL_MIN, splitter } from '../pool/transform.js';
import { isShared } from '../runtime/bytes.js';
import { WORKERS_SHARE_DESCRIPTORS } from '../runtime/host.js';

/**
 * A stream's lane on the pool: its pieces on the workers and this thread
 * (pool/in-order.ts), once the stream has passed PARALLEL_MIN (a short one
 * never starts a worker; `passed`: its bytes done before the lane took
 * it, typage/runners.ts's); `use` records the workers it gave pieces to.
 */
function poolLane(key: Uint8Array, opening: boolean, use: (w: PoolWorker) => void, passed: number): Lane {
  let added = passed;
  const order = new InOrder<PayloadPiece>(
    {
      // The stream's own buffers (Gathering), which it writes again only once their piece is back.
      onThisThread: (p) => doPiece(engine(), key, p, opening, true),
      toWorker(w, p) {
        use(w);
        // The stream's own buffers (Gathering), shared where the engine can: workers read them in place and answer with new arrays.
        return postRun(w, key, p.run, p.input, opening, isShared(p.input));
      },
      fromWorker(p, done) {
        ({ output: p.output, good: p.good } = answerOf(done, p.input, opening, isShared(p.input)));
      },
    },
    () => (added >= PARALLEL_MIN ? workersFor(added) : []),
  );
  return {
    synchronous: false,
    add(p) {
      added += p.length;
      return order.add(p);
    },
    finish: () => order.finish(),
    abandon: () => order.abandon(),
    // Shared memory where workers can read it directly, sparing this thread a copy into their slots.
    buffer: (bytes) => new Uint8Array(canShare() ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes)),
  };
}

/** age's scrypt on a worker of the pool: fourfold/parallel's scrypt, imported the first time a call takes a passphrase. */
// biome-ignore format: the parentheses keep Vite's preload helper out (age/keys.ts)
const poolScrypt = lazyScrypt(async () => (await import(('./scrypt.js'))).scrypt);

/**
 * Chunks in a file call's piece for a worker: four slots' worth (3.9 MiB),
 * done a slot at a time, so that the calling thread takes one answer per
 * few MiB (its event loop's utilization at 1 GiB: 0.12 with pieces of a
 * slot). The last are cut smaller (rule 1), so no worker waits long on another.
 */
const WORKER_FILE_CHUNKS = 4 * PIECE_CHUNKS;

/**
 * A file call's pieces on the pool's workers, one a core, each read and
 * written at its offsets by the worker that does it: this thread only
 * hands out pieces (runOnWorkers), so no payload byte is in a message and
 * its event loop stays free. Jobs write the output directly (a late one is
 * never redone while it may still write). Below PARALLEL_MIN, all here;
 * all here too for a caller's FileHandle where workers cannot use its
 * descriptor (Deno), and for a Blob where they cannot read one
 * synchronously (worker_threads have no FileReaderSync; Web Workers do).
 * This thread reads a Blob only asynchronously: the pieces it is left
 * (a lost worker's) are done after the workers', a piece at a time.
 * `whileStarting`: this thread also does pieces while the workers start
 * (runOnWorkers), for a caller with nothing else to do.
 */
const poolFiles =
  (whileStarting: boolean): Runner['files'] =>
  async (payload: FilePayload, after: (p: FilePiece, outcome: PieceOutcome) => void) => {
    const descriptors = typeof payload.from === 'number' || typeof sinkFile(payload.to) === 'number';
    const blob = isBlob(payload.from);
    if (payload.length < PARALLEL_MIN || (descriptors && !WORKERS_SHARE_DESCRIPTORS) || (blob && !workersReadBlobs())) return hereRunner.files(payload, after);
    // This thread's buffer, made only if it does a piece (a lost worker's, or with no worker at all).
    let buffer: Uint8Array | undefined;
    const later: Piece[] = [];
    const piece = (p: Piece) => pieceOf(payload, p.start, p.length);
    const work: PieceWork<Piece> = {
      split: splitter(payload.opening ? SEALED_CHUNK : PLAIN_CHUNK),
      direct: true,
      onThisThread(p) {
        if (blob) return void later.push(p);
        const fp = piece(p);
        after(fp, filePieceHere(payload, fp, (buffer ??= pieceBuffer())));
      },
      toWorker: (w, p) => postFilePiece(w, payload.key, piece(p), payload.opening),
      fromWorker: (p, done) => after(piece(p), fileOutcome(done)),
    };
    // Each piece zeroes the buffer it used (age/file-pieces.ts): this thread's, or the one its worker keeps.
    await runOnWorkers(piecesOf(payload, WORKER_FILE_CHUNKS), handOutWorkersFor(payload.length), work, { whileStarting: whileStarting && !blob });
    const unit = payload.opening ? SEALED_CHUNK : PLAIN_CHUNK;
    for (const left of later) {
      for (const p of wholePieces(left.length, unit, BLOB_PIECE_CHUNKS)) {
        const fp = piece({ start: left.start + p.start, length: p.length });
        buffer = bufferFor(fp, buffer ?? pieceBuffer());
        after(fp, await anyPieceHere(payload, fp, buffer));
      }
    }
  };

/** Whether the pool's workers read a Blob themselves: Web Workers (FileReaderSync), not worker_threads (asked when a Blob comes: Node loads worker_threads on the question). */
const workersReadBlobs = (): boolean => workerThreads() === undefined;

/**
 * The pool's runner: one-shot payloads below PARALLEL_MIN here, larger
 * ones in pieces; streams in lanes; file calls' pieces on the workers.
 * The slots of the workers it used are zeroed once the payload is done.
 * `whileStarting`: as poolFiles'.
 */
function poolRunner(whileStarting: boolean): Runner {
  const used = new Set<PoolWorker>();
  const workers = (bytes: number): PoolWorker[] => {
    const list = workersFor(bytes);
    for (const w of list) used.add(w);
    return list;
  };
  return {
    // A sealed piece fills a slot (15 chunks: 983,280 bytes).
    pieceChunks: 15,
    seal(key, run, plain, out) {
      if (plain.length < PARALLEL_MIN) return hereRunner.seal(key, run, plain, out);
      return sealPayloadPieces(key, run, plain, out, workers(plain.length));
    },
    open(key, run, sealed, out) {
      if (sealed.length < PARALLEL_MIN) return hereRunner.open(key, run, sealed, out);
      return openPayloadPieces(key, run, sealed, out, workers(sealed.length));
    },
    lane: (key, opening, passed = 0) => poolLane(key, opening, (w) => used.add(w), passed),
    files: poolFiles(whileStarting),
    done() {
      for (const w of used) w.zeroSlots();
      used.clear();
    },
  };
}

/** Every core: pieces on the pool's workers and this thread, scrypt on a worker. */
export const POOL_RUNNERS: AgeRunners = { runner: () => poolRunner(false), scrypt: poolScrypt };

/**
 * The same for the fourfold command, whose calling thread has nothing
 * else to do: it does file pieces while the workers start (a new process
 * starts them for each file) rather than wait for them.
 */
export const COMMAND_POOL_RUNNERS: AgeRunners = { runner: () => poolRunner(true), scrypt: poolScrypt };
