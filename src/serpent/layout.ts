/**
 * Linear memory of the Serpent kernel module, shared by its generator
 * (kernel.ts) and the runtime side (simd.ts). Everything below BUFFER + the
 * bytes a call used, and TAIL, is secret and wiped before the call returns.
 */

/**
 * The key schedule's working words (Serpent specification §2.2, bitslice
 * form): w_{-8}..w_{-1}, the user key padded to 256 bits, at KEY, then
 * the prekey w_0..w_131 right after it, so w_i is at KEY + 32 + 4i.
 */
export const KEY = 0;
/** The 33 round keys K_0..K_32, four words each. */
export const SUBKEYS = KEY + 4 * 140;
/**
 * 16 bytes of chaining: the CBC chaining block, or the CTR counter as a
 * 128-bit little-endian integer (the IV's bytes reversed).
 */
export const CHAIN = SUBKEYS + 33 * 16;
/** Data slices are copied here, processed in place, and copied out. */
export const BUFFER = 1152;
/** Bytes per slice: a multiple of 128 (two 4-block groups), so only a call's final slice has a partial group. */
export const SLICE = 32768;
/** 256 bytes for a last partial group, zero-padded; the kernel wipes it itself. */
export const TAIL = BUFFER + SLICE;
/** 64 KiB pages: fixed, so memory never grows with the input. */
export const PAGES = Math.ceil((TAIL + 256) / 65536);
