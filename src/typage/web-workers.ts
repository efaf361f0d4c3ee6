/**
 * typage's Encrypter and Decrypter as the default entry (index.ts) gives
 * them: each has the pool, once a call imports it (runners.ts), take
 * fourfold/parallel's Web Worker form (web-worker-pool.ts), so that a
 * page's files run on its Web Workers. Subclasses rather than a statement
 * run at import: a bundle that uses neither keeps neither, nor the worker
 * scripts (typage's own tests check that `import * as age` of an unused
 * entry bundles to nothing). The edge entry (calls.ts) has the classes
 * without it: no edge host has workers, and webpack's code for the form
 * reads `document` as an edge bundle loads.
 */
import { Decrypter as CallingDecrypter } from './decrypter.js';
import { Encrypter as CallingEncrypter } from './encrypter.js';
import { usePoolLoader } from './runners.js';

/** The pool, given the Web Worker form, imported when a call first needs it. */
// biome-ignore format: the parentheses keep Vite's preload helper out (age/keys.ts)
const webWorkerPool = async () => (await import(('./web-worker-pool.js'))).webWorkerPool();

/** typage's Encrypter: files to recipients or a passphrase, their chunks on the pool's workers where the page allows. */
export class Encrypter extends CallingEncrypter {
  /** An Encrypter with no recipient or passphrase yet, as typage's `new Encrypter()`. */
  constructor() {
    super();
    usePoolLoader(webWorkerPool);
  }
}

/** typage's Decrypter: files with identities or passphrases, their chunks on the pool's workers where the page allows. */
export class Decrypter extends CallingDecrypter {
  /** A Decrypter with no identity or passphrase yet, as typage's `new Decrypter()`. */
  constructor() {
    super();
    usePoolLoader(webWorkerPool);
  }
}
