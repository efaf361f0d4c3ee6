import type { KeystreamXor } from '../runtime/stream-cipher.js';

/**
 * What a tier ('simd' or 'js') provides for the Salsa20 family, on the
 * terms of ChachaEngine (chacha/engine.ts): index.ts validates the
 * arguments and picks the engine; where `out` is omitted the engine
 * allocates the result.
 */
export interface SalsaEngine {
  /**
   * KeystreamXor (runtime/stream-cipher.ts).
   *
   * The input (Salsa20 specification §10) is the constants, the key (32
   * bytes, or 16 used twice under "expand 16-byte k"), the 8-byte nonce
   * and the 64-bit little-endian block counter, carrying from word 8 into
   * word 9. A 24-byte nonce is XSalsa20's: the key becomes the HSalsa20
   * subkey of the first 16 nonce bytes and the last 8 are the nonce.
   * `doubleRounds` is 10, 6 or 4 (Salsa20, Salsa20/12, Salsa20/8).
   */
  xor: KeystreamXor;

  /** HSalsa20 (20 rounds): writes the 32-byte subkey of `key` and `nonce16` into `out`. */
  hsalsa(key: Uint8Array, nonce16: Uint8Array, out: Uint8Array): void;

  /**
   * Secretbox (XSalsa20-Poly1305) seal with a 32-byte key and a 24-byte
   * nonce: returns the 16-byte tag followed by the ciphertext, in `out`
   * when given (`data.length + 16` bytes). The ciphertext part of `out`
   * either does not overlap `data`, or starts at or before `data`'s start.
   */
  seal(key: Uint8Array, nonce: Uint8Array, data: Uint8Array, out?: Uint8Array): Uint8Array;

  /**
   * Secretbox open: the plaintext of `ciphertext` (without its tag), in
   * `out` when given (starting at or before `ciphertext`, or apart from
   * it), or undefined when `tag` does not verify, which the caller
   * handles as for ChachaEngine.open.
   */
  open(key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array, out?: Uint8Array): Uint8Array | undefined;
}
