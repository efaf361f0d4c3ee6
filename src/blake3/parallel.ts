/**
 * blake3Parallel: BLAKE3 of a large input on a pool of workers (pool.ts),
 * the same bytes as blake3().
 *
 * The input's whole chunks (all but the last, which may become the root)
 * are cut into complete subtrees of PIECE bytes (1024 chunks; the tail in
 * descending powers of two), each aligned so its chaining value is the one
 * the sequential tree computes for it (the BLAKE3 paper, §2.5 and §5.1.2).
 * Workers take subtrees from the front, the calling thread from the back
 * whenever every worker has its slots full, and where they meet the
 * subtrees are cut smaller; the chaining values are then pushed onto one
 * tree state in input order, which merges them as parents, and the last
 * chunk makes the root, as in the sequential hash.
 */
import type { TreeState } from './engine.js';
import { ROOT_BYTES } from './layout.js';
import { byteLength, engine, modeOf, type Blake3Opts } from './mode.js';
import { cores, pool, PIECE, type PoolWorker } from './pool.js';
import { blake3 } from './index.js';
import * as check from '../runtime/assert.js';
import { activeTier } from '../runtime/kernels.js';

export interface Blake3ParallelOpts extends Blake3Opts {
  /**
   * Worker threads to use, at most (default: the logical cores less one,
   * as the calling thread hashes too while every worker is busy; on 2
   * cores in Node, 64 MiB took 24 ms with 1 worker against 26 ms with 2).
   * 0 hashes on the calling thread only.
   */
  workers?: number;
}

const CHUNK = 1024;
/**
 * Inputs below this are hashed on the calling thread: a job costs two
 * messages and a copy into a slot, and below a few MiB that is not won
 * back (measured in Node on 2 cores: see README).
 */
export const PARALLEL_MIN = 2 * PIECE;

/** Where the chunks come from: memory (blake3Parallel) or a file (the CLI). */
export interface ChunkSource {
  /** Copies into.length bytes from byte `offset` on into `into` (a worker's slot). */
  copy(offset: number, into: Uint8Array): void;
  /** `length` bytes at `offset` to hash on this thread: a view, or a buffer the source reuses and wipes. */
  view(offset: number, length: number): Uint8Array;
}

/**
 * Lets the worker's messages in: a macrotask turn (a resolved promise would
 * not). Browsers clamp nested setTimeout(0) to 4 ms, which cost Chromium
 * 16 MiB at 101 MB/s; a message to oneself is not clamped.
 */
const tick: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise<void>((resolve) => setImmediate(resolve))
    : typeof MessageChannel === 'function'
      ? () =>
          new Promise<void>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              channel.port1.close();
              resolve();
            };
            channel.port2.postMessage(null);
          })
      : () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A complete subtree: `size` chunks (a power of two) from chunk `chunk` (which `size` divides), and its chaining value once hashed. */
interface Piece {
  readonly chunk: number;
  readonly size: number;
  readonly cv: Uint8Array;
}

const piece = (chunk: number, size: number): Piece => ({ chunk, size, cv: new Uint8Array(32) });

/** The subtrees that `chunks` whole chunks from 0 split into: PIECE bytes each, then the rest in descending powers of two. */
function pieces(chunks: number): Piece[] {
  const out: Piece[] = [];
  const big = PIECE / CHUNK;
  let c = 0;
  for (; c + big <= chunks; c += big) out.push(piece(c, big));
  for (let size = big / 2; size >= 1; size /= 2) {
    if (c + size <= chunks) {
      out.push(piece(c, size));
      c += size;
    }
  }
  return out;
}

/** The smallest piece cut() makes, 64 KiB: 40 µs of hashing, against ~10 µs for a job's messages or a turn of the event loop. */
const SMALLEST = 64;

/**
 * Cuts list[i] into aligned parts (subtrees of it, so the tree is the
 * same) of at most a quarter of the `left` chunks not yet handed out, but
 * not below SMALLEST chunks; returns how many pieces it added. Small
 * pieces where the workers meet this thread mean neither waits long for
 * the other at the end: with whole 1 MiB pieces this thread waited up to
 * 1.2 ms of a 24 ms call for a worker's last two (Node, 2 cores, 64 MiB).
 */
