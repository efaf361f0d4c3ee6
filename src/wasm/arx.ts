/**
 * Pieces shared by the ARX generators (add, rotate, XOR on 32-bit words):
 * the stream ciphers ChaCha and Salsa20 (wasm/stream.ts and their kernels),
 * scrypt's Salsa20/8, and BLAKE3, whose G function is ChaCha's quarter round with message words
 * added, on the same 4x4 state.
 */
import { type ByteRotation, type Expr, get, i32, i32x4, rotlLanes, set, v128 } from './wat.js';

/** The operations a quarter round needs, for 4-lane vectors or scalar words. */
export interface Arith {
  add(a: Expr, b: Expr): Expr;
  xor(a: Expr, b: Expr): Expr;
  rotl(a: Expr, bits: number): Expr;
}

export const scalarArith: Arith = { add: i32.add, xor: i32.xor, rotl: i32.rotl };

/** Four lanes at once; a rotation by a multiple of 8 bits is emitted as `rotation` says. */
export const vectorArith = (rotation: ByteRotation): Arith => ({
  add: i32x4.add,
  xor: v128.xor,
  rotl: (a, bits) => rotlLanes(a, bits, rotation),
});

/**
 * The state words of the four quarter rounds of a column round and of a
 * diagonal round, in the argument order (a, b, c, d): RFC 8439 §2.2 for
 * ChaCha, and the same words for the G calls of a BLAKE3 round (BLAKE3
 * specification §2.2).
 */
export const COLUMNS = [
  [0, 4, 8, 12],
  [1, 5, 9, 13],
  [2, 6, 10, 14],
  [3, 7, 11, 15],
];
export const DIAGONALS = [
  [0, 5, 10, 15],
  [1, 6, 11, 12],
  [2, 7, 8, 13],
  [3, 4, 9, 14],
];

/**
 * Salsa20's quarterround(y0, y1, y2, y3) (Salsa20 specification §3) on
 * locals a, b, c, d: b ^= (a + d) <<< 7, c ^= (b + a) <<< 9,
 * d ^= (c + b) <<< 13, a ^= (d + c) <<< 18. Salsa20's kernel and scrypt's
 * Salsa20/8 (RFC 7914 §3) use it.
 */
export function salsaQuarterRound(m: Arith, x: string[], [a, b, c, d]: number[]): Expr[] {
  const step = (target: number, p: number, q: number, bits: number) => set(x[target], m.xor(get(x[target]), m.rotl(m.add(get(x[p]), get(x[q])), bits)));
  return [step(b, a, d, 7), step(c, b, a, 9), step(d, c, b, 13), step(a, d, c, 18)];
}

/** Salsa20's §5 columnround and §4 rowround: the words of their four quarter rounds, in quarterround's argument order. */
export const SALSA_COLUMNS = [
  [0, 4, 8, 12],
  [5, 9, 13, 1],
  [10, 14, 2, 6],
  [15, 3, 7, 11],
];
export const SALSA_ROWS = [
  [0, 1, 2, 3],
  [5, 6, 7, 4],
  [10, 11, 8, 9],
  [15, 12, 13, 14],
];

/**
 * A 64-bit block counter in two 32-bit words for four lanes: into `low`
 * the low word `start` (a vector of the start's low word in every lane)
 * plus first..first+3, and into `high` the high word `startHigh`, carried
 * into in a lane where the low word wrapped.
 */
export function counterLanes(low: string, high: string, start: Expr, startHigh: Expr, first = 0): Expr[] {
  return [
    set(low, i32x4.add(start, v128.const32(first, first + 1, first + 2, first + 3))),
    // A lane whose low word wrapped is below the splatted start: lt_u gives -1 there.
    set(high, i32x4.sub(startHigh, i32x4.ltU(get(low), start))),
  ];
}
