/**
 * What a tier ('simd' or 'js') provides for Serpent. The public API
 * (index.ts) validates arguments, pads and unpads (PKCS#7), and picks the
 * engine of the active tier; engines trust their arguments. Each writes
 * into `out` when given and returns it, or else returns a new array.
 *
 * Keys are 16, 24 or 32 bytes, in NESSIE's byte order (the order of the
 * bytes in memory; Botan and Crypto++ use it too). Blocks are 16 bytes,
 * read as four little-endian words X0..X3.
 */
export interface SerpentEngine {
  /**
   * ECB encryption (`iv` undefined) or CBC encryption from `iv`
   * (NIST SP 800-38A §6.1, §6.2) of `data`, whole blocks, then of
   * `final` when given (one more block: the padded end of the message);
   * the output has `data.length` bytes, + 16 with `final` (`out` may be `data`).
   */
  encrypt(key: Uint8Array, iv: Uint8Array | undefined, data: Uint8Array, final: Uint8Array | undefined, out?: Uint8Array): Uint8Array;

  /** ECB or CBC decryption of `data` (whole blocks), of the same length (`out` may be `data`). */
  decrypt(key: Uint8Array, iv: Uint8Array | undefined, data: Uint8Array, out?: Uint8Array): Uint8Array;

  /**
   * CTR (SP 800-38A §6.5): `data` XOR the encryptions of iv, iv + 1, ...
   * (the whole 16-byte block a big-endian counter, wrapping at 2^128),
   * of the same length (`out` may be `data`). Any length.
   */
  ctr(key: Uint8Array, iv: Uint8Array, data: Uint8Array, out?: Uint8Array): Uint8Array;
}
