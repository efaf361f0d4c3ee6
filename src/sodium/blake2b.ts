/**
 * The one BLAKE2b that fourfold/sodium's calls use (crypto_generichash,
 * crypto_kdf, the nonce of crypto_box_seal, crypto_kx's session keys):
 * fourfold/blake2's, behind this file so that which BLAKE2b serves them
 * is a one-line change.
 */
import { type Blake2b, blake2b as hash } from '../blake2/index.js';

export type { Blake2b };

/** BLAKE2b's options as fourfold/blake2 takes them. */
export interface Blake2bParams {
  dkLen: number;
  key?: Uint8Array;
  salt?: Uint8Array;
  personalization?: Uint8Array;
}

/** BLAKE2b of `data` with the parameters. */
export const hashBlake2b = (data: Uint8Array, params: Blake2bParams): Uint8Array => hash(data, params);

/** An incremental BLAKE2b with the parameters. */
export const startBlake2b = (params: Blake2bParams): Blake2b => hash.create(params);
