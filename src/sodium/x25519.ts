/**
 * X25519 as fourfold/sodium's public-key calls use it (crypto_box,
 * crypto_scalarmult, crypto_kx): node:crypto's where the runtime has it
 * (native.ts), else @noble/curves', with libsodium's refusal of a shared
 * secret of all zeros (a low-order public key).
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { formatObject, type OutObject } from './codecs.js';
import { sha512 } from './sha2.js';
import { nativeCurves } from './native.js';

/** A key pair as libsodium-wrappers gives it. */
export interface KeyPair {
  /** The public key. */
  publicKey: Uint8Array;
  /** The private (secret) key. */
  privateKey: Uint8Array;
  /** Its type, as libsodium-wrappers names it. */
  keyType: 'x25519' | 'curve25519' | 'ed25519' | 'xwing' | 'ml-kem-768';
}

/** X25519(sk, pk), or undefined where the result is all zeros (libsodium refuses it). */
export function dh(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array | undefined {
  const native = nativeCurves();
  if (native !== undefined) return native.x25519(privateKey, publicKey);
  try {
    return x25519.getSharedSecret(privateKey, publicKey);
  } catch {
    // constant-time: public: a low-order public key is refused, as libsodium refuses it; the key is the peer's.
    return undefined;
  }
}

/** X25519(sk, 9): the public key of a private key. */
export const publicOf = (privateKey: Uint8Array): Uint8Array => nativeCurves()?.x25519Public(privateKey) ?? x25519.getPublicKey(privateKey);

/** A fresh random private key's public key and its X25519 with `publicKey` (undefined where all zeros): a sealed box's. */
export function ephemeralKey(publicKey: Uint8Array): { publicKey: Uint8Array; shared: Uint8Array | undefined } {
  const esk = crypto.getRandomValues(new Uint8Array(32));
  try {
    const native = nativeCurves();
    // One import of the key gives both on node:crypto.
    return native?.x25519Both(esk, publicKey) ?? { publicKey: publicOf(esk), shared: dh(esk, publicKey) };
  } finally {
    esk.fill(0);
  }
}

/** A key pair of `keyType` for `privateKey` (a fresh random one when none). */
export function x25519Pair<F>(keyType: KeyPair['keyType'], outputFormat: F | undefined, privateKey?: Uint8Array): OutObject<KeyPair, F> {
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
