/**
 * Linear memory of the ChaCha/Poly1305 kernel module, shared by its
 * generator (kernel.ts) and the runtime side (simd.ts). Everything below
 * BUFFER + the bytes a call used is secret and wiped before the call returns.
 */

/** 16 words of ChaCha input state (RFC 8439 §2.3); the kernel advances words 12..13 as it goes. */
export const STATE = 0;
/**
 * Words of STATE (RFC 8439 §2.3): the constants in 0..3, the key's eight
 * from KEY_WORD, the block counter in COUNTER_WORD (the kernel counts in
 * it and the next word as one 64-bit number), the nonce after it.
 */
export const KEY_WORD = 4;
export const COUNTER_WORD = 12;
/** One 64-byte keystream block: a partial final block, the HChaCha20 output, the Poly1305 key. */
export const BLOCK = 64;
/** XChaCha20's 24-byte nonce, for hchacha_rekey: in BLOCK after the 32 bytes HChaCha20 writes. */
export const NONCE24 = BLOCK + 32;
/** Poly1305 state (see poly1305/layout.ts for its fields: 272 bytes, to REST). */
export const POLY = 128;
/**
 * REST_BYTES (48) for secretstream's last partial Poly1305 block, its
 * padding and its length block (secretstream/kernel.ts), between POLY's
 * end and BUFFER. A number rather than POLY plus Poly1305's size, so that
 * this layout, below poly1305/ (whose simd tier runs in this kernel),
 * imports nothing of it; chachaModule checks that the two do not meet.
 */
export const REST = 400;
export const REST_BYTES = 48;
/** Data slices are copied here, processed in place, and copied out. */
export const BUFFER = 512;
/**
 * Bytes per slice: a multiple of 256 (one 4-block ChaCha group) and so of
 * 16 (Poly1305 blocks), so only a call's final slice has a partial block.
 */
export const SLICE = 32768;
/** 256 bytes for a last partial 4-block group; the kernel wipes it itself. */
export const TAIL = BUFFER + SLICE;
/** 64 KiB pages: fixed, so memory never grows with the input. */
export const PAGES = Math.ceil((TAIL + 256) / 65536);
