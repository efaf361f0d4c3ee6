/**
 * What a tier ('simd' or 'js') provides for the ChaCha family. The public
 * API (index.ts) validates arguments, builds the state and picks the engine
 * of the active tier; engines trust their arguments.
 */
export interface ChachaEngine {
  /**
   * XORs the keystream of `state` into `data`, writing `out` (which may be
   * `data` itself, same length).
   *
   * `state` holds the 16 input words in RFC 8439 §2.3 order: 4 constants,
   * 8 key words, then the block counter in word 12 and the nonce in 13..15.
   * The engine treats words 12..13 as one 64-bit little-endian counter and
   * carries from 12 into 13, as the original ChaCha and XChaCha20 need; for
   * the 32-bit IETF counter the caller guarantees that no carry happens.
   * `state` is not modified. `doubleRounds` is 4, 6 or 10 (ChaCha8/12/20).
   */
  xor(state: Uint32Array, doubleRounds: number, data: Uint8Array, out: Uint8Array): void;

  /** HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): writes the 32-byte subkey into `out`. */
  hchacha(key: Uint8Array, nonce16: Uint8Array, out: Uint8Array): void;

  /**
   * AEAD_CHACHA20_POLY1305 seal (RFC 8439 §2.8) with a 32-byte key and a
   * 12-byte nonce: writes ciphertext || 16-byte tag into `out`
   * (`data.length + 16` bytes; `out` may start at `data`).
   */
  seal(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array, data: Uint8Array, out: Uint8Array): void;

  /**
   * AEAD_CHACHA20_POLY1305 open: decrypts `ciphertext` (without its tag)
   * into `out` and returns whether `tag` verified. On false the caller wipes
   * `out` and throws; the engine may already have written to it.
   */
  open(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array, out: Uint8Array): boolean;
}
