/**
 * The pure-JavaScript Poly1305 tier (RFC 8439 §2.5).
 *
 * Representation. JavaScript has no 64-bit integer multiply outside BigInt,
 * but doubles multiply and add integers exactly up to 2^53. The accumulator
 * h and the key r are therefore kept in six 22-bit limbs (bits 0, 22, ...,
 * 110) held in doubles. A limb product is below 2^23 * 2^22, and one column
 * of the product sums six of them, some scaled by 20 (2^132 = 4 * 2^130,
 * which is 4 * 5 = 20 mod 2^130 - 5), so every column stays below 2^52 and
 * is exact. (Five 26-bit limbs, as in 32-bit C code, would need 2^57.)
 * Carries use Math.floor on exact powers-of-two multiples, which compiles
 * to a branch-free rounding instruction.
 *
 * The final reduction and the addition of s (field.ts) run on 32-bit
 * integers with masks, so nothing branches on or indexes by secret data.
 */
import type { Poly1305Engine, Poly1305State } from './engine.js';
import { newLimbs, tagInto, toBytes } from './field.js';
import { readLE32 } from '../runtime/bytes.js';

const MASK22 = 0x3fffff;
const TWO22 = 4194304; // 2^22
const INV22 = 1 / TWO22; // exact: a power of two
/** The 2^128 bit appended to every full 16-byte block (§2.5.1), as it sits in limb 5 (bit 110). */
const HIBIT = 1 << 18;

class JsPoly1305 implements Poly1305State {
  /** h, the accumulator, in 22-bit limbs (field.ts; each below 2^23 between blocks). */
  private readonly h = newLimbs();
  /** r in 22-bit limbs, then 20 * r[1..5] for the wrapped-around columns. */
  private readonly r = new Float64Array(11);
  /** s, added at the end, as four little-endian words. */
  private readonly s = new Uint32Array(4);
  /** A partial block carried between update calls. */
  private readonly buffer = new Uint8Array(16);
  private buffered = 0;
  private finished = true;

  /**
   * Starts a MAC under `key` (32 bytes): r clamped (§2.5: the top 4 bits of
   * bytes 3, 7, 11, 15 and the low 2 of bytes 4, 8, 12 cleared) and split
   * into limbs as a block is (blocks), and s; h is zero (a new state, or
   * one destroyed).
   */
  rekey(key: Uint8Array): this {
    const w0 = readLE32(key, 0) & 0x0fffffff, w1 = readLE32(key, 4) & 0x0ffffffc;
    const w2 = readLE32(key, 8) & 0x0ffffffc, w3 = readLE32(key, 12) & 0x0ffffffc;
    const r = this.r;
    r[0] = w0 & MASK22;
    r[1] = ((w0 >>> 22) | (w1 << 10)) & MASK22;
    r[2] = ((w1 >>> 12) | (w2 << 20)) & MASK22;
    r[3] = (w2 >>> 2) & MASK22;
    r[4] = ((w2 >>> 24) | (w3 << 8)) & MASK22;
    r[5] = w3 >>> 14;
    for (let i = 1; i < 6; i++) r[5 + i] = 20 * r[i];
    for (let i = 0; i < 4; i++) this.s[i] = readLE32(key, 16 + 4 * i);
    this.finished = false;
    return this;
  }

