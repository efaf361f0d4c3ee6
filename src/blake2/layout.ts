/**
 * BLAKE2b's constants (RFC 7693 §2.6, §2.7) and the linear memory of its
 * kernel module, shared by the generator (kernel.ts), the simd tier
 * (simd.ts) and the js tier (js.ts).
 */

/** Bytes of a message block (RFC 7693 §2.1: bb). */
export const BLOCK = 128;
/** The most a digest (nn) and a key (kk) may have (RFC 7693 §2.1). */
export const MAX_OUTPUT = 64;
export const MAX_KEY = 64;
/** Bytes of the salt and of the personalization (the parameter block's, BLAKE2 §2.8). */
export const SALT = 16;
export const PERSONALIZATION = 16;
/** Rounds of the compression F (RFC 7693 §2.1: r). */
export const ROUNDS = 12;

/** The IV (RFC 7693 §2.6): SHA-512's, the fractional parts of the square roots of the first 8 primes, as (high, low) 32-bit halves. */
export const IV: readonly (readonly [number, number])[] = [
  [0x6a09e667, 0xf3bcc908],
  [0xbb67ae85, 0x84caa73b],
  [0x3c6ef372, 0xfe94f82b],
  [0xa54ff53a, 0x5f1d36f1],
  [0x510e527f, 0xade682d1],
  [0x9b05688c, 0x2b3e6c1f],
  [0x1f83d9ab, 0xfb41bd6b],
  [0x5be0cd19, 0x137e2179],
];

/** The IV as 64 little-endian bytes: the state a parameter block is XORed into. */
export const IV_BYTES: Uint8Array = new Uint8Array(64);
for (let i = 0; i < 8; i++) {
  for (let b = 0; b < 4; b++) {
    IV_BYTES[8 * i + b] = IV[i][1] >>> (8 * b);
    IV_BYTES[8 * i + 4 + b] = IV[i][0] >>> (8 * b);
  }
}

/** SCHEDULE[r][j]: the message word that position j of round r reads (RFC 7693 §2.7); round r uses row r mod 10. */
export const SCHEDULE = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
] as const;

/**
 * The kernel's memory. The state h (64 bytes) and the byte counter t (an
 * i64: messages stay below 2^53 bytes, so the counter's high word is 0)
 * are what an incremental hasher keeps between calls, copied in and out;
 * input is copied to BUFFER a slice at a time. All of it is secret (h
 * derives from the key, the buffer holds the key block and the message)
 * and is wiped before each call returns.
 */
export const H = 0;
export const T = 64;
export const BUFFER = 128;
/** Bytes per slice of input: whole blocks. */
export const SLICE = 65536;
/**
 * The buffer holds the key block and a slice at once (a one-shot call of
 * up to a slice), and the final block's zero padding after them.
 */
export const BUFFER_BYTES = BLOCK + SLICE + BLOCK;
/** 64 KiB pages, fixed. */
export const PAGES = Math.ceil((BUFFER + BUFFER_BYTES) / 65536);
