/**
 * Fields of a Poly1305 state in kernel memory, as offsets from the base the
 * including module gives it. Numbers are 26-bit limbs, least significant
 * first, one little-endian 32-bit word each.
 */
export const H = 0; // accumulator, 5 limbs
export const R = 20; // clamped r, 5 limbs
export const PAD = 40; // s, 4 words (RFC 8439 §2.5: the second half of the key)
export const KEY = 64; // the 32-byte one-time key r || s, read by poly_init
export const SCRATCH = 96; // one zero-padded 16-byte block
export const TAG = 112; // the 16-byte tag written by poly_finish
/**
 * The vector loop's powers of r (kernel.ts): lanes [r^4, r^4, r^2, r^2] of
 * limbs 0..4, then 5 times those of limbs 1..4; nine v128s, secret like r.
 */
export const POWERS = 128;
/** Bytes the state occupies. */
export const SIZE = POWERS + 9 * 16;
/** Byte length of the serialized incremental state: h, r and s (the fields up to KEY). */
export const STATE_BYTES = 64;
/** The 2^128 bit of a whole block (RFC 8439 §2.5.1: "add one bit beyond the number of octets"), in limb 4. */
export const HIBIT = 1 << 24;