function cut(list: Piece[], i: number, left: number): number {
  const whole = list[i]!;
  let size = whole.size;
  while (size > SMALLEST && size * 4 > left) size /= 2;
  if (size === whole.size) return 0;
  const parts: Piece[] = [];
  for (let c = whole.chunk; c < whole.chunk + whole.size; c += size) parts.push(piece(c, size));
  list.splice(i, 1, ...parts);
  return parts.length - 1;
}

/**
 * Pushes onto `state` (a fresh tree, at chunk 0) the first `chunks` whole
 * chunks of `source`, hashed by up to `workers` workers and this thread.
 */
export async function absorbParallel(state: TreeState, source: ChunkSource, chunks: number, workers: number): Promise<void> {
  const list = pieces(chunks);
  const team = pool.grow(workers);
  const tier = activeTier();
  const inflight: Promise<void>[] = [];
  const retry: Piece[] = [];
  const here = (p: Piece) => engine().subtree(state.key, state.flags, source.view(p.chunk * CHUNK, p.size * CHUNK), p.chunk, p.cv);
  const give = (w: PoolWorker, p: Piece) => {
    const slot = w.slot(p.size * CHUNK);
    source.copy(p.chunk * CHUNK, slot);
    const job = w.run(state.key, state.flags, p.chunk, slot, tier).then(
      (cv) => {
        p.cv.set(cv);
        cv.fill(0);
      },
      () => void retry.push(p),
    );
    inflight.push(job);
  };
  try {
    // Workers take pieces from the front, this thread from the back; `left` chunks lie between.
    // Near the end a worker gets no more than is left: this thread would wait for its queue.
    let front = 0;
    let back = list.length;
    let left = chunks;
    while (front < back) {
      for (const w of team) {
        while (w.idle && front < back && w.queued < left * CHUNK) {
          back += cut(list, front, left);
          left -= list[front]!.size;
          give(w, list[front++]!);
        }
      }
      if (front < back) {
        back += cut(list, back - 1, left);
        left -= list[back - 1]!.size;
        here(list[--back]!);
      }
      if (team.length > 0) await tick();
    }
    await Promise.all(inflight);
    // A worker that failed (or died) leaves its subtrees to this thread.
    for (const p of retry) here(p);
    for (const p of list) engine().push(state, p.cv, p.size);
  } finally {
    for (const p of list) p.cv.fill(0);
    for (const w of team) w.zeroSlots();
  }
}

/** The source of an input in memory: views for this thread, copies for workers. */
export function memorySource(data: Uint8Array): ChunkSource {
  return {
    copy: (offset, into) => into.set(data.subarray(offset, offset + into.length)),
    view: (offset, length) => data.subarray(offset, offset + length),
  };
}

/**
 * BLAKE3 of `data` (the same bytes as blake3(data, opts)), hashed on a
 * pool of workers when it is large enough to gain from them. `data` must
 * not change (or be transferred) until the promise settles.
 */
export const blake3Parallel = Object.assign(
  async (data: Uint8Array, opts?: Blake3ParallelOpts): Promise<Uint8Array> => {
    const input = check.bytes(data, 'data');
    const mode = modeOf(opts);
    const asked = opts?.workers === undefined ? undefined : byteLength(opts.workers, 'workers');
    const n = input.length;
    const workers = n < PARALLEL_MIN || pool.failure !== undefined ? 0 : (asked ?? (await cores()) - 1);
    if (workers === 0) {
      if (mode.derived) mode.key.fill(0);
      return blake3(input, opts === undefined ? undefined : { dkLen: opts.dkLen, key: opts.key, context: opts.context });
    }
    const state: TreeState = { key: mode.derived ? mode.key : mode.key.slice(), flags: mode.flags, chunks: 0, base: 0, depth: 0, stack: new Uint8Array(0) };
    const root = new Uint8Array(ROOT_BYTES);
    try {
      const whole = Math.floor((n - 1) / CHUNK);
      await absorbParallel(state, memorySource(input), whole, workers);
      if (input.length !== n) throw new TypeError('data was detached while it was hashed');
      const out = new Uint8Array(mode.dkLen);
      engine().finish(state, input.subarray(whole * CHUNK), root);
      engine().output(root, 0, out);
      return out;
    } finally {
      root.fill(0);
      state.stack.fill(0);
      state.key.fill(0);
    }
  },
  {
    /** Ends the pool's workers (a later call starts new ones). */
    terminate: (): void => pool.terminate(),
  },
);
