/**
 * The pool's worker scripts (worker.ts and worker-js.ts, beside this
 * file), given to the pool (pool/spawn.ts WorkerScripts) here, where the
 * families are composed, so that the pool names none. Every way of
 * getting workers a family's every-core entry (beside this file) uses
 * comes through here (workersFor, stateWorker), so the scripts are set
 * before any worker starts, whatever a bundler leaves out of the entries.
 * The Web Worker form alone is given by fourfold/parallel's default entry
 * (index.ts, from web-workers.ts), so that its edge entry has none.
 */
import { pool } from '../pool/pool.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import { useWorkerScripts, type WorkerScripts } from '../pool/spawn.js';
import { handOutWorkersFor as poolHandOutWorkersFor, workersFor as poolWorkersFor } from '../pool/transform.js';
import type { OwnTier } from '../runtime/kernels.js';

/**
 * The modules for worker_threads, by tier: their names joined, as text, to
 * this module's folder, with no new URL(<name>, import.meta.url) for a
 * bundler to take. Written literally, a bundler would also emit them as
 * assets for the browser build, which uses the Web Worker form (web-workers.ts);
 * webpack warns of a "critical dependency" for new URL(<expression>,
 * import.meta.url); and Turbopack (Next.js 16's default) evaluates that
 * expression through its variables and rewrote it to a copy of worker.js
 * alone in .next/server/assets/ (without the modules it imports, under
 * .next's "type": "commonjs"), which Node cannot load: a Next.js Node
 * route's fourfold/parallel had no workers, and warned.
 */
const MODULES: Readonly<Record<OwnTier, string>> = { simd: 'worker.js', js: 'worker-js.js' };
/**
 * This module's folder: import.meta.url less its name, query and fragment;
 * read when a worker starts, not when the module loads, since a bundle may
 * have no import.meta.url (esbuild's for an edge host: it has no workers).
 */
const here = (): string => import.meta.url.replace(/[?#].*$/s, '').replace(/[^/]*$/, '');

/** The Web Worker form, once fourfold/parallel's default entry has given it (web-workers.ts). */
let webForm: ((tier: OwnTier) => Worker) | undefined;

/** Gives the pool the Web Worker form: index.ts, fourfold/parallel's default entry, only. */
export function useWebWorkers(form: (tier: OwnTier) => Worker): void {
  webForm ??= form;
}

const SCRIPTS: WorkerScripts = {
  web: (tier) => {
    // The pool's start fails with this, as when a worker cannot start: its calls run on the calling thread.
    if (webForm === undefined) throw new Error("fourfold/parallel's edge entry (the workerd and edge-light conditions) starts no Web Workers");
    return webForm(tier);
  },
  module: (tier) => new URL(here() + MODULES[tier]),
};

/** The pool, with its scripts set. */
export function poolWithScripts(): typeof pool {
  useWorkerScripts(SCRIPTS);
  return pool;
}

/** The workers for a call on `bytes` of input (pool/transform.ts workersFor), with the scripts set. */
export function workersFor(bytes: number, count?: number): PoolWorker[] {
  useWorkerScripts(SCRIPTS);
  return poolWorkersFor(bytes, count);
}

/** The workers for a call whose calling thread only hands out pieces (pool/transform.ts handOutWorkersFor), with the scripts set. */
export function handOutWorkersFor(bytes: number): PoolWorker[] {
  useWorkerScripts(SCRIPTS);
  return poolHandOutWorkersFor(bytes);
}

/** A worker for a new stream's state (Pool.forState), or undefined when none can start. */
export const stateWorker = (): PoolWorker | undefined => poolWithScripts().forState();
