/**
 * typage's Encrypter and Decrypter as the default entry (index.ts) gives
 * them: each hands the pool fourfold/parallel's Web Worker form
 * (parallel/web-workers.ts) when made, so that a page's files run on its
 * Web Workers. Subclasses rather than a statement run at import: a bundle
 * that uses neither keeps neither, nor the worker scripts (typage's own
 * tests check that `import * as age` of an unused entry bundles to
 * nothing). The edge entry (calls.ts) has the classes without it: no edge
 * host has workers, and webpack's code for the form reads `document` as an
 * edge bundle loads.
 */
import { Decrypter as CallingDecrypter } from './decrypter.js';
import { Encrypter as CallingEncrypter } from './encrypter.js';
import { webWorker } from '../parallel/web-workers.js';
import { useWebWorkers } from '../parallel/workers.js';

/** typage's Encrypter: files to recipients or a passphrase, their chunks on the pool's workers where the page allows. */
export class Encrypter extends CallingEncrypter {
  constructor() {
    super();
    useWebWorkers(webWorker);
  }
}

/** typage's Decrypter: files with identities or passphrases, their chunks on the pool's workers where the page allows. */
export class Decrypter extends CallingDecrypter {
  constructor() {
    super();
    useWebWorkers(webWorker);
  }
}
