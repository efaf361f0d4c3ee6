/**
 * The messages between the pool (pool.ts) and its workers
 * (worker.ts):
 *
 *   worker -> pool  Ready    once, when it listens (a family's kernel compiles at its first job)
 *   pool -> worker  Job      any number, each answered by Done or Failed, in order
 *   worker -> pool  Done     the job's result
 *   worker -> pool  Failed   the job threw (a worker that cannot start fires its error event instead)
 *
 * A job's `data` is a view of one of the pool's slots: a SharedArrayBuffer
 * where the engine may share memory with workers, otherwise an ArrayBuffer
 * transferred to the worker and back in Done or Failed, so the pool reuses
 * it. The job works on it in place. `params` carry the rest: numbers, and
 * Uint8Arrays such as keys, which arrive as the worker's own copies (moved
 * by transfer: the caller keeps none) and which the worker zeroes after
 * the job; views of the caller's SharedArrayBuffers are the exception,
 * shared, and never zeroed.
 */
import type { Tier } from './kernels.js';

export type JobParams = Readonly<Record<string, number | Uint8Array | undefined>>;

export interface Ready {
  readonly type: 'ready';
}

export interface Job {
  readonly type: 'job';
  /** Chosen by the pool, echoed in the answer. */
  readonly id: number;
  /** What to do: a name in parallel/jobs.ts. */
  readonly op: string;
  /** The tier the caller's thread uses (both give the same bytes; the worker follows it). */
  readonly tier: Tier;
  readonly params: JobParams;
  readonly data: Uint8Array | undefined;
}

export interface Done {
  readonly type: 'done';
  readonly id: number;
  /** The job's result: a few bytes (a chaining value, a Poly1305 polynomial) or nothing. */
  readonly result: Uint8Array | undefined;
  /** The job's `data` when it was transferred (not shared): handed back. */
  readonly data?: Uint8Array;
}

export interface Failed {
  readonly type: 'failed';
  /** The job that threw. */
  readonly id: number;
  readonly message: string;
  readonly data?: Uint8Array;
}

export type FromWorker = Ready | Done | Failed;

/**
 * What a worker does for a job (parallel/jobs.ts): reads `input` and
 * writes `output` (the slot both, or the caller's shared views in
 * params.input / params.output), returning a result or nothing.
 */
export type JobHandler = (tier: Tier, params: JobParams, input: Uint8Array | undefined, output: Uint8Array | undefined) => Uint8Array | undefined;
