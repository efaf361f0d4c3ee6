/**
 * The pool as the default entry's Encrypter and Decrypter get it, the
 * first time a call needs it (runners.ts): given fourfold/parallel's Web
 * Worker form first (parallel/web-workers.ts), so that a page's files run
 * on its Web Workers. A module of its own, imported late: a page whose
 * calls never reach the pool loads neither the pool nor the form, and
 * the edge entry (calls.ts) names neither.
 */
import type { AgeRunners } from '../age/codec.js';
import { POOL_RUNNERS } from '../parallel/age-pool.js';
import { webWorker } from '../parallel/web-workers.js';
import { useWebWorkers } from '../parallel/workers.js';

/** The pool's runners, with the Web Worker form given. */
export function webWorkerPool(): AgeRunners {
  useWebWorkers(webWorker);
  return POOL_RUNNERS;
}
