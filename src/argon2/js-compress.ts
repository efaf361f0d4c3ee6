/**
 * The compression G of RFC 9106 §3.5 for the 'js' tier, in plain
 * JavaScript. A 64-bit word is two 32-bit halves, low then high, as the
 * block's little-endian bytes hold it. P (§3.6) runs on 32 locals with its
 * eight GB unrolled, so that each word of a row or a column is read from
 * the block and written back once per P, not at every step, and the JIT
 * keeps the words in registers or on its stack.
 */

/** 32-bit words of a block. */
export const WORDS = 256;

/** 2^-32: a product by it is exact (a shift of the exponent), where a division of a secret would be a divider's variable time. */
const INV32 = 2 ** -32;

/**
 * P on the 16 64-bit words v0..v15 of q, in place: v(2j) at
 * q[base + j * stride], v(2j + 1) two words after it (j = 0..7). Stride 4
 * gives a row of the block seen as an 8x8 matrix of 16-byte registers (Q
 * from R), stride 32 a column (Z from Q).
 *
 * GB's steps are fBlaMka, a = a + b + 2 * lo(a) * lo(b) mod 2^64, then
 * d = (d ^ a) >>> n. The sum's low half w is exact in 32-bit arithmetic
 * (Math.imul). Its high half is ha + hb + K, K = floor((2P + la + lb) / 2^32)
 * for the product P = la * lb: in doubles, 2P + la + lb - w is within 2^14
 * of K * 2^32 (P rounds by at most 2^10, each of the three sums by 2^12),
 * so times 2^-32 (exact) it is within 2^-18 of K, and + 0.5 truncates to
 * K. No branch and no address depends on the words.
 */
