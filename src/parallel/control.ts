/** The pool's controls for users of fourfold/parallel. */
import { pool, setWorkerUrl, type PoolStatus } from '../pool/pool.js';
import { contention } from '../pool/schedule.js';
import { now } from '../runtime/host.js';
import * as check from '../runtime/assert.js';

export type { PoolStatus };

export interface PoolOptions {
  /**
   * Worker threads a call uses, at most: an integer from 0 (the calling
   * thread only); undefined restores the default (the logical cores less
   * one). Counts above the logical cores are taken as the logical cores:
   * more threads than cores cannot run at once, and each costs memory.
   * Lowering it ends the workers beyond the new count once they are idle.
   */
  workers?: number;
  /**
   * Where the worker module is, for builds that do not emit it beside the
   * package's code (esbuild, a CDN): the URL of fourfold/worker as built.
   */
  workerUrl?: string | URL;
}

/** Sets the pool's size or worker module for later calls. */
export function configure(options: PoolOptions): void {
  check.options(options);
  const { workers, workerUrl } = options;
  if (workers !== undefined) {
    if (typeof workers !== 'number') throw new TypeError(`workers must be a number, got ${check.describe(workers)}`);
    if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be a non-negative integer, got ${workers}`);
  }
  if (workerUrl !== undefined && typeof workerUrl !== 'string' && !(workerUrl instanceof URL)) {
    throw new TypeError(`workerUrl must be a string or a URL, got ${check.describe(workerUrl)}`);
  }
  // Each option is set only when given: configure({ workerUrl }) keeps the size.
  if ('workers' in options) pool.resize(workers);
  if ('workerUrl' in options) {
    setWorkerUrl(workerUrl);
    // Workers from the old module give the same bytes, but a failure to start the old one no longer applies.
    pool.terminate();
  }
}

/**
 * Ends the pool's workers; a later call starts new ones. Pending one-shot
 * calls finish on the calling thread, with the same bytes; a stream whose
 * state a worker held errors with WorkerLostError. A Node, Bun or Deno
 * process exits without it.
 */
export function terminate(): void {
  pool.terminate();
}

/** The pool's state: workers started and ready, jobs done, why workers cannot be used if they cannot, and whether calls leave them out for now. */
export function status(): PoolStatus {
  return { ...pool.status(), contended: now() < contention.starvedUntil };
}
