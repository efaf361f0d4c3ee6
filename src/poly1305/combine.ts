/**
 * Poly1305 of one message whose pieces were hashed apart (fourfold/parallel).
 *
 * The tag is (h + s) mod 2^128 with h = m_1 * r^n + m_2 * r^(n-1) + ... +
 * m_n * r mod p over the message's n blocks (RFC 8439 §2.5). Cut the blocks
 * into consecutive pieces: piece j of b_j blocks gives its own polynomial
 * H_j, by Horner from zero over its blocks alone
 * (Poly1305State.polynomialInto), and then
 *
 *   h = (...((H_1 * r^b_2 + H_2) * r^b_3 + H_3)...) * r^b_k + H_k,
 *
 * since each block's power of r only grows by the blocks after it. r^b is
 * computed by square-and-multiply; b is a length, not a secret.
 */
import { add, clampedR, multiply, newLimbs, setBytes, tagInto, type Limbs } from './field.js';
import { readLE32 } from '../runtime/bytes.js';

export class PolynomialSum {
  private readonly h = newLimbs();
  private readonly r: Limbs;
  private readonly s = new Uint32Array(4);
  private readonly t = newLimbs();
  /** r^b for the piece lengths seen (most pieces have the same length). */
  private readonly powers = new Map<number, Limbs>();

  /** For the 32-byte one-time key r || s. */
  constructor(key: Uint8Array) {
    this.r = clampedR(key);
    for (let i = 0; i < 4; i++) this.s[i] = readLE32(key, 16 + 4 * i);
  }

  /** Appends a piece of `blocks` 16-byte blocks whose polynomial is `piece` (17 bytes, as polynomialInto writes it). */
  append(piece: Uint8Array, blocks: number): void {
    multiply(this.h, this.power(blocks), this.h);
    setBytes(this.t, piece);
    add(this.h, this.t, this.h);
  }

  /** The tag of all the pieces appended, into out[0..16]; wipes the state. */
  tagInto(out: Uint8Array): void {
    tagInto(this.h, this.s, out);
    this.wipe();
  }

  wipe(): void {
    this.h.fill(0);
    this.r.fill(0);
    this.s.fill(0);
    this.t.fill(0);
    for (const p of this.powers.values()) p.fill(0);
    this.powers.clear();
  }

  private power(b: number): Limbs {
    let result = this.powers.get(b);
    if (result !== undefined) return result;
    result = newLimbs();
    result[0] = 1;
    const square = Float64Array.from(this.r);
    for (let e = b; e > 0; e = Math.floor(e / 2)) {
      if (e % 2 === 1) multiply(result, square, result);
      multiply(square, square, square);
    }
    square.fill(0);
    this.powers.set(b, result);
    return result;
  }
}
