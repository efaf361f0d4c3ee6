/**
 * The AEAD shape of @noble/ciphers, shared by ChaCha20-Poly1305,
 * XChaCha20-Poly1305 and XSalsa20-Poly1305, so that code written for
 * noble works after a changed import.
 */

/** Poly1305's tag (RFC 8439 §2.5): 16 bytes. */
export const TAG_LENGTH = 16;

/** An AEAD bound to a key and nonce (and associated data where the cipher has it). */
export interface Aead {
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Uint8Array;
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Uint8Array;
}

/** An AEAD of fourfold/parallel: the Aead shape, resolving to what the synchronous one returns. */
export interface ParallelAead {
  encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
}

/** @noble/ciphers' fields on an AEAD's constructor function, which code written for it may read. */
export interface AeadParams {
  readonly nonceLength: number;
  readonly tagLength: number;
  /** The underlying stream cipher's block: 64 bytes for ChaCha20 and Salsa20. */
  readonly blockSize: number;
}

/** `make` with the AeadParams of a 64-byte-block cipher with a Poly1305 tag and `nonceLength`-byte nonces. */
export function aeadParams<F extends (key: Uint8Array, nonce: Uint8Array, aad?: undefined) => Aead | ParallelAead>(make: F, nonceLength: number): F & AeadParams {
  return Object.assign(make, { nonceLength, tagLength: TAG_LENGTH, blockSize: 64 });
}
