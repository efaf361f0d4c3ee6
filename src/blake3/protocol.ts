/**
 * The messages between blake3Parallel's pool (pool.ts) and its workers
 * (worker.ts). A job is one complete subtree: a power of two of whole
 * chunks starting at a chunk index that power divides (the BLAKE3 paper,
 * §2.5: such a subtree's chaining value depends on nothing else but the
 * key words and flags), so the pool can push the workers' chaining values
 * in input order and get the tree of the whole input, bit for bit.
 *
 *   worker -> pool  Ready                 once, after its kernel is compiled
 *   pool -> worker  Job                   any number, each answered by one Done
 *   worker -> pool  Done                  the subtree's chaining value
 *   worker -> pool  Failed                a job (or the start) threw
 *
 * `data` is a view on a SharedArrayBuffer where the engine has them and
 * may share them (the pool's slots, reused), otherwise an ArrayBuffer
 * transferred to the worker and back in Done (so the pool reuses it too).
 * The worker zeroes the key words and its copy of the chaining value
 * before it answers, and the data when the job failed; its kernel memory
 * is wiped by the engine. Slots the pool gets back still hold their data,
 * which the next job overwrites: the pool zeroes them when its call ends.
 */
import type { Tier } from '../runtime/kernels.js';

export interface Ready {
  readonly type: 'ready';
}

export interface Job {
  readonly type: 'job';
  /** Chosen by the pool, echoed in the answer. */
  readonly id: number;
  /** The tier the caller's thread uses (both give the same bytes; the worker follows it). */
  readonly tier: Tier;
  /** The key words as 32 bytes (engine.ts TreeState.key). */
  readonly key: Uint8Array;
  readonly flags: number;
  /** Index of the subtree's first chunk. */
  readonly counter: number;
  /** The subtree's chunks: a power of two of 1024-byte chunks. */
  readonly data: Uint8Array;
}

export interface Done {
  readonly type: 'done';
  readonly id: number;
  /** The subtree's (non-root) chaining value, 32 bytes. */
  readonly cv: Uint8Array;
  /** The job's `data` when it was transferred (not shared): handed back for reuse. */
  readonly data?: Uint8Array;
}

export interface Failed {
  readonly type: 'failed';
  /** The job that threw; -1 when the worker could not start. */
  readonly id: number;
  readonly message: string;
}

export type ToWorker = Job;
export type FromWorker = Ready | Done | Failed;
