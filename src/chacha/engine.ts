import type { KeystreamXor } from '../runtime/stream-cipher.js';

/**
 * What a tier ('simd' or 'js') provides for the ChaCha family. The public
 * API (index.ts) validates arguments and picks the engine of the active
 * tier; engines trust their arguments. Where `out` is omitted the engine
 * allocates the result (the simd engine copies it out of linear memory and
 * allocates in one step).
 */
export interface ChachaEngine {
  /**
   * KeystreamXor (runtime/stream-cipher.ts).
   *
   * The input block (RFC 8439 §2.3) is the constants, the key (32 bytes, or
   * 16 used twice under the "expand 16-byte k" constant), the block counter
   * and the nonce. A 12-byte nonce fills words 13..15 and the counter is
   * word 12 alone (RFC 8439; the caller guarantees it never passes
   * 2^32 - 1); an 8-byte nonce fills words 14..15 and the counter is the
   * 64-bit little-endian words 12..13, carrying from 12 into 13 (the
   * original ChaCha). A 24-byte nonce is XChaCha20's (draft-irtf-cfrg-
   * xchacha-03 §2.3): the key becomes the HChaCha20 subkey of the first 16
   * nonce bytes and the last 8 are an 8-byte nonce. `doubleRounds` is 4, 6
   * or 10.
   */
  xor: KeystreamXor;

  /**
   * HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2) of the first 16 bytes of
   * `nonce16` (it may be longer: a 24-byte nonce or stream header, read
   * without a view of its start): writes the 32-byte subkey into `out`.
   */
  hchacha(key: Uint8Array, nonce16: Uint8Array, out: Uint8Array): void;

  /**
   * AEAD_CHACHA20_POLY1305 seal (RFC 8439 §2.8) with a 32-byte key and a
   * 12-byte nonce, or XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3)
   * with a 24-byte nonce: returns ciphertext || 16-byte tag, in `out` when
   * given (`data.length + 16` bytes; it may start at `data`).
   */
  seal(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, data: Uint8Array, out?: Uint8Array): Uint8Array;

  /**
   * The AEAD's open (nonce as for seal): returns the plaintext of `ciphertext`
   * (without its tag), in `out` when given, or undefined when `tag` does
   * not verify. Then the caller wipes its `out` (the engine may have
   * written to it) and throws; an array the engine allocated is never
   * returned. The plaintext is that of the bytes authenticated, whoever
   * writes a shared `ciphertext` meanwhile (an engine that reads it twice
   * reads a private copy), unless `own`: fourfold's own memory, which no
   * thread writes while the result may be used (a stream's gathered
   * buffer, a worker's slot), read where it is.
   */
  open(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array, out?: Uint8Array, own?: boolean): Uint8Array | undefined;
}
