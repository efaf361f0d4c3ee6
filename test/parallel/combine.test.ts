/**
 * The arithmetic behind fourfold/parallel's Poly1305: the field operations
 * (poly1305/field.ts) against BigInt, each tier's polynomialInto against
 * the polynomial computed in BigInt, and PolynomialSum (combine.ts) over
 * every way of cutting short messages into pieces, and random cuts of long
 * ones, against the tag of the whole message (RFC 8439 §2.5.1 in BigInt,
 * and the synchronous poly1305). No workers: this is the math alone.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { poly1305 } from 'fourfold';
import { add, clampedR, jsPoly1305, multiply, newLimbs, PolynomialSum, setBytes, setRadix, simdPoly1305, tagInto, toBytes } from '../internal.js';
import { assertBytes, forEachTier, rand, randInt } from '../helpers.js';
import { bigintPoly1305 } from '../chacha/peers.js';

const P = (1n << 130n) - 5n;

const fromLe = (b: Uint8Array): bigint => {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!);
  return n;
};
const toLe = (n: bigint, length: number): Uint8Array => {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
};
const clamp = (key: Uint8Array): bigint => fromLe(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;

/** A 17-byte number below p: random, or one of the values next to 0, 2^128, 2^130 and p. */
function element(i: number): bigint {
  const edges = [0n, 1n, P - 1n, P - 2n, (1n << 128n) - 1n, 1n << 128n, (1n << 129n) + 12345n, P - (1n << 100n)];
  return i < edges.length ? edges[i]! : fromLe(rand(17)) % P;
}

/** The polynomial of `m`'s 16-byte blocks under r, from zero (a partial last block padded as Poly1305 pads). */
function bigPolynomial(m: Uint8Array, r: bigint): bigint {
  let h = 0n;
  for (let i = 0; i < m.length; i += 16) {
    const chunk = m.subarray(i, Math.min(i + 16, m.length));
    h = ((h + fromLe(chunk) + (1n << BigInt(8 * chunk.length))) * r) % P;
  }
  return h;
}

it('field.ts: multiply, add, setRadix, toBytes and tagInto agree with BigInt, near 0, 2^128, 2^130 and p', () => {
  for (let i = 0; i < 200; i++) {
    const a = element(i);
    const b = element((i * 7 + 3) % 200);
    const la = newLimbs();
    const lb = newLimbs();
    setBytes(la, toLe(a, 17));
    setBytes(lb, toLe(b, 17));
    const product = newLimbs();
    multiply(la, lb, product);
    const out = new Uint8Array(17);
    toBytes(product, out);
    assert.equal(fromLe(out), (a * b) % P, `${a} * ${b}`);
    add(la, lb, la);
    toBytes(la, out);
    assert.equal(fromLe(out), (a + b) % P, `${a} + ${b}`);
    // Five 26-bit limbs, each up to 2^32 - 1 (the simd kernel's unreduced h).
    const words = [0, 1, 2, 3, 4].map(() => (i < 8 ? [0, 0xffffffff, 0x3ffffff, 0x4000000][i % 4]! : Number(fromLe(rand(4)))));
    const radix = newLimbs();
    setRadix(radix, words, 26);
    toBytes(radix, out);
    assert.equal(fromLe(out), words.reduce((sum, w, j) => sum + (BigInt(w) << BigInt(26 * j)), 0n) % P, `limbs ${words}`);
    const s = rand(16);
    const tag = new Uint8Array(16);
    tagInto(
      product,
      [0, 4, 8, 12].map((j) => Number(fromLe(s.subarray(j, j + 4)))),
      tag,
    );
    assert.equal(fromLe(tag), (((a * b) % P) + fromLe(s)) & ((1n << 128n) - 1n), 'tag');
  }
  const key = rand(32);
  const r = clampedR(key);
  const out = new Uint8Array(17);
  toBytes(r, out);
  assert.equal(fromLe(out), clamp(key), 'clampedR');
});

forEachTier('polynomialInto and PolynomialSum', (tier) => {
  const engine = tier === 'js' ? jsPoly1305 : simdPoly1305;
  /** The polynomial of `m` through the tier's incremental state. */
  const polynomial = (key: Uint8Array, m: Uint8Array): Uint8Array => {
    const state = engine.create(key);
    state.update(m);
    const out = new Uint8Array(17);
    state.polynomialInto(out);
    return out;
  };

  it('polynomialInto is the polynomial without s, fully reduced, for lengths 0..300 and across slices', () => {
    const key = rand(32);
    const r = clamp(key);
    for (const n of [...Array.from({ length: 301 }, (_, i) => i), 32767, 32768, 32769, 65536 + 15]) {
      const m = rand(n);
      assert.equal(fromLe(polynomial(key, m)), bigPolynomial(m, r), `${n} bytes`);
    }
  });

  it('pieces combine into the tag of the whole message: every cut of 1..12 blocks into 1, 2 and 3 pieces', () => {
    for (const blocks of [1, 2, 3, 5, 12]) {
      for (const tail of [0, 1, 15]) {
        const key = rand(32);
        const m = rand(16 * blocks - (tail > 0 ? 16 - tail : 0));
        const expected = bigintPoly1305(m, key);
        // Cuts on block boundaries: c1 <= c2, in blocks.
        for (let c1 = 0; c1 <= blocks; c1++) {
          for (let c2 = c1; c2 <= blocks; c2++) {
            const sum = new PolynomialSum(key);
            for (const [from, to] of [
              [0, c1],
              [c1, c2],
              [c2, blocks],
            ] as const) {
              const piece = m.subarray(16 * from, Math.min(16 * to, m.length));
              // An empty piece adds nothing (h * r^0 + 0).
              sum.append(polynomial(key, piece), Math.ceil(piece.length / 16));
            }
            const tag = new Uint8Array(16);
            sum.tagInto(tag);
            assertBytes(tag, expected, `${m.length} bytes cut at blocks ${c1}, ${c2}`);
          }
        }
      }
    }
  });

  it('random cuts of messages up to 200 KiB into up to 40 pieces give poly1305()', () => {
    for (let round = 0; round < 12; round++) {
      const key = rand(32);
      const m = rand(randInt(200 * 1024) + 1);
      const blocks = Math.ceil(m.length / 16);
      const cuts = new Set<number>([0, blocks]);
      const count = randInt(40);
      for (let i = 0; i < count; i++) cuts.add(randInt(blocks + 1));
      const points = [...cuts].sort((a, b) => a - b);
      const sum = new PolynomialSum(key);
      for (let i = 0; i + 1 < points.length; i++) {
        const piece = m.subarray(16 * points[i]!, Math.min(16 * points[i + 1]!, m.length));
        sum.append(polynomial(key, piece), Math.ceil(piece.length / 16));
      }
      const tag = new Uint8Array(16);
      sum.tagInto(tag);
      assertBytes(tag, poly1305(m, key), `${m.length} bytes in ${points.length - 1} pieces`);
    }
  });
});
