/**
 * BLAKE2b test support: the peers, @noble/hashes' blake2b and
 * libsodium's crypto_generichash (its sumo build for the salt and
 * personalization); random update splits are BLAKE3's (test/blake3/reference.ts).
 */
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import type { Blake2Opts } from 'fourfold/blake2';
import { sumo } from '../helpers.js';

export { nobleBlake2b };

interface Generichash {
  crypto_generichash(length: number, message: Uint8Array, key: Uint8Array | null): Uint8Array;
  /** libsodium-wrappers takes no message here (its KDF's use): the empty message's hash. */
  crypto_generichash_blake2b_salt_personal(length: number, key: Uint8Array | null, salt: Uint8Array | null, personal: Uint8Array | null): Uint8Array;
}

/**
 * libsodium's BLAKE2b for the same options (after loadSodium(); not where
 * NO_SODIUM). With a salt or personalization, libsodium-wrappers hashes
 * only the empty message, so `msg` must be empty then.
 */
export function sodiumBlake2b(msg: Uint8Array, opts: Blake2Opts = {}): Uint8Array {
  const lib = sumo() as unknown as Generichash;
  const key = opts.key === undefined || opts.key.length === 0 ? null : opts.key;
  const length = opts.dkLen ?? 64;
  if (opts.salt === undefined && opts.personalization === undefined) return lib.crypto_generichash(length, msg, key);
  if (msg.length !== 0) throw new Error('libsodium-wrappers hashes only the empty message with a salt or personalization');
  const zero = new Uint8Array(16);
  return lib.crypto_generichash_blake2b_salt_personal(length, key, opts.salt ?? zero, opts.personalization ?? zero);
}

/** noble's BLAKE2b for the same options (noble takes no empty key: that is no key, RFC 7693's kk = 0). */
export function noble(msg: Uint8Array, opts: Blake2Opts = {}): Uint8Array {
  return nobleBlake2b(msg, { ...opts, key: opts.key === undefined || opts.key.length === 0 ? undefined : opts.key });
}
