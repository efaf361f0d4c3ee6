/**
 * Numbers modulo p = 2^130 - 5 in six 22-bit limbs held in doubles (bits
 * 0, 22, ..., 110; js.ts says why doubles and why 22 bits): the js tier's
 * representation, its final reduction, and the arithmetic that combines
 * Poly1305 polynomials computed apart (fourfold/parallel: combine.ts).
 *
 * Between operations every limb is below 2^23, so a limb product is below
 * 2^45 and a column of six products, some times 20, stays below 2^52.
 * Nothing branches on or indexes by the values.
 */
import { readLE32 } from '../runtime/bytes.js';

export type Limbs = Float64Array;

const MASK22 = 0x3fffff;
const TWO22 = 4194304; // 2^22
const INV22 = 1 / TWO22; // exact: a power of two
const INV32 = 1 / 4294967296; // 2^-32, exact: a power of two

export const newLimbs = (): Limbs => new Float64Array(6);

/** Sets `out` to the 16-byte little-endian number at b[at..], plus 2^128 times `hibit` (0 or 1). */
export function setBlock(out: Limbs, b: Uint8Array, at: number, hibit: number): void {
  const t0 = readLE32(b, at), t1 = readLE32(b, at + 4);
  const t2 = readLE32(b, at + 8), t3 = readLE32(b, at + 12);
  out[0] = t0 & MASK22;
  out[1] = ((t0 >>> 22) | (t1 << 10)) & MASK22;
  out[2] = ((t1 >>> 12) | (t2 << 20)) & MASK22;
  out[3] = (t2 >>> 2) & MASK22;
  out[4] = ((t2 >>> 24) | (t3 << 8)) & MASK22;
  out[5] = (t3 >>> 14) + hibit * (1 << 18);
}

/** r of a Poly1305 key (RFC 8439 §2.5): its first 16 bytes clamped (the top 4 bits of bytes 3, 7, 11, 15 and the low 2 of bytes 4, 8, 12 cleared). */
export function clampedR(key: Uint8Array): Limbs {
  const clamp = new Uint8Array(16);
  clamp.set(key.subarray(0, 16));
  clamp[3] &= 15; clamp[7] &= 15; clamp[11] &= 15; clamp[15] &= 15;
  clamp[4] &= 252; clamp[8] &= 252; clamp[12] &= 252;
  const r = newLimbs();
  setBlock(r, clamp, 0, 0);
  clamp.fill(0);
  return r;
}

/**
 * Carries each limb into the next, the carry out of limb 5 (bit 132)
 * re-entering limb 0 times 20 (2^132 = 4 * 2^130 = 20 mod p), then limb 0
 * once more: every limb ends below 2^23.
 */
function carry(d: Limbs): void {
  let c = Math.floor(d[0] * INV22); d[0] -= c * TWO22; d[1] += c;
  c = Math.floor(d[1] * INV22); d[1] -= c * TWO22; d[2] += c;
  c = Math.floor(d[2] * INV22); d[2] -= c * TWO22; d[3] += c;
  c = Math.floor(d[3] * INV22); d[3] -= c * TWO22; d[4] += c;
  c = Math.floor(d[4] * INV22); d[4] -= c * TWO22; d[5] += c;
  c = Math.floor(d[5] * INV22); d[5] -= c * TWO22; d[0] += 20 * c;
  c = Math.floor(d[0] * INV22); d[0] -= c * TWO22; d[1] += c;
}

/** out = a * b mod p (not fully reduced); `out` may be `a` or `b`. */
export function multiply(a: Limbs, b: Limbs, out: Limbs): void {
  const a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
  const b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4], b5 = b[5];
  const v1 = 20 * b1, v2 = 20 * b2, v3 = 20 * b3, v4 = 20 * b4, v5 = 20 * b5;
  // Column k collects a[i] * b[k - i], wrapping with 20 * b past limb 5.
  out[0] = a0 * b0 + a1 * v5 + a2 * v4 + a3 * v3 + a4 * v2 + a5 * v1;
  out[1] = a0 * b1 + a1 * b0 + a2 * v5 + a3 * v4 + a4 * v3 + a5 * v2;
  out[2] = a0 * b2 + a1 * b1 + a2 * b0 + a3 * v5 + a4 * v4 + a5 * v3;
  out[3] = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + a4 * v5 + a5 * v4;
  out[4] = a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0 + a5 * v5;
  out[5] = a0 * b5 + a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1 + a5 * b0;
  carry(out);
}

/** out = a + b mod p (not fully reduced); `out` may be `a` or `b`. */
export function add(a: Limbs, b: Limbs, out: Limbs): void {
  for (let i = 0; i < 6; i++) out[i] = a[i] + b[i];
  carry(out);
}

/**
 * Sets `out` to the number whose limbs of `bits` bits are `words`, least
 * significant first (the simd kernel's five 26-bit limbs, each below 2^32),
 * mod p.
 */