function permute(q: Uint32Array, base: number, stride: number): void {
  const o1 = base + stride, o2 = o1 + stride, o3 = o2 + stride, o4 = o3 + stride, o5 = o4 + stride, o6 = o5 + stride, o7 = o6 + stride;
  let l0 = q[base], h0 = q[base + 1], l1 = q[base + 2], h1 = q[base + 3];
  let l2 = q[o1], h2 = q[o1 + 1], l3 = q[o1 + 2], h3 = q[o1 + 3];
  let l4 = q[o2], h4 = q[o2 + 1], l5 = q[o2 + 2], h5 = q[o2 + 3];
  let l6 = q[o3], h6 = q[o3 + 1], l7 = q[o3 + 2], h7 = q[o3 + 3];
  let l8 = q[o4], h8 = q[o4 + 1], l9 = q[o4 + 2], h9 = q[o4 + 3];
  let l10 = q[o5], h10 = q[o5 + 1], l11 = q[o5 + 2], h11 = q[o5 + 3];
  let l12 = q[o6], h12 = q[o6 + 1], l13 = q[o6 + 2], h13 = q[o6 + 3];
  let l14 = q[o7], h14 = q[o7 + 1], l15 = q[o7 + 2], h15 = q[o7 + 3];
  // w: fBlaMka's new low half; x, y: the halves of d ^ a.
  let w: number, x: number, y: number;
  // GB(v0, v4, v8, v12): the columns of the 4x4 matrix of v0..v15.
  w = (l0 + l4 + (Math.imul(l0, l4) << 1)) | 0;
  h0 = (h0 + h4 + ((((l0 >>> 0) * (l4 >>> 0) * 2 + (l0 >>> 0) + (l4 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l0 = w;
  x = l12 ^ l0; l12 = h12 ^ h0; h12 = x;
  w = (l8 + l12 + (Math.imul(l8, l12) << 1)) | 0;
  h8 = (h8 + h12 + ((((l8 >>> 0) * (l12 >>> 0) * 2 + (l8 >>> 0) + (l12 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l8 = w;
  x = l4 ^ l8; y = h4 ^ h8; l4 = (x >>> 24) | (y << 8); h4 = (y >>> 24) | (x << 8);
  w = (l0 + l4 + (Math.imul(l0, l4) << 1)) | 0;
  h0 = (h0 + h4 + ((((l0 >>> 0) * (l4 >>> 0) * 2 + (l0 >>> 0) + (l4 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l0 = w;
  x = l12 ^ l0; y = h12 ^ h0; l12 = (x >>> 16) | (y << 16); h12 = (y >>> 16) | (x << 16);
  w = (l8 + l12 + (Math.imul(l8, l12) << 1)) | 0;
  h8 = (h8 + h12 + ((((l8 >>> 0) * (l12 >>> 0) * 2 + (l8 >>> 0) + (l12 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l8 = w;
  x = l4 ^ l8; y = h4 ^ h8; l4 = (x << 1) | (y >>> 31); h4 = (y << 1) | (x >>> 31);
  // GB(v1, v5, v9, v13).
  w = (l1 + l5 + (Math.imul(l1, l5) << 1)) | 0;
  h1 = (h1 + h5 + ((((l1 >>> 0) * (l5 >>> 0) * 2 + (l1 >>> 0) + (l5 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l1 = w;
  x = l13 ^ l1; l13 = h13 ^ h1; h13 = x;
  w = (l9 + l13 + (Math.imul(l9, l13) << 1)) | 0;
  h9 = (h9 + h13 + ((((l9 >>> 0) * (l13 >>> 0) * 2 + (l9 >>> 0) + (l13 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l9 = w;
  x = l5 ^ l9; y = h5 ^ h9; l5 = (x >>> 24) | (y << 8); h5 = (y >>> 24) | (x << 8);
  w = (l1 + l5 + (Math.imul(l1, l5) << 1)) | 0;
  h1 = (h1 + h5 + ((((l1 >>> 0) * (l5 >>> 0) * 2 + (l1 >>> 0) + (l5 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l1 = w;
  x = l13 ^ l1; y = h13 ^ h1; l13 = (x >>> 16) | (y << 16); h13 = (y >>> 16) | (x << 16);
  w = (l9 + l13 + (Math.imul(l9, l13) << 1)) | 0;
  h9 = (h9 + h13 + ((((l9 >>> 0) * (l13 >>> 0) * 2 + (l9 >>> 0) + (l13 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l9 = w;
  x = l5 ^ l9; y = h5 ^ h9; l5 = (x << 1) | (y >>> 31); h5 = (y << 1) | (x >>> 31);
  // GB(v2, v6, v10, v14).
  w = (l2 + l6 + (Math.imul(l2, l6) << 1)) | 0;
  h2 = (h2 + h6 + ((((l2 >>> 0) * (l6 >>> 0) * 2 + (l2 >>> 0) + (l6 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l2 = w;
  x = l14 ^ l2; l14 = h14 ^ h2; h14 = x;
  w = (l10 + l14 + (Math.imul(l10, l14) << 1)) | 0;
  h10 = (h10 + h14 + ((((l10 >>> 0) * (l14 >>> 0) * 2 + (l10 >>> 0) + (l14 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l10 = w;
  x = l6 ^ l10; y = h6 ^ h10; l6 = (x >>> 24) | (y << 8); h6 = (y >>> 24) | (x << 8);
  w = (l2 + l6 + (Math.imul(l2, l6) << 1)) | 0;
  h2 = (h2 + h6 + ((((l2 >>> 0) * (l6 >>> 0) * 2 + (l2 >>> 0) + (l6 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l2 = w;
  x = l14 ^ l2; y = h14 ^ h2; l14 = (x >>> 16) | (y << 16); h14 = (y >>> 16) | (x << 16);
  w = (l10 + l14 + (Math.imul(l10, l14) << 1)) | 0;
  h10 = (h10 + h14 + ((((l10 >>> 0) * (l14 >>> 0) * 2 + (l10 >>> 0) + (l14 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l10 = w;
  x = l6 ^ l10; y = h6 ^ h10; l6 = (x << 1) | (y >>> 31); h6 = (y << 1) | (x >>> 31);
  // GB(v3, v7, v11, v15).
  w = (l3 + l7 + (Math.imul(l3, l7) << 1)) | 0;
  h3 = (h3 + h7 + ((((l3 >>> 0) * (l7 >>> 0) * 2 + (l3 >>> 0) + (l7 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l3 = w;
  x = l15 ^ l3; l15 = h15 ^ h3; h15 = x;
  w = (l11 + l15 + (Math.imul(l11, l15) << 1)) | 0;
  h11 = (h11 + h15 + ((((l11 >>> 0) * (l15 >>> 0) * 2 + (l11 >>> 0) + (l15 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l11 = w;
  x = l7 ^ l11; y = h7 ^ h11; l7 = (x >>> 24) | (y << 8); h7 = (y >>> 24) | (x << 8);
  w = (l3 + l7 + (Math.imul(l3, l7) << 1)) | 0;
  h3 = (h3 + h7 + ((((l3 >>> 0) * (l7 >>> 0) * 2 + (l3 >>> 0) + (l7 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l3 = w;
  x = l15 ^ l3; y = h15 ^ h3; l15 = (x >>> 16) | (y << 16); h15 = (y >>> 16) | (x << 16);
  w = (l11 + l15 + (Math.imul(l11, l15) << 1)) | 0;
  h11 = (h11 + h15 + ((((l11 >>> 0) * (l15 >>> 0) * 2 + (l11 >>> 0) + (l15 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l11 = w;
  x = l7 ^ l11; y = h7 ^ h11; l7 = (x << 1) | (y >>> 31); h7 = (y << 1) | (x >>> 31);
  // GB(v0, v5, v10, v15): its diagonals.
  w = (l0 + l5 + (Math.imul(l0, l5) << 1)) | 0;
  h0 = (h0 + h5 + ((((l0 >>> 0) * (l5 >>> 0) * 2 + (l0 >>> 0) + (l5 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l0 = w;
  x = l15 ^ l0; l15 = h15 ^ h0; h15 = x;
  w = (l10 + l15 + (Math.imul(l10, l15) << 1)) | 0;
  h10 = (h10 + h15 + ((((l10 >>> 0) * (l15 >>> 0) * 2 + (l10 >>> 0) + (l15 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l10 = w;
  x = l5 ^ l10; y = h5 ^ h10; l5 = (x >>> 24) | (y << 8); h5 = (y >>> 24) | (x << 8);
  w = (l0 + l5 + (Math.imul(l0, l5) << 1)) | 0;
  h0 = (h0 + h5 + ((((l0 >>> 0) * (l5 >>> 0) * 2 + (l0 >>> 0) + (l5 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l0 = w;
  x = l15 ^ l0; y = h15 ^ h0; l15 = (x >>> 16) | (y << 16); h15 = (y >>> 16) | (x << 16);
  w = (l10 + l15 + (Math.imul(l10, l15) << 1)) | 0;
  h10 = (h10 + h15 + ((((l10 >>> 0) * (l15 >>> 0) * 2 + (l10 >>> 0) + (l15 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l10 = w;
  x = l5 ^ l10; y = h5 ^ h10; l5 = (x << 1) | (y >>> 31); h5 = (y << 1) | (x >>> 31);
  // GB(v1, v6, v11, v12).
  w = (l1 + l6 + (Math.imul(l1, l6) << 1)) | 0;
  h1 = (h1 + h6 + ((((l1 >>> 0) * (l6 >>> 0) * 2 + (l1 >>> 0) + (l6 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l1 = w;
  x = l12 ^ l1; l12 = h12 ^ h1; h12 = x;
  w = (l11 + l12 + (Math.imul(l11, l12) << 1)) | 0;
  h11 = (h11 + h12 + ((((l11 >>> 0) * (l12 >>> 0) * 2 + (l11 >>> 0) + (l12 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l11 = w;
  x = l6 ^ l11; y = h6 ^ h11; l6 = (x >>> 24) | (y << 8); h6 = (y >>> 24) | (x << 8);
  w = (l1 + l6 + (Math.imul(l1, l6) << 1)) | 0;
  h1 = (h1 + h6 + ((((l1 >>> 0) * (l6 >>> 0) * 2 + (l1 >>> 0) + (l6 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l1 = w;
  x = l12 ^ l1; y = h12 ^ h1; l12 = (x >>> 16) | (y << 16); h12 = (y >>> 16) | (x << 16);
  w = (l11 + l12 + (Math.imul(l11, l12) << 1)) | 0;
  h11 = (h11 + h12 + ((((l11 >>> 0) * (l12 >>> 0) * 2 + (l11 >>> 0) + (l12 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l11 = w;
  x = l6 ^ l11; y = h6 ^ h11; l6 = (x << 1) | (y >>> 31); h6 = (y << 1) | (x >>> 31);
  // GB(v2, v7, v8, v13).
  w = (l2 + l7 + (Math.imul(l2, l7) << 1)) | 0;
  h2 = (h2 + h7 + ((((l2 >>> 0) * (l7 >>> 0) * 2 + (l2 >>> 0) + (l7 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l2 = w;
  x = l13 ^ l2; l13 = h13 ^ h2; h13 = x;
  w = (l8 + l13 + (Math.imul(l8, l13) << 1)) | 0;
  h8 = (h8 + h13 + ((((l8 >>> 0) * (l13 >>> 0) * 2 + (l8 >>> 0) + (l13 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l8 = w;
  x = l7 ^ l8; y = h7 ^ h8; l7 = (x >>> 24) | (y << 8); h7 = (y >>> 24) | (x << 8);
  w = (l2 + l7 + (Math.imul(l2, l7) << 1)) | 0;
  h2 = (h2 + h7 + ((((l2 >>> 0) * (l7 >>> 0) * 2 + (l2 >>> 0) + (l7 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l2 = w;
  x = l13 ^ l2; y = h13 ^ h2; l13 = (x >>> 16) | (y << 16); h13 = (y >>> 16) | (x << 16);
  w = (l8 + l13 + (Math.imul(l8, l13) << 1)) | 0;
  h8 = (h8 + h13 + ((((l8 >>> 0) * (l13 >>> 0) * 2 + (l8 >>> 0) + (l13 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l8 = w;
  x = l7 ^ l8; y = h7 ^ h8; l7 = (x << 1) | (y >>> 31); h7 = (y << 1) | (x >>> 31);
  // GB(v3, v4, v9, v14).
  w = (l3 + l4 + (Math.imul(l3, l4) << 1)) | 0;
  h3 = (h3 + h4 + ((((l3 >>> 0) * (l4 >>> 0) * 2 + (l3 >>> 0) + (l4 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l3 = w;
  x = l14 ^ l3; l14 = h14 ^ h3; h14 = x;
  w = (l9 + l14 + (Math.imul(l9, l14) << 1)) | 0;
  h9 = (h9 + h14 + ((((l9 >>> 0) * (l14 >>> 0) * 2 + (l9 >>> 0) + (l14 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l9 = w;
  x = l4 ^ l9; y = h4 ^ h9; l4 = (x >>> 24) | (y << 8); h4 = (y >>> 24) | (x << 8);
  w = (l3 + l4 + (Math.imul(l3, l4) << 1)) | 0;
  h3 = (h3 + h4 + ((((l3 >>> 0) * (l4 >>> 0) * 2 + (l3 >>> 0) + (l4 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l3 = w;
  x = l14 ^ l3; y = h14 ^ h3; l14 = (x >>> 16) | (y << 16); h14 = (y >>> 16) | (x << 16);
  w = (l9 + l14 + (Math.imul(l9, l14) << 1)) | 0;
  h9 = (h9 + h14 + ((((l9 >>> 0) * (l14 >>> 0) * 2 + (l9 >>> 0) + (l14 >>> 0) - (w >>> 0)) * INV32 + 0.5) | 0)) | 0; l9 = w;
  x = l4 ^ l9; y = h4 ^ h9; l4 = (x << 1) | (y >>> 31); h4 = (y << 1) | (x >>> 31);
  q[base] = l0; q[base + 1] = h0; q[base + 2] = l1; q[base + 3] = h1;
  q[o1] = l2; q[o1 + 1] = h2; q[o1 + 2] = l3; q[o1 + 3] = h3;
  q[o2] = l4; q[o2 + 1] = h4; q[o2 + 2] = l5; q[o2 + 3] = h5;
  q[o3] = l6; q[o3 + 1] = h6; q[o3 + 2] = l7; q[o3 + 3] = h7;
  q[o4] = l8; q[o4 + 1] = h8; q[o4 + 2] = l9; q[o4 + 3] = h9;
  q[o5] = l10; q[o5 + 1] = h10; q[o5 + 2] = l11; q[o5 + 3] = h11;
  q[o6] = l12; q[o6 + 1] = h12; q[o6 + 2] = l13; q[o6 + 3] = h13;
  q[o7] = l14; q[o7 + 1] = h14; q[o7 + 2] = l15; q[o7 + 3] = h15;
}

/**
 * Block `out` of m = G(X, Y) (§3.5), XORed into what it holds when `xor`
 * (§3.2 step 6 from version 0x13: a later pass's block). x, y and out are
 * word offsets in m (out may be x or y); q is a scratch block. R = X ^ Y
 * goes to q and to out at once, so that the last step, out ^= P(R), reads
 * neither X nor Y again. The loops take four words a turn, for fewer
 * loop tests and index updates.
 */
export function compressBlock(m: Uint32Array, x: number, y: number, out: number, xor: boolean, q: Uint32Array): void {
  if (xor)
    for (let i = 0; i < WORDS; i += 4) {
      const r0 = m[x + i] ^ m[y + i], r1 = m[x + i + 1] ^ m[y + i + 1], r2 = m[x + i + 2] ^ m[y + i + 2], r3 = m[x + i + 3] ^ m[y + i + 3];
      q[i] = r0; q[i + 1] = r1; q[i + 2] = r2; q[i + 3] = r3;
      m[out + i] ^= r0; m[out + i + 1] ^= r1; m[out + i + 2] ^= r2; m[out + i + 3] ^= r3;
    }
  else
    for (let i = 0; i < WORDS; i += 4) {
      const r0 = m[x + i] ^ m[y + i], r1 = m[x + i + 1] ^ m[y + i + 1], r2 = m[x + i + 2] ^ m[y + i + 2], r3 = m[x + i + 3] ^ m[y + i + 3];
      q[i] = r0; q[i + 1] = r1; q[i + 2] = r2; q[i + 3] = r3;
      m[out + i] = r0; m[out + i + 1] = r1; m[out + i + 2] = r2; m[out + i + 3] = r3;
    }
  for (let row = 0; row < 8; row++) permute(q, 32 * row, 4);
  for (let column = 0; column < 8; column++) permute(q, 4 * column, 32);
  for (let i = 0; i < WORDS; i += 4) {
    m[out + i] ^= q[i]; m[out + i + 1] ^= q[i + 1]; m[out + i + 2] ^= q[i + 2]; m[out + i + 3] ^= q[i + 3];
  }
}
