/**
 * Linear memory of the Salsa20/Poly1305 kernel module, shared by its
 * generator (kernel.ts) and the runtime side (simd.ts). Everything below
 * BUFFER + the bytes a call used is secret and wiped before the call returns.
 */

/** 16 words of Salsa20 input (Salsa20 specification §10); the kernel advances words 8..9 as it goes. */
export const STATE = 0;
/** One 64-byte keystream block: a partial final block, the HSalsa20 output. */
export const BLOCK = 64;
/** XSalsa20's 24-byte nonce, for hsalsa_rekey: in BLOCK after the 32 bytes HSalsa20 writes. */
export const NONCE24 = BLOCK + 32;
/** Poly1305 state (see poly1305/layout.ts for its fields). */
export const POLY = 128;
/** Data slices are copied here, processed in place, and copied out. */
export const BUFFER = 512;
/**
 * Bytes per slice: a multiple of 256 (one 4-block group) and so of 16
 * (Poly1305 blocks), so only a call's final slice has a partial block.
 */
export const SLICE = 32768;
/**
 * The secretbox's first slice is 32 bytes shorter: its message starts at
 * byte 32 of the keystream (the first 32 key Poly1305), so the later slices
 * start on a block boundary again.
 */
export const FIRST_SLICE = SLICE - 32;
/** 256 bytes for a last partial 4-block group, and the secretbox's first group; the kernel wipes it itself. */
export const TAIL = BUFFER + SLICE;
/** 64 KiB pages: fixed, so memory never grows with the input. */
export const PAGES = Math.ceil((TAIL + 256) / 65536);
