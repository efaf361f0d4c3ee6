/**
 * The js tier's compression G (RFC 9106 §3.5, src/argon2/js-compress.ts)
 * against G written from the RFC in BigInt, block by block: random blocks,
 * and blocks of the words at the edges of fBlaMka's arithmetic (halves of
 * 0, 1, 2^31 - 1, 2^31, 2^32 - 2, 2^32 - 1: the largest products, sums
 * whose low half wraps to 0 or 2^32 - 1, each side of the sign bit of the
 * 32-bit integers the js tier computes on), into a new block and XORed
 * into an old one, with the output at another block, at X or at Y (as the
 * addresses of §3.4.1.2 are made). The blocks around are left as they
 * were.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rand, randInt } from '../helpers.js';
import { argon2JsCompress } from '../internal.js';

const WORDS = 256;
const MASK64 = (1n << 64n) - 1n;
const low32 = (v: bigint) => v & 0xffffffffn;
const rotr = (v: bigint, n: bigint) => ((v >> n) | (v << (64n - n))) & MASK64;
const blamka = (a: bigint, b: bigint) => (a + b + 2n * low32(a) * low32(b)) & MASK64;

/** GB (§3.6) on the words a, b, c, d of v. */
function gb(v: bigint[], a: number, b: number, c: number, d: number): void {
  v[a] = blamka(v[a]!, v[b]!);
  v[d] = rotr(v[d]! ^ v[a]!, 32n);
  v[c] = blamka(v[c]!, v[d]!);
  v[b] = rotr(v[b]! ^ v[c]!, 24n);
  v[a] = blamka(v[a]!, v[b]!);
  v[d] = rotr(v[d]! ^ v[a]!, 16n);
  v[c] = blamka(v[c]!, v[d]!);
  v[b] = rotr(v[b]! ^ v[c]!, 63n);
}

/** GB's a, b, c, d in P, as places among its 16 words: the columns of their 4x4 matrix, then its diagonals. */
const GB_WORDS = [
  [0, 4, 8, 12],
  [1, 5, 9, 13],
  [2, 6, 10, 14],
  [3, 7, 11, 15],
  [0, 5, 10, 15],
  [1, 6, 11, 12],
  [2, 7, 8, 13],
  [3, 4, 9, 14],
] as const;

/** P (§3.6) on the 16 words of v at `at`. */
function permute(v: bigint[], at: readonly number[]): void {
  for (const [a, b, c, d] of GB_WORDS) gb(v, at[a]!, at[b]!, at[c]!, at[d]!);
}

/** The words of row i (Q from R) and of column i (Z from Q) of a block seen as an 8x8 matrix of 16-byte registers. */
const row = (i: number) => Array.from({ length: 16 }, (_, k) => 16 * i + k);
const column = (i: number) => Array.from({ length: 16 }, (_, k) => 2 * i + 16 * (k >> 1) + (k & 1));

const words64 = (block: Uint32Array): bigint[] => Array.from({ length: 128 }, (_, i) => BigInt(block[2 * i]!) | (BigInt(block[2 * i + 1]!) << 32n));

/** G(X, Y) (§3.5): R = X ^ Y, P on each row of R, then on each column, XORed with R. */
function referenceG(x: Uint32Array, y: Uint32Array): Uint32Array {
  const yWords = words64(y);
  const r = words64(x).map((w, i) => w ^ yWords[i]!);
  const z = [...r];
  for (let i = 0; i < 8; i++) permute(z, row(i));
  for (let i = 0; i < 8; i++) permute(z, column(i));
  const out = new Uint32Array(WORDS);
  z.forEach((w, i) => {
    const g = w ^ r[i]!;
    out[2 * i] = Number(low32(g));
    out[2 * i + 1] = Number(g >> 32n);
  });
  return out;
}

const randomBlock = () => new Uint32Array(rand(4 * WORDS).buffer);
const EDGES = [0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
const edgeBlock = () => Uint32Array.from({ length: WORDS }, () => EDGES[randInt(EDGES.length)]!);

/** Where the output goes in the test's memory of five random blocks (X at block 1, Y at block 2): block 3, X or Y. */
type Place = 'apart' | 'at X' | 'at Y';
const OUT: Record<Place, number> = { apart: 3 * WORDS, 'at X': WORDS, 'at Y': 2 * WORDS };

/** The js tier's G(X, Y), XORed into what the output block held when `xor`, checked against the reference; the other blocks unchanged. */
function check(x: Uint32Array, y: Uint32Array, xor: boolean, place: Place, label: string): void {
  const m = new Uint32Array(rand(4 * 5 * WORDS).buffer);
  m.set(x, WORDS);
  m.set(y, 2 * WORDS);
  const before = m.slice();
  const out = OUT[place];
  argon2JsCompress(new Int32Array(m.buffer), WORDS, 2 * WORDS, out, xor, new Int32Array(WORDS));
  const g = referenceG(x, y);
  const expected = xor ? g.map((w, i) => w ^ before[out + i]!) : g;
  assert.deepEqual(m.subarray(out, out + WORDS), expected, label);
  for (let i = 0; i < m.length; i++) if ((i < out || i >= out + WORDS) && m[i] !== before[i]) assert.fail(`${label}: word ${i}, outside the output, changed`);
}

describe("the js tier's compression G against the RFC's, in BigInt", () => {
  it('random blocks: a new block, and XORed into an old one', () => {
    for (let n = 0; n < 40; n++) {
      check(randomBlock(), randomBlock(), false, 'apart', `random ${n}, new`);
      check(randomBlock(), randomBlock(), true, 'apart', `random ${n}, XORed`);
    }
  });

  it("blocks of fBlaMka's edge words, and all ones against zero", () => {
    check(new Uint32Array(WORDS).fill(0xffffffff), new Uint32Array(WORDS), false, 'apart', 'all ones');
    check(new Uint32Array(WORDS).fill(0xffffffff), new Uint32Array(WORDS).fill(0x80000000), false, 'apart', 'all ones against 2^31');
    for (let n = 0; n < 40; n++) check(edgeBlock(), new Uint32Array(WORDS), n % 2 === 1, 'apart', `edges ${n}`);
  });

  it('the output at X or at Y, new and XORed (the addresses of §3.4.1.2 write G at Y)', () => {
    for (const place of ['at X', 'at Y'] as const)
      for (const xor of [false, true]) check(randomBlock(), randomBlock(), xor, place, `${place}, ${xor ? 'XORed' : 'new'}`);
  });
});
