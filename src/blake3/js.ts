/**
 * The pure-JavaScript BLAKE3 tier. Its outputs must match the 'simd' tier
 * byte for byte.
 *
 * The compression function runs on 32 locals (16 state words, 16 message
 * words) so the JIT keeps them in registers, with the seven rounds
 * unrolled: the message permutation between rounds is applied to the
 * variable names (round r reads the words SCHEDULE[r] lists), so no word
 * moves at run time. Input is copied into an aligned word buffer a slice
 * at a time (one bulk copy, then words read directly; byte-swapped first
 * on a big-endian host). The tree is built one chunk at a time with the
 * same lazily merged stack as the kernel. Buffers holding key words,
 * chaining values or data are zeroed before each call returns.
 */
import type { Blake3Engine, RootNode, TreeState } from './engine.js';
import { CHUNK_END, CHUNK_START, IV, IV_BYTES, MAX_DEPTH, PARENT, ROOT_FLAG } from './layout.js';
import { high32, low32, readLE32, writeLE32, zeroize } from '../runtime/bytes.js';
import { HOST_LE } from '../runtime/host.js';

const IV0 = IV[0] | 0, IV1 = IV[1] | 0, IV2 = IV[2] | 0, IV3 = IV[3] | 0;
const TWO32 = 0x100000000;

/**
 * One compression: chaining value chain[co..co+8), message m[mo..mo+16), the
 * 64-bit counter (lo, hi), the block length and flags. Writes the next
 * chaining value to out[oo..oo+8), or with `full` the 16-word output block
 * to out[oo..oo+16). Everything is read before anything is written, so out
 * may be chain or m.
 */
function compress(
  chain: Uint32Array, co: number, m: Uint32Array, mo: number, lo: number, hi: number,
  length: number, flags: number, out: Uint32Array, oo: number, full: boolean,
): void {
  const m0 = m[mo] | 0, m1 = m[mo + 1] | 0, m2 = m[mo + 2] | 0, m3 = m[mo + 3] | 0;
  const m4 = m[mo + 4] | 0, m5 = m[mo + 5] | 0, m6 = m[mo + 6] | 0, m7 = m[mo + 7] | 0;
  const m8 = m[mo + 8] | 0, m9 = m[mo + 9] | 0, m10 = m[mo + 10] | 0, m11 = m[mo + 11] | 0;
  const m12 = m[mo + 12] | 0, m13 = m[mo + 13] | 0, m14 = m[mo + 14] | 0, m15 = m[mo + 15] | 0;
  const h0 = chain[co] | 0, h1 = chain[co + 1] | 0, h2 = chain[co + 2] | 0, h3 = chain[co + 3] | 0;
  const h4 = chain[co + 4] | 0, h5 = chain[co + 5] | 0, h6 = chain[co + 6] | 0, h7 = chain[co + 7] | 0;
  let v0 = h0, v1 = h1, v2 = h2, v3 = h3, v4 = h4, v5 = h5, v6 = h6, v7 = h7;
  let v8 = IV0, v9 = IV1, v10 = IV2, v11 = IV3, v12 = lo | 0, v13 = hi | 0, v14 = length | 0, v15 = flags | 0;
  // G(a, b, c, d, x, y): a += b + x; d = (d ^ a) >>> 16; c += d; b = (b ^ c) >>> 12;
  //                      a += b + y; d = (d ^ a) >>> 8;  c += d; b = (b ^ c) >>> 7  (rotations).
  // Round 1: columns, then diagonals.
  v0 = (v0 + v4 + m0) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m1) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m2) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m3) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m4) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m5) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m6) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m7) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m8) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m9) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m10) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m11) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m12) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m13) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m14) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m15) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 2 (message permuted 1 time): columns, then diagonals.
  v0 = (v0 + v4 + m2) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m6) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m3) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m10) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m7) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m0) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m4) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m13) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m1) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m11) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m12) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m5) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m9) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m14) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m15) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m8) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 3 (message permuted 2 times): columns, then diagonals.
  v0 = (v0 + v4 + m3) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m4) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m10) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m12) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m13) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m2) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m7) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m14) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m6) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m5) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m9) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m0) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m11) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m15) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m8) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m1) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 4 (message permuted 3 times): columns, then diagonals.
  v0 = (v0 + v4 + m10) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m7) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m12) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m9) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m14) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m3) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m13) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m15) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m4) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m0) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m11) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m2) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m5) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m8) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m1) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m6) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 5 (message permuted 4 times): columns, then diagonals.
  v0 = (v0 + v4 + m12) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m13) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m9) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m11) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m15) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m10) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m14) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m8) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m7) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m2) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m5) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m3) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m0) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m1) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m6) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m4) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 6 (message permuted 5 times): columns, then diagonals.
  v0 = (v0 + v4 + m9) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m14) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m11) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m5) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m8) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m12) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m15) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m1) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m13) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m3) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m0) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m10) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m2) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m6) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m4) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m7) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 7 (message permuted 6 times): columns, then diagonals.
  v0 = (v0 + v4 + m11) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m15) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
  v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m5) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m0) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
  v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m1) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m9) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
  v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m8) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m6) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
  v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m14) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m10) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
  v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m2) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m12) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
  v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m3) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m4) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
  v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m7) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m13) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  if (full) {
    out[oo + 8] = v8 ^ h0; out[oo + 9] = v9 ^ h1; out[oo + 10] = v10 ^ h2; out[oo + 11] = v11 ^ h3;
    out[oo + 12] = v12 ^ h4; out[oo + 13] = v13 ^ h5; out[oo + 14] = v14 ^ h6; out[oo + 15] = v15 ^ h7;
  }
  out[oo] = v0 ^ v8; out[oo + 1] = v1 ^ v9; out[oo + 2] = v2 ^ v10; out[oo + 3] = v3 ^ v11;
  out[oo + 4] = v4 ^ v12; out[oo + 5] = v5 ^ v13; out[oo + 6] = v6 ^ v14; out[oo + 7] = v7 ^ v15;
}