export function setRadix(out: Limbs, words: ArrayLike<number>, bits: number): void {
  out.fill(0);
  for (let i = 0; i < words.length; i++) {
    const at = i * bits;
    const limb = Math.floor(at / 22);
    // Below 2^32 * 2^21: exact, and the carries below bring every limb under 2^23.
    out[limb] += words[i] * 2 ** (at - 22 * limb);
  }
  carry(out);
  carry(out);
}

/** The canonical value of h (below p) as six 22-bit limbs in 32-bit integers (the last one 20 bits). */
function freeze(h: Limbs): Int32Array {
  let h0 = h[0] | 0, h1 = h[1] | 0, h2 = h[2] | 0, h3 = h[3] | 0, h4 = h[4] | 0, h5 = h[5] | 0;

  // Carry fully, folding the bits from 2^130 up back in times 5, then carry once more
  // (at most one unit ripples up), so h < 2^130 + 2^22 < 2p and one subtraction of p suffices.
  let c = h0 >>> 22; h0 &= MASK22; h1 += c;
  c = h1 >>> 22; h1 &= MASK22; h2 += c;
  c = h2 >>> 22; h2 &= MASK22; h3 += c;
  c = h3 >>> 22; h3 &= MASK22; h4 += c;
  c = h4 >>> 22; h4 &= MASK22; h5 += c;
  c = h5 >>> 20; h5 &= 0xfffff; h0 += 5 * c;
  c = h0 >>> 22; h0 &= MASK22; h1 += c;
  c = h1 >>> 22; h1 &= MASK22; h2 += c;
  c = h2 >>> 22; h2 &= MASK22; h3 += c;
  c = h3 >>> 22; h3 &= MASK22; h4 += c;
  c = h4 >>> 22; h4 &= MASK22; h5 += c;

  // g = h + 5 - 2^130 = h - p; keep g when it is non-negative, selected by a mask.
  let g0 = h0 + 5; c = g0 >>> 22; g0 &= MASK22;
  let g1 = h1 + c; c = g1 >>> 22; g1 &= MASK22;
  let g2 = h2 + c; c = g2 >>> 22; g2 &= MASK22;
  let g3 = h3 + c; c = g3 >>> 22; g3 &= MASK22;
  let g4 = h4 + c; c = g4 >>> 22; g4 &= MASK22;
  const g5 = h5 + c - (1 << 20);
  const keepH = g5 >> 31; // all ones when h < p
  const keepG = ~keepH;
  return Int32Array.of(
    (h0 & keepH) | (g0 & keepG),
    (h1 & keepH) | (g1 & keepG),
    (h2 & keepH) | (g2 & keepG),
    (h3 & keepH) | (g3 & keepG),
    (h4 & keepH) | (g4 & keepG),
    (h5 & keepH) | (g5 & keepG),
  );
}

/** The four low 32-bit words of canonical limbs f, and bits 128 and 129. */
function wordsOf(f: Int32Array): number[] {
  return [
    (f[0] | (f[1] << 22)) >>> 0,
    ((f[1] >>> 10) | (f[2] << 12)) >>> 0,
    ((f[2] >>> 20) | (f[3] << 2) | (f[4] << 24)) >>> 0,
    ((f[4] >>> 8) | (f[5] << 14)) >>> 0,
    f[5] >>> 18,
  ];
}

/** Writes `w` little-endian at out[at..at+4]. */
function put32(out: Uint8Array, at: number, w: number): void {
  out[at] = w;
  out[at + 1] = w >>> 8;
  out[at + 2] = w >>> 16;
  out[at + 3] = w >>> 24;
}

/**
 * The tag (RFC 8439 §2.5.1): (h mod p + s) mod 2^128, with s the four
 * little-endian words `s`, into out[0..16]. Wipes its intermediates.
 */
export function tagInto(h: Limbs, s: ArrayLike<number>, out: Uint8Array): void {
  const f = freeze(h);
  const w = wordsOf(f);
  // 32 bits at a time, the carry (0 or 1) taken by a multiplication: exact for a power of two, and no divider.
  let sum = 0;
  for (let i = 0; i < 4; i++) {
    sum = w[i] + s[i] + ((sum * INV32) | 0);
    put32(out, 4 * i, sum);
  }
  f.fill(0);
  w.fill(0);
}

/** Bytes of toBytes's form of a number mod p. */
export const POLYNOMIAL_BYTES = 17;

/** h mod p, canonical, as 17 little-endian bytes (the form a piece's polynomial travels in). */
export function toBytes(h: Limbs, out: Uint8Array): void {
  const f = freeze(h);
  const w = wordsOf(f);
  for (let i = 0; i < 4; i++) put32(out, 4 * i, w[i]);
  out[16] = w[4];
  f.fill(0);
  w.fill(0);
}

/** Sets `out` to the 17-byte number toBytes wrote. */
export function setBytes(out: Limbs, b: Uint8Array): void {
  setBlock(out, b, 0, b[16]);
}
