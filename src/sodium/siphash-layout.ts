/**
 * The memory of the SipHash kernel (siphash-kernel.ts), shared by the
 * generator and the simd tier (siphash-simd.ts): the state v0..v3, the
 * key and then the output, the message's words a slice at a time. All of
 * it secret, wiped by the caller before each call returns.
 */

/** v0..v3, four 64-bit words. */
export const SIP_STATE = 0;
/** k0, k1 in; the 8 or 16 bytes of output written over them. */
export const SIP_KEY = 32;
/** The message's words, a slice at a time, and the last word after them. */
export const SIP_BUFFER = 64;
/** Bytes of message a call of sipAbsorb takes at most: whole words. */
export const SIP_SLICE = 65536;
/** 64 KiB pages, fixed: the state, the key, a slice and the last word. */
export const SIP_PAGES = Math.ceil((SIP_BUFFER + SIP_SLICE + 8) / 65536);