/** Input words: data is copied here a slice at a time (whole chunks). */
const SLICE_WORDS = 4096;
const data32 = new Uint32Array(SLICE_WORDS);
const data8 = new Uint8Array(data32.buffer);
/** The key words, the working chaining value and the stack (one spare entry for the last chunk's CV). */
const key = new Uint32Array(8);
const cv = new Uint32Array(8);
const stack = new Uint32Array(8 * (MAX_DEPTH + 1));
/** The root node: chaining value (0..8), block (8..24), block length (24), flags (25). */
const root = new Uint32Array(26);
const block = new Uint32Array(16);
let mode = 0;
let depth = 0;
/** The most stack entries in use during this call: what wipe() must clear. */
let high = 0;
/** Index of the next chunk, and the chunk the tree starts at (numbers below 2^53). */
let counter = 0;
let base = 0;

const bswap = (w: number): number => (w >>> 24) | ((w >>> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);

/** Copies `bytes` (a multiple of 4 long, at most a slice) to the start of data32 as little-endian words. */
function loadWords(bytes: Uint8Array): void {
  data8.set(bytes);
  if (!HOST_LE) for (let i = 0; i < bytes.length >>> 2; i++) data32[i] = bswap(data32[i]);
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const popcount = (n: number): number => popcount32(n >>> 0) + popcount32(Math.floor(n / TWO32));

function setMode(keyBytes: Uint8Array, flags: number): void {
  for (let i = 0; i < 8; i++) key[i] = readLE32(keyBytes, 4 * i);
  mode = flags;
}

function loadState(state: TreeState): void {
  setMode(state.key, state.flags);
  depth = high = state.depth;
  counter = state.chunks;
  base = state.base;
  for (let i = 0; i < 8 * depth; i++) stack[i] = readLE32(state.stack, 4 * i);
}

function saveState(state: TreeState): void {
  state.depth = depth;
  state.chunks = counter;
  if (state.stack.length === 0) state.stack = new Uint8Array(32 * MAX_DEPTH);
  for (let i = 0; i < 8 * depth; i++) writeLE32(state.stack, 4 * i, stack[i]);
}

/** Zeroes every buffer that held key words, chaining values or data (`words` of data32). */
function wipe(words: number): void {
  zeroize(data32, words);
  zeroize(key, 8);
  zeroize(cv, 8);
  zeroize(stack, 8 * (Math.max(high, depth) + 1));
  zeroize(root, 26);
  zeroize(block, 16);
  mode = depth = high = counter = base = 0;
}

/** Merges the top two stack entries into their (non-root) parent. */
function mergeTop(): void {
  const at = 8 * (depth - 2);
  compress(key, 0, stack, at, 0, 0, 64, mode | PARENT, stack, at, false);
  depth--;
}

/**
 * Pushes the chaining value in `cv` of the subtree starting at chunk
 * `counter`, after merging the stack down to popcount(counter - base)
 * entries (lazily, so the last CV stays unmerged until finish knows the root).
 */
function pushCv(): void {
  const target = popcount(counter - base);
  while (depth > target) mergeTop();
  stack.set(cv, 8 * depth);
  depth++;
  if (depth > high) high = depth;
}

/** The chaining value of the whole chunk at data32[at..at + 256), chunk index `counter`, into `cv`. */
function chunkCv(at: number): void {
  const lo = counter >>> 0, hi = Math.floor(counter / TWO32);
  cv.set(key);
  for (let b = 0; b < 16; b++) {
    const flags = mode | (b === 0 ? CHUNK_START : 0) | (b === 15 ? CHUNK_END : 0);
    compress(cv, 0, data32, at + 16 * b, lo, hi, 64, flags, cv, 0, false);
  }
}

/** Absorbs whole chunks, each pushed on the stack. */
function absorb(data: Uint8Array): void {
  for (let pos = 0; pos < data.length; pos += 4 * SLICE_WORDS) {
    const n = Math.min(4 * SLICE_WORDS, data.length - pos);
    loadWords(data.subarray(pos, pos + n));
    for (let at = 0; at < n >>> 2; at += 256) {
      chunkCv(at);
      pushCv();
      counter++;
    }
  }
}

/**
 * The root node (into `root`) from the last chunk, data[at, at + n) (0..1024
 * bytes), and the stack. Returns the data32 words it used.
 */
function finishRoot(data: Uint8Array, at: number, n: number): number {
  const lo = counter >>> 0, hi = Math.floor(counter / TWO32);
  // Zero-padded to whole words and blocks.
  const words = Math.max(16, (n + 63) & ~63) >>> 2;
  zeroize(data32, words);
  data8.set(at === 0 && n === data.length ? data : data.subarray(at, at + n));
  if (!HOST_LE) for (let i = 0; i < words; i++) data32[i] = bswap(data32[i]);
  const blocks = Math.max(1, (n + 63) >>> 6);
  for (let i = 0; i < 8; i++) root[i] = key[i];
  for (let b = 0; b < blocks - 1; b++) {
    compress(root, 0, data32, 16 * b, lo, hi, 64, mode | (b === 0 ? CHUNK_START : 0), root, 0, false);
  }
  for (let i = 0; i < 16; i++) root[8 + i] = data32[16 * (blocks - 1) + i];
  root[24] = n - 64 * (blocks - 1);
  root[25] = mode | CHUNK_END | (blocks === 1 ? CHUNK_START : 0);
  // Pending merges first: the stack is left with the complete subtrees left of the last chunk.
  const target = popcount(counter - base);
  while (depth > target) mergeTop();
  if (depth > 0) {
    // The chunk's CV, then parents folded from the top of the stack; the last is the root.
    compress(root, 0, root, 8, lo, hi, root[24], root[25], block, 8, false);
    for (let d = depth - 1; d >= 1; d--) {
      block.set(stack.subarray(8 * d, 8 * d + 8));
      compress(key, 0, block, 0, 0, 0, 64, mode | PARENT, block, 8, false);
    }
    block.set(stack.subarray(0, 8));
    root.set(key);
    root.set(block, 8);
    root[24] = 64;
    root[25] = mode | PARENT;
  }
  root[25] |= ROOT_FLAG;
  return words;
}

/** Output blocks `t`, `t + 1`, ... of the node in `root` into `out`. */
function squeeze(t: number | bigint, out: Uint8Array): void {
  let lo = low32(t);
  let hi = high32(t);
  for (let pos = 0; pos < out.length; pos += 64) {
    compress(root, 0, root, 8, lo, hi, root[24], root[25], block, 0, true);
    // The next block: a 64-bit increment.
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
    const n = Math.min(64, out.length - pos);
    if (n === 64) for (let i = 0; i < 16; i++) writeLE32(out, pos + 4 * i, block[i]);
    else for (let i = 0; i < n; i++) out[pos + i] = block[i >>> 2] >>> (8 * (i & 3));
  }
}

function rootToBytes(out: RootNode): void {
  for (let i = 0; i < 26; i++) writeLE32(out, 4 * i, root[i]);
}

function rootFromBytes(node: RootNode): void {
  for (let i = 0; i < 26; i++) root[i] = readLE32(node, 4 * i);
}

export const jsBlake3: Blake3Engine = {
  hash(keyBytes, flags, data, length, output) {
    const n = data.length;
    let used = SLICE_WORDS;
    try {
      setMode(keyBytes ?? IV_BYTES, flags);
      const whole = n > 1024 ? Math.floor((n - 1) / 1024) * 1024 : 0;
      if (whole > 0) absorb(data.subarray(0, whole));
      used = Math.max(Math.min(SLICE_WORDS, whole / 4), finishRoot(data, whole, n - whole));
      const out = output ?? new Uint8Array(length);
      squeeze(0, out);
      return out;
    } finally {
      wipe(used);
    }
  },

  update(state, data, head) {
    try {
      loadState(state);
      if (head !== undefined) absorb(head);
      absorb(data);
      saveState(state);
    } finally {
      wipe(Math.min(SLICE_WORDS, Math.max(data.length, head?.length ?? 0) / 4));
    }
  },

  push(state, chainingValue, chunks) {
    try {
      loadState(state);
      for (let i = 0; i < 8; i++) cv[i] = readLE32(chainingValue, 4 * i);
      pushCv();
      counter += chunks;
      saveState(state);
    } finally {
      wipe(0);
    }
  },

  finish(state, last, node, block0) {
    try {
      loadState(state);
      finishRoot(last, 0, last.length);
      rootToBytes(node);
      if (block0 !== undefined) squeeze(0, block0);
    } finally {
      wipe(256);
    }
  },

  output(node, t, out) {
    try {
      rootFromBytes(node);
      squeeze(t, out);
    } finally {
      wipe(0);
    }
  },

  subtree(keyBytes, flags, data, start, out) {
    try {
      setMode(keyBytes, flags);
      counter = base = start;
      absorb(data);
      while (depth > 1) mergeTop();
      for (let i = 0; i < 8; i++) writeLE32(out, 4 * i, stack[i]);
    } finally {
      wipe(Math.min(SLICE_WORDS, data.length / 4));
    }
  },
};
