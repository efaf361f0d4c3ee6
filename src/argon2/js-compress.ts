/**
 * The compression G of RFC 9106 §3.5 for the 'js' tier, in plain
 * JavaScript. A 64-bit word is two 32-bit halves, low then high, as the
 * block's little-endian bytes hold it; the blocks are read through an
 * Int32Array, so that every value is a 32-bit integer.
 *
 * The shape is the one every engine's optimizing tier takes: GB is a
 * function of its own on the locals of two GB, called four times by P,
 * and fBlaMka is 32-bit integer arithmetic only (Math.imul, sums
 * truncated by `| 0`), written out where it is used, as V8 stops inlining
 * small helpers into a function once their bytecodes add up. WebKitGTK's
 * JavaScriptCore ran a P of 32 locals with its eight GB unrolled several
 * times slower than this, and an fBlaMka whose high half came from a
 * product in a double at about half its speed.
 */

/** 32-bit words of a block. */
export const WORDS = 256;

/**
 * GB (§3.6) on two quadruples of 64-bit words of q, (a, b, c, d) and
 * (e, f, g, h), offsets of their low halves: a = fBlaMka(a, b),
 * d = (d ^ a) >>> 32, c = fBlaMka(c, d), b = (b ^ c) >>> 24, then again
 * with rotations by 16 and 63; the same on e, f, g, h. P's four GB of a
 * step are independent: two to a call halve the calls, and the engine
 * can overlap the two.
 */
