/**
 * The Salsa20 constants (specification §10), as four little-endian words
 * for input words 0, 5, 10 and 15; ChaCha uses the same words in 0..3
 * (chacha/input-block.ts re-exports them).
 */

/** "expand 32-byte k": a 32-byte key. */
export const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;
/** "expand 16-byte k": a 16-byte key, used twice. */
export const TAU = [0x61707865, 0x3120646e, 0x79622d36, 0x6b206574] as const;
/** Input words holding the constants. */
export const CONSTANT_WORDS = [0, 5, 10, 15] as const;
/** The first input word of each 16-byte half of the key. */
export const KEY_WORDS = [1, 11] as const;
/** The nonce's two words; HSalsa20's 16-byte input fills these and the counter's. */
export const NONCE_WORD = 6;
/** The block counter ("block number"), one little-endian 64-bit number in this word and the next. */
export const COUNTER_WORD = 8;
/** HSalsa20 keeps these words of the permuted state, without the feed-forward ("Extending the Salsa20 nonce" §2). */
export const HSALSA_WORDS = [0, 5, 10, 15, 6, 7, 8, 9] as const;
