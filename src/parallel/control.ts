/** The pool's controls for users of fourfold/parallel. */
import { pool, type PoolStatus } from '../pool/pool.js';
import { setWorkerUrl } from '../pool/spawn.js';
import { contention } from '../pool/schedule.js';
import { poolWithScripts } from './workers.js';
import { now } from '../runtime/host.js';
import * as check from '../runtime/assert.js';

export type { PoolStatus };

/** configure()'s options. Any other property is refused (TypeError). */
export interface PoolOptions {
  /**
   * Worker threads a call uses, at most: an integer from 0 (the calling
   * thread only); undefined restores the default (the logical cores less
   * one). Counts above the logical cores are taken as the logical cores:
   * more threads than cores cannot run at once, and each costs memory.
   * Lowering it ends the workers beyond the new count once they have been
   * idle for a second.
   */
  workers?: number;
  /**
   * Where the worker module is, for builds that do not emit it beside the
   * package's code (esbuild, a CDN): the URL of fourfold/worker as built.
   * It serves the simd tier: where the engine cannot run the kernels (no
   * WebAssembly SIMD), give fourfold/worker-js's URL instead, or calls run
   * on the calling thread.
   */
  workerUrl?: string | URL;
}

/** warm()'s options. Any other property is refused (TypeError). */
export interface WarmOptions {
  /** Workers to start: an integer from 0; by default configure()'s count, else the logical cores less one. */
  workers?: number;
}

/**
 * Sets the pool's size or worker module for later calls.
 *
 * @example
 * ```ts
 * import { configure } from 'fourfold/parallel';
 * configure({ workers: 3 }); // at most 3 workers per call
 * configure({ workerUrl: '/assets/fourfold-worker.js' }); // where a bundler put fourfold/worker
 * ```
 */
export function configure(options: PoolOptions): void {
  if (options === undefined) throw new TypeError('options must be an object, got undefined');
  const { workers, workerUrl } = check.options(options, 'options', ['workers', 'workerUrl']) as PoolOptions;
  if (workers !== undefined) check.count(workers, 'workers');
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
 * Starts the pool's workers now and resolves once they are ready (or
 * could not start: status().failure then says why, and calls run on the
 * calling thread). Optional: calls start the workers they need themselves,
 * but a worker takes tens of milliseconds to load, and a call that comes
 * before its workers are ready works alone. Call it early (at start-up,
 * when a file is chosen) to have every core on the first large call. In
 * Deno, a worker without work ends after a quarter of a second (Deno
 * cannot let a process exit while one runs), so warm() helps there only
 * just before the calls.
 *
 * @example
 * ```ts
 * import { warm, blake3 } from 'fourfold/parallel';
 * const pool = await warm(); // { workers, ready, ... }: loaded, waiting for calls
 * const hash = await blake3(new Uint8Array(64 << 20)); // on every core from the start
 * ```
 */
export async function warm(options?: WarmOptions): Promise<PoolStatus> {
  const asked = (check.options(options, 'options', ['workers']) as WarmOptions | undefined)?.workers;
  const workers = asked === undefined ? pool.size : check.count(asked, 'workers');
  await Promise.all(
    poolWithScripts()
      .grow(workers)
      .map((w) => w.whenReady()),
  );
  return status();
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