function gbPair(q: Int32Array, a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number): void {
  let al = q[a], ah = q[a + 1], bl = q[b], bh = q[b + 1], cl = q[c], ch = q[c + 1], dl = q[d], dh = q[d + 1];
  let el = q[e], eh = q[e + 1], fl = q[f], fh = q[f + 1], gl = q[g], gh = q[g + 1], hl = q[h], hh = q[h + 1];
  // fBlaMka(a, b), four lines: p, the low half of the product lo(a) * lo(b); high, its high half, from the four products
  // of 16-bit halves x, y of al and s, t of bl (u, v the middle ones); low = al + bl + 2p, the new low half; the new high
  // half, ah + bh + 2 * high, the bit the doubling of p shifts out, and the carries of al + bl = s and s + 2p = low (the
  // top bit of the majority of the two terms and the sum's complement).
  let p: number, high: number, s: number, t: number, u: number, v: number, low: number, x: number, y: number;
  // GB(a, b, c, d)
  p = Math.imul(al, bl); x = al & 0xffff; y = al >>> 16; s = bl & 0xffff; t = bl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (al + bl) | 0; low = (s + (p << 1)) | 0;
  ah = (ah + bh + ((high << 1) | (p >>> 31)) + (((al & bl) | ((al | bl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; al = low;
  x = dl ^ al; dl = dh ^ ah; dh = x;
  p = Math.imul(cl, dl); x = cl & 0xffff; y = cl >>> 16; s = dl & 0xffff; t = dl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (cl + dl) | 0; low = (s + (p << 1)) | 0;
  ch = (ch + dh + ((high << 1) | (p >>> 31)) + (((cl & dl) | ((cl | dl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; cl = low;
  x = bl ^ cl; y = bh ^ ch; bl = (x >>> 24) | (y << 8); bh = (y >>> 24) | (x << 8);
  p = Math.imul(al, bl); x = al & 0xffff; y = al >>> 16; s = bl & 0xffff; t = bl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (al + bl) | 0; low = (s + (p << 1)) | 0;
  ah = (ah + bh + ((high << 1) | (p >>> 31)) + (((al & bl) | ((al | bl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; al = low;
  x = dl ^ al; y = dh ^ ah; dl = (x >>> 16) | (y << 16); dh = (y >>> 16) | (x << 16);
  p = Math.imul(cl, dl); x = cl & 0xffff; y = cl >>> 16; s = dl & 0xffff; t = dl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (cl + dl) | 0; low = (s + (p << 1)) | 0;
  ch = (ch + dh + ((high << 1) | (p >>> 31)) + (((cl & dl) | ((cl | dl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; cl = low;
  x = bl ^ cl; y = bh ^ ch; bl = (x << 1) | (y >>> 31); bh = (y << 1) | (x >>> 31);
  // GB(e, f, g, h)
  p = Math.imul(el, fl); x = el & 0xffff; y = el >>> 16; s = fl & 0xffff; t = fl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (el + fl) | 0; low = (s + (p << 1)) | 0;
  eh = (eh + fh + ((high << 1) | (p >>> 31)) + (((el & fl) | ((el | fl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; el = low;
  x = hl ^ el; hl = hh ^ eh; hh = x;
  p = Math.imul(gl, hl); x = gl & 0xffff; y = gl >>> 16; s = hl & 0xffff; t = hl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (gl + hl) | 0; low = (s + (p << 1)) | 0;
  gh = (gh + hh + ((high << 1) | (p >>> 31)) + (((gl & hl) | ((gl | hl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; gl = low;
  x = fl ^ gl; y = fh ^ gh; fl = (x >>> 24) | (y << 8); fh = (y >>> 24) | (x << 8);
  p = Math.imul(el, fl); x = el & 0xffff; y = el >>> 16; s = fl & 0xffff; t = fl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (el + fl) | 0; low = (s + (p << 1)) | 0;
  eh = (eh + fh + ((high << 1) | (p >>> 31)) + (((el & fl) | ((el | fl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; el = low;
  x = hl ^ el; y = hh ^ eh; hl = (x >>> 16) | (y << 16); hh = (y >>> 16) | (x << 16);
  p = Math.imul(gl, hl); x = gl & 0xffff; y = gl >>> 16; s = hl & 0xffff; t = hl >>> 16; u = Math.imul(x, t); v = Math.imul(y, s);
  high = (Math.imul(y, t) + (u >>> 16) + (v >>> 16) + (((Math.imul(x, s) >>> 16) + (u & 0xffff) + (v & 0xffff)) >>> 16)) | 0;
  s = (gl + hl) | 0; low = (s + (p << 1)) | 0;
  gh = (gh + hh + ((high << 1) | (p >>> 31)) + (((gl & hl) | ((gl | hl) & ~s)) >>> 31) + (((s & (p << 1)) | ((s | (p << 1)) & ~low)) >>> 31)) | 0; gl = low;
  x = fl ^ gl; y = fh ^ gh; fl = (x << 1) | (y >>> 31); fh = (y << 1) | (x >>> 31);
  q[a] = al; q[a + 1] = ah; q[b] = bl; q[b + 1] = bh; q[c] = cl; q[c + 1] = ch; q[d] = dl; q[d + 1] = dh;
  q[e] = el; q[e + 1] = eh; q[f] = fl; q[f + 1] = fh; q[g] = gl; q[g + 1] = gh; q[h] = hl; q[h + 1] = hh;
}

/**
 * P (§3.6) on the 16 64-bit words v0..v15 of q: v(2j) at base + j * stride,
 * v(2j + 1) two words after it (j = 0..7); GB on the columns of their 4x4
 * matrix, then on its diagonals. Stride 4 gives a row of the block seen as
 * an 8x8 matrix of 16-byte registers (Q from R), stride 32 a column (Z
 * from Q).
 */
function permute(q: Int32Array, base: number, stride: number): void {
  const v0 = base, v2 = v0 + stride, v4 = v2 + stride, v6 = v4 + stride, v8 = v6 + stride, v10 = v8 + stride, v12 = v10 + stride, v14 = v12 + stride;
  const v1 = v0 + 2, v3 = v2 + 2, v5 = v4 + 2, v7 = v6 + 2, v9 = v8 + 2, v11 = v10 + 2, v13 = v12 + 2, v15 = v14 + 2;
  gbPair(q, v0, v4, v8, v12, v1, v5, v9, v13);
  gbPair(q, v2, v6, v10, v14, v3, v7, v11, v15);
  gbPair(q, v0, v5, v10, v15, v1, v6, v11, v12);
  gbPair(q, v2, v7, v8, v13, v3, v4, v9, v14);
}

/**
 * out = G(X, Y) (§3.5), XORed into what out holds when `xor` (§3.2 step 6
 * from version 0x13: a later pass's block). x, y and out are word offsets
 * in `m`, out possibly x or y; q is the scratch block. R = X ^ Y goes to q
 * and to out in one pass, P runs on q's rows then its columns, and q is
 * XORed into out. No branch and no address depends on the words.
 */
export function compressBlock(m: Int32Array, x: number, y: number, out: number, xor: boolean, q: Int32Array): void {
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
