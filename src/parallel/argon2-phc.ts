/**
 * fourfold/parallel's Argon2 password hashes: fourfold/argon2's
 * argon2idHash, argon2iHash, argon2dHash and argon2Verify (the same
 * strings, read and written by argon2/phc.ts), with the hash computed by
 * this folder's argon2id, argon2i and argon2d: the memory filled on the
 * pool's workers, so a burst of logins spreads over the cores and the
 * event loop stays free. `workers` is taken as those calls take it.
 * needsRehash, which computes no hash, is fourfold/argon2's own.
 */
import { type Argon2Cores, type Argon2HashOpts, type Argon2VerifyOpts, hashWith, verifyWith } from '../argon2/phc.js';
import { argon2d, argon2i, argon2id } from './argon2.js';

export { needsRehash } from '../argon2/phc.js';

/** argon2Verify's options, and the workers the call may use. */
export interface Argon2VerifyParallelOpts extends Argon2VerifyOpts {
  /** Worker threads to use, at most, as argon2id's `workers`. 0 runs the call on the calling thread. */
  workers?: number;
}

/** argon2idHash's options, and the workers the call may use. */
export interface Argon2HashParallelOpts extends Argon2HashOpts {
  /** Worker threads to use, at most, as argon2id's `workers`. 0 runs the call on the calling thread. */
  workers?: number;
}

/** The cores by variant; a core's options are the PHC call's, checked, with `workers` (EXTRA). */
const CORES: Argon2Cores = { argon2id, argon2i, argon2d };
const EXTRA = ['workers'] as const;

/**
 * fourfold/argon2's argon2idHash (the same string for the same salt),
 * with the hash computed on the pool's workers: concurrent calls run on
 * different workers, one a core by default, and the calling thread only
 * hands out their segments.
 *
 * @example
 * ```ts
 * import { argon2idHash, argon2Verify } from 'fourfold/parallel';
 * const stored = await argon2idHash('correct horse battery staple'); // on a worker
 * await argon2Verify(stored, 'correct horse battery staple'); // true
 * ```
 */
export function argon2idHash(password: string | Uint8Array, opts?: Argon2HashParallelOpts): Promise<string> {
  return hashWith(CORES, 'argon2id', password, opts, EXTRA);
}

/** argon2iHash on the pool's workers, as argon2idHash. */
export function argon2iHash(password: string | Uint8Array, opts?: Argon2HashParallelOpts): Promise<string> {
  return hashWith(CORES, 'argon2i', password, opts, EXTRA);
}

/** argon2dHash on the pool's workers, as argon2idHash. */
export function argon2dHash(password: string | Uint8Array, opts?: Argon2HashParallelOpts): Promise<string> {
  return hashWith(CORES, 'argon2d', password, opts, EXTRA);
}

/** fourfold/argon2's argon2Verify (the same answers and errors), with the hash recomputed on the pool's workers. */
export function argon2Verify(phc: string, password: string | Uint8Array, opts?: Argon2VerifyParallelOpts): Promise<boolean> {
  return verifyWith(CORES, phc, password, opts, EXTRA);
}
