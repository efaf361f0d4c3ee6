/**
 * X25519 as fourfold/sodium's public-key calls use it (crypto_box,
 * crypto_scalarmult, crypto_kx): @noble/curves', with libsodium's refusal
 * of a shared secret of all zeros (a low-order public key).
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { formatObject, type OutObject } from './codecs.js';

/** A key pair as libsodium-wrappers gives it. */
export interface KeyPair {
  /** The public key. */
  publicKey: Uint8Array;
  /** The private (secret) key. */
  privateKey: Uint8Array;
  /** Its type: 'x25519', 'curve25519', 'ed25519', 'xwing' or 'ml-kem-768', as libsodium-wrappers names it. */
  keyType: string;
}

/** X25519(sk, pk), or undefined where the result is all zeros (libsodium refuses it). */
export function dh(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array | undefined {
  try {
    return x25519.getSharedSecret(privateKey, publicKey);
  } catch {
    // constant-time: public: a low-order public key is refused, as libsodium refuses it; the key is the peer's.
    return undefined;
  }
}

/** X25519(sk, 9): the public key of a private key. */
export const publicOf = (privateKey: Uint8Array): Uint8Array => x25519.getPublicKey(privateKey);

/** A key pair of `keyType` for `privateKey` (a fresh random one when none). */
export function x25519Pair<F>(keyType: string, outputFormat: F | undefined, privateKey?: Uint8Array): OutObject<KeyPair, F> {
  const sk = privateKey ?? crypto.getRandomValues(new Uint8Array(32));
  return formatObject({ publicKey: publicOf(sk), privateKey: sk, keyType }, outputFormat);
}

/** crypto_box's private key from a seed: SHA-512 of it, the first 32 bytes. */
export function boxSeedKey(seed: Uint8Array): Uint8Array {
  const h = sha512(seed);
  const sk = h.slice(0, 32);
  h.fill(0);
  return sk;
}
