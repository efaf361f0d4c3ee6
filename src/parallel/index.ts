/**
 * fourfold/parallel: the one-shot functions of `fourfold` under the same
 * names and call shapes, each resolving to exactly the bytes the
 * synchronous function returns, with large inputs shared between a pool of
 * workers and the calling thread, which stays responsive. Incremental
 * objects (`create()`, secretstream's push and pull states) stay
 * synchronous: use `fourfold` for those.
 */
import { webWorker } from './web-workers.js';
import { useWebWorkers } from './workers.js';

export * from './calls.js';

// A statement of this module's own, kept by bundlers: package.json's "sideEffects" lists this file.
useWebWorkers(webWorker);