  /**
   * For each 16-byte block at m[pos..end): h = (h + block + hibit) * r mod
   * 2^130 - 5, lazily reduced (limbs below 2^23, h below 2^132).
   */
  private blocks(m: Uint8Array, pos: number, end: number, hibit: number): void {
    const h = this.h, r = this.r;
    let h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5];
    const r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5];
    const v1 = r[6], v2 = r[7], v3 = r[8], v4 = r[9], v5 = r[10]; // 20 * r[i]
    for (; pos < end; pos += 16) {
      const t0 = readLE32(m, pos), t1 = readLE32(m, pos + 4);
      const t2 = readLE32(m, pos + 8), t3 = readLE32(m, pos + 12);
      h0 += t0 & MASK22;
      h1 += ((t0 >>> 22) | (t1 << 10)) & MASK22;
      h2 += ((t1 >>> 12) | (t2 << 20)) & MASK22;
      h3 += (t2 >>> 2) & MASK22;
      h4 += ((t2 >>> 24) | (t3 << 8)) & MASK22;
      h5 += (t3 >>> 14) | hibit;

      // Schoolbook product; column k collects h[i] * r[k - i], wrapping with 20 * r past limb 5.
      let d0 = h0 * r0 + h1 * v5 + h2 * v4 + h3 * v3 + h4 * v2 + h5 * v1;
      let d1 = h0 * r1 + h1 * r0 + h2 * v5 + h3 * v4 + h4 * v3 + h5 * v2;
      let d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * v5 + h4 * v4 + h5 * v3;
      let d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * v5 + h5 * v4;
      let d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0 + h5 * v5;
      let d5 = h0 * r5 + h1 * r4 + h2 * r3 + h3 * r2 + h4 * r1 + h5 * r0;

      // Carry each column into the next; the carry out of limb 5 (bit 132) re-enters limb 0 times 20.
      let c = Math.floor(d0 * INV22); d0 -= c * TWO22; d1 += c;
      c = Math.floor(d1 * INV22); d1 -= c * TWO22; d2 += c;
      c = Math.floor(d2 * INV22); d2 -= c * TWO22; d3 += c;
      c = Math.floor(d3 * INV22); d3 -= c * TWO22; d4 += c;
      c = Math.floor(d4 * INV22); d4 -= c * TWO22; d5 += c;
      c = Math.floor(d5 * INV22); d5 -= c * TWO22; d0 += 20 * c;
      c = Math.floor(d0 * INV22); d0 -= c * TWO22; d1 += c;
      h0 = d0; h1 = d1; h2 = d2; h3 = d3; h4 = d4; h5 = d5;
    }
    h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4; h[5] = h5;
  }

  update(data: Uint8Array): void {
    this.check();
    const len = data.length;
    const buffer = this.buffer;
    let pos = 0;
    if (this.buffered > 0) {
      while (this.buffered < 16 && pos < len) buffer[this.buffered++] = data[pos++];
      if (this.buffered < 16) return;
      this.blocks(buffer, 0, 16, HIBIT);
      this.buffered = 0;
    }
    const end = pos + ((len - pos) & ~15);
    if (end > pos) this.blocks(data, pos, end, HIBIT);
    for (pos = end; pos < len; pos++) buffer[this.buffered++] = data[pos];
  }

  /** Absorbs a buffered partial block: a 0x01 byte and zero padding instead of the 2^128 bit (§2.5.1). */
  private finalBlock(): void {
    if (this.buffered === 0) return;
    const buffer = this.buffer;
    buffer[this.buffered] = 1;
    buffer.fill(0, this.buffered + 1);
    this.blocks(buffer, 0, 16, 0);
  }

  digestInto(out: Uint8Array): void {
    this.check();
    this.finalBlock();
    tagInto(this.h, this.s, out);
    this.destroy();
  }

  polynomialInto(out: Uint8Array): void {
    this.check();
    this.finalBlock();
    toBytes(this.h, out);
    this.destroy();
  }

  destroy(): void {
    this.h.fill(0);
    this.r.fill(0);
    this.s.fill(0);
    this.buffer.fill(0);
    this.buffered = 0;
    this.finished = true;
  }

  private check(): void {
    if (this.finished) throw new Error('poly1305: state already finalized');
  }
}

/**
 * The one-shot MAC's state, made once per thread: each call keys it, runs
 * to its end (calling no code of the caller's) and wipes it, so no call
 * allocates its arrays (most of a 64-byte MAC's time).
 */
let oneShot: JsPoly1305 | undefined;

export const jsPoly1305: Poly1305Engine = {
  create: (key: Uint8Array): Poly1305State => new JsPoly1305().rekey(key),
  mac(message: Uint8Array, key: Uint8Array): Uint8Array {
    const state = (oneShot ??= new JsPoly1305());
    try {
      state.rekey(key).update(message);
      const tag = new Uint8Array(16);
      state.digestInto(tag);
      return tag;
    } catch (error) {
      state.destroy();
      throw error;
    }
  },
};
