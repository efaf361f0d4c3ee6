/**
 * The one BLAKE2b that fourfold/sodium's calls use (crypto_generichash,
 * crypto_kdf, the nonce of crypto_box_seal, crypto_kx's session keys):
 * fourfold/blake2's, behind this file so that which BLAKE2b serves them
 * is a one-line change.
 */
import { type Blake2b, blake2b as hash } from '../blake2/index.js';
import { finalChain } from '../blake2/final-chain.js';
import { hashFrom, parameterState } from '../blake2/one-shot.js';

export type { Blake2b };

/**
 * BLAKE2b's parameters, as the calls here have checked them: dkLen 1..64,
 * a key of 1..64 bytes or none, salt and personalization 16 bytes each.
 */
export interface Blake2bParams {
  dkLen: number;
  key?: Uint8Array;
  salt?: Uint8Array;
  personalization?: Uint8Array;
}

/** The initial state of the one-shot calls: one array, as the engines copy it in and keep no reference. */
const h0 = new Uint8Array(64);

/**
 * BLAKE2b of `data` with the parameters, without fourfold/blake2's second
 * reading of an options object: at 64 bytes that reading was a tenth of a
 * crypto_generichash call in Node 20. `outputLength` bytes of the final
 * chain value (dkLen unless given: crypto_generichash_final may ask for
 * another length, 1..64, than its init named).
 */
export function hashBlake2b(data: Uint8Array, { dkLen, key, salt, personalization }: Blake2bParams, outputLength = dkLen): Uint8Array {
  // An empty key is no key (RFC 7693's kk = 0), not a block of zeros.
  const k = key === undefined || key.length === 0 ? undefined : key;
  return hashFrom(parameterState(h0, dkLen, k === undefined ? 0 : k.length, salt, personalization), k, data, outputLength);
}

/** The first `length` bytes (1..64) of an incremental BLAKE2b's final chain value, whatever its dkLen; the hasher is destroyed. */
export const finishBlake2b = (hasher: Blake2b, length: number): Uint8Array => finalChain(hasher, length);

/** An incremental BLAKE2b with the parameters. */
export const startBlake2b = (params: Blake2bParams): Blake2b => hash.create(params);
