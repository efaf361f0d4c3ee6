/**
 * fourfold/parallel's blake3: BLAKE3 of a large input on the worker pool
 * (pool/pool.ts), the same bytes as fourfold's blake3().
 *
 * The input's whole chunks (all but the last, which may become the root)
 * are cut into complete subtrees of PIECE bytes (1024 chunks; the tail in
 * descending powers of two), each aligned so its chaining value is the one
 * the sequential tree computes for it (the BLAKE3 paper, §2.5 and §5.1.2).
 * The pool's scheduler (pool/schedule.ts) shares them between the
 * workers and the calling thread, cutting them into smaller aligned
 * subtrees where needed; the chaining values are then pushed onto one tree
 * state in input order, which merges them as parents, and the last chunk
 * makes the root, as in the sequential hash.
 */
import type { TreeState } from '../blake3/engine.js';
import { ROOT_BYTES } from '../blake3/layout.js';
import { hashOnce, modeOf, type Blake3Opts } from '../blake3/args.js';
import { engine } from '../blake3/tiers.js';
import type { Blake3Jobs } from '../blake3/jobs.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { PARALLEL_MIN } from '../pool/transform.js';
import { workersFor } from './workers.js';
import { pool } from '../pool/pool.js';
import { PIECE, type PoolWorker } from '../pool/pool-worker.js';
import { runPieces, type Piece } from '../pool/schedule.js';

export { PARALLEL_MIN };

/** The options of fourfold/parallel's blake3: BLAKE3's, and the workers a call may use. */
export interface Blake3ParallelOpts extends Blake3Opts {
  /**
   * Worker threads to use, at most (default: configure()'s, else the
   * logical cores less one, as the calling thread hashes too). 0 hashes on
   * the calling thread only.
   */
  workers?: number;
}

const CHUNK = 1024;

/** Where the chunks come from: memory (blake3 below) or a file (the CLI). */
export interface ChunkSource {
  /** Copies into.length bytes from byte `offset` on into `into` (a worker's slot). */
  copy(offset: number, into: Uint8Array): void;
  /** `length` bytes at `offset` to hash on this thread: a view, or a buffer the source reuses and wipes. */
  view(offset: number, length: number): Uint8Array;
}

/** A complete subtree: `length` bytes (a power of two of chunks) from `start` (which that power divides), and its chaining value once hashed. */
interface Subtree extends Piece {
  readonly cv: Uint8Array;
}

const subtree = (start: number, length: number): Subtree => ({ start, length, cv: new Uint8Array(32) });

/** The subtrees that `chunks` whole chunks from 0 split into: PIECE bytes each, then the rest in descending powers of two. */
function subtrees(chunks: number): Subtree[] {
  const out: Subtree[] = [];
  const bytes = chunks * CHUNK;
  let at = 0;
  for (; at + PIECE <= bytes; at += PIECE) out.push(subtree(at, PIECE));
  for (let size = PIECE / 2; size >= CHUNK; size /= 2) {
    if (at + size <= bytes) {
      out.push(subtree(at, size));
      at += size;
    }
  }
  return out;
}

/** `p` as aligned subtrees of at most `bytes` (a subtree's halves are subtrees, so the tree is the same). */
function split(p: Subtree, bytes: number): Subtree[] {
  let size = p.length;
  while (size > CHUNK && size > bytes) size /= 2;
  if (size === p.length) return [p];
  const parts: Subtree[] = [];
  for (let at = p.start; at < p.start + p.length; at += size) parts.push(subtree(at, size));
  return parts;
}

/**
 * Pushes onto `state` (a fresh tree, at chunk 0) the first `chunks` whole
 * chunks of `source`, hashed by `workers` and this thread.
 */
export async function absorbParallel(state: TreeState, source: ChunkSource, chunks: number, workers: readonly PoolWorker[]): Promise<void> {
  let list: Subtree[] = [];
  try {
    list = await runPieces(subtrees(chunks), workers, {
      split,
      direct: false,
      onThisThread: (p) => engine().subtree(state.key, state.flags, source.view(p.start, p.length), p.start / CHUNK, p.cv),
      toWorker(w, p) {
        source.copy(p.start, w.slot(p.length));
        return w.run<Blake3Jobs, 'blake3.subtree'>('blake3.subtree', { key: state.key.slice(), flags: state.flags, counter: p.start / CHUNK }, p.length);
      },
      fromWorker(p, done) {
        const cv = done.result as Uint8Array;
        p.cv.set(cv);
        cv.fill(0);
      },
    });
    for (const p of list) engine().push(state, p.cv, p.length / CHUNK);
  } finally {
    for (const p of list) p.cv.fill(0);
    for (const w of workers) w.zeroSlots();
  }
}

/** The source of an input in memory: views for this thread, copies for workers; a TypeError once `data` is detached. */
export function memorySource(data: Uint8Array): ChunkSource {
  const n = data.length;
  return {
    copy: (offset, into) => {
      check.attached(n, data);
      into.set(data.subarray(offset, offset + into.length));
    },
    view: (offset, length) => {
      check.attached(n, data);
      return data.subarray(offset, offset + length);
    },
  };
}

/**
 * BLAKE3 of `data` (the same bytes as fourfold's blake3(data, opts)), hashed on the
 * pool's workers and the calling thread when it is large enough to gain
 * from them (2 MiB and more). `data` must not change (or be transferred)
 * until the Promise settles.
 *
 * @example
 * ```ts
 * import { blake3 } from 'fourfold/parallel';
 * const hash = await blake3(new Uint8Array(256 << 20)); // fourfold's blake3 bytes, on all cores
 * ```
 */
export async function blake3(data: Uint8Array, opts?: Blake3ParallelOpts): Promise<Bytes> {
  const input = check.bytes(data, 'data');
  const mode = modeOf(opts, ['workers']);
  const asked = opts?.workers === undefined ? undefined : check.count(opts.workers, 'workers');
  const n = input.length;
  if (n < PARALLEL_MIN || asked === 0) return hashOnce(mode, input) as Bytes;
  const state: TreeState = { key: mode.derived ? mode.key : mode.key.slice(), flags: mode.flags, chunks: 0, base: 0, depth: 0, stack: new Uint8Array(0) };
  const root = new Uint8Array(ROOT_BYTES);
  try {
    const whole = Math.floor((n - 1) / CHUNK);
    await absorbParallel(state, memorySource(input), whole, workersFor(n, asked ?? pool.size));
    check.attached(n, input);
    const out = new Uint8Array(mode.dkLen);
    engine().finish(state, input.subarray(whole * CHUNK), root);
    engine().output(root, 0, out);
    return out;
  } finally {
    root.fill(0);
    state.stack.fill(0);
    state.key.fill(0);
  }
}
