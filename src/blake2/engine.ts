/**
 * What a tier ('simd' or 'js') provides for BLAKE2b. The public API
 * (index.ts) checks the arguments, makes the initial state from the
 * parameter block, keeps the last block of an incremental input (it is
 * compressed with the final flag, so it must wait until the input is
 * known to end) and picks the engine of the active tier; engines trust
 * their arguments.
 */

/**
 * The state of an input being absorbed, as both tiers keep it between
 * calls: h and the byte counter t.
 */
export interface Blake2bState {
  /** h[0..7] as 64 little-endian bytes (layout.ts IV_BYTES XOR the parameter block, to begin with). */
  readonly h: Uint8Array;
  /** Bytes compressed so far (t, RFC 7693 §3.2): below 2^53. */
  t: number;
}

export interface Blake2bEngine {
  /**
   * The first `length` bytes (1..64) of the digest of a whole input, from
   * the initial state `h0` (64 bytes), with `key` (the key padded to a
   * block, 128 bytes) as its first block when given.
   */
  hash(h0: Uint8Array, key: Uint8Array | undefined, data: Uint8Array, length: number): Uint8Array;

  /**
   * Compresses whole blocks (data.length a multiple of 128, none of them
   * the input's last), after those of `head` (whole blocks too, at most
   * 16 KiB) when given: buffered input and the input that follows it in
   * one call, without joining them first.
   */
  update(state: Blake2bState, data: Uint8Array, head?: Uint8Array): void;

  /** Compresses `last` (0..128 bytes, zero-padded) as the final block: state.h is then the digest. */
  finish(state: Blake2bState, last: Uint8Array): void;
}
