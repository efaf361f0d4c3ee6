/**
 * The pool's Web Workers, in the form bundlers for pages recognise,
 * `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`
 * (Vite, webpack 5 and Parcel emit the script and its modules), for
 * browsers and Deno. Only the default entries of fourfold/parallel
 * (index.ts) and fourfold/age/typage (src/typage/web-workers.ts) import
 * this module. Their edge entries (each folder's calls.ts, through
 * dist/edge/parallel.js and age-typage.js, package.json's workerd and
 * edge-light conditions) leave it out, since no edge runtime has workers
 * and the form is not inert there: webpack's runtime for it resolves the
 * URL from `document.baseURI` as the bundle loads, and a Next.js edge
 * route built by `next build --webpack` failed ("document is not
 * defined").
 */
import type { OwnTier } from '../runtime/kernels.js';

/** A module Web Worker of `tier`: each form written out, so that bundlers emit both scripts (a page loads the one it starts). */
export const webWorker = (tier: OwnTier): Worker =>
  tier === 'simd'
    ? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
    : new Worker(new URL('./worker-js.js', import.meta.url), { type: 'module' });
