/**
 * Poly1305 (RFC 8439 §2.5) kernel generator: functions to be included in a
 * module whose memory holds a Poly1305 state at `base` (layout.ts).
 *
 * Numbers mod p = 2^130 - 5 are kept in five 26-bit limbs so that limb
 * products fit 64 bits with room for sums: 2^26 * (5 * 2^26) * 10 < 2^64.
 * Reduction uses 2^130 = 5 (mod p): a product term at limb i + j >= 5 is
 * folded into limb i + j - 5 with a factor 5, pre-multiplied into r.
 *
 * Short messages use the scalar loop: h = (h + m) * r per 16-byte block.
 * Long ones use a 2-lane vector loop over 64 bytes (blocks m0..m3) at a time:
 *   A' = A * r^4 + m0 * r^2 + m2,   B' = B * r^4 + m1 * r^2 + m3,
 * and at the end h = A * r^2 + B * r. Expanding the recurrences gives exactly
 * sum(m_i * r^(n - i)), the scalar Horner result; the scalar h from before
 * the loop is added into the first m0. All products of one iteration are
 * summed before a single carry pass, and i64x2.extmul_*_i32x4_u gives two
 * 64-bit products per instruction.
 *
 * The loop tests at its end (doWhile): V8 hoists the loop-invariant powers
 * of r only out of a loop whose body always runs. Other loop shapes, limb
 * sizes and f64x2 or i32x4.dot_i16x8_s products were measured and not kept:
 * docs/contributing/performance-history.md#poly1305.
 */
import { H, HIBIT, KEY, PAD, POWERS, R, SCRATCH, TAG } from './layout.js';
import {
  type Expr,
  call,
  declare,
  doWhile,
  func,
  get,
  i32,
  i32x4,
  i64,
  i64x2,
  ifElse,
  ifThen,
  memoryCopy,
  regs,
  set,
  transpose4,
  v128,
  whileLoop,
} from '../wasm/wat.js';

const MASK26 = 0x3ffffff;
/** From this many bytes on, poly_blocks uses the vector loop (its setup costs two multiplications). */
export const VECTOR_THRESHOLD = 256;
// The vector loop runs its first iteration before the loop and the loop at least once.
if (VECTOR_THRESHOLD < 128) throw new Error('VECTOR_THRESHOLD: the vector loop needs at least 128 bytes');

const limbs = (prefix: string) => regs(prefix, 5);

/**
 * out = a * b mod p (not fully reduced), on limbs in i64 locals, through the
 * 64-bit `sums`. `b5` holds 5 * b. After the carry pass every limb is below
 * 2^26 but limb 1, which may exceed it by a little: enough for the next product.
 */
function mulmod(out: string[], a: string[], b: string[], b5: string[], sums: string[]): Expr[] {
  return [
    ...sums.map((n, k) =>
      set(
        n,
        productTerms(a.map(get), i64.mul, b.map(get), b5.map(get), k).reduce((x, y) => i64.add(x, y)),
      ),
    ),
    ...carry(out, sums),
  ];
}

/**
 * The five products whose limb indices sum to k (mod 5): a_i * b_j with
 * j = k - i, or with j = k - i + 5 and the factor 5 from 2^130 = 5 (mod p),
 * which `b5` holds pre-multiplied.
 */
function productTerms(a: Expr[], mul: (x: Expr, y: Expr) => Expr, b: Expr[], b5: Expr[], k: number): Expr[] {
  return [0, 1, 2, 3, 4].map((i) => (i <= k ? mul(a[i], b[k - i]) : mul(a[i], b5[k - i + 5])));
}

/** Carry pass over the five 64-bit limb `sums` into 26-bit limbs `out` (i64 locals). */
function carry(out: string[], sums: string[]): Expr[] {
  const code: Expr[] = [];
  for (let k = 0; k < 4; k++) {
    code.push(set(sums[k + 1], i64.add(get(sums[k + 1]), i64.shr(get(sums[k]), 26))));
    code.push(set(out[k], i64.and(get(sums[k]), i64.const(MASK26))));
  }
  // The carry out of limb 4 is worth 2^130 = 5 (mod p).
  code.push(set(out[4], i64.and(get(sums[4]), i64.const(MASK26))));
  code.push(set(sums[0], i64.add(get(out[0]), i64.mul(i64.shr(get(sums[4]), 26), i64.const(5)))));
  code.push(set(out[0], i64.and(get(sums[0]), i64.const(MASK26))));
  code.push(set(out[1], i64.add(get(out[1]), i64.shr(get(sums[0]), 26))));
  return code;
}

/** The five 26-bit limbs of the 16-byte little-endian number whose 32-bit `words` are given. */
function splitBlock(
  words: Expr[],
  and: (x: Expr) => Expr,
  shr: (x: Expr, n: number) => Expr,
  shl: (x: Expr, n: number) => Expr,
  or: (a: Expr, b: Expr) => Expr,
): Expr[] {
  return [
    and(words[0]),
    and(or(shr(words[0], 26), shl(words[1], 6))),
    and(or(shr(words[1], 20), shl(words[2], 12))),
    and(or(shr(words[2], 14), shl(words[3], 18))),
    shr(words[3], 8),
  ];
}

/** t0 + t1 + ... as a running sum, each add taking the sum so far as its first operand. */
const sumFirst = (terms: Expr[]): Expr => terms.reduce((x, y) => i64x2.add(x, y));

/** The fields of a Poly1305 state at `base` in a module's memory (layout.ts). */
interface State {
  /** The address of word `limb` of `field`. */
  at(field: number, limb?: number): Expr;
}

const stateAt = (base: number): State => ({ at: (field, limb = 0) => i32.const(base + field + 4 * limb) });

// Scalar registers: the accumulator h, r, 5 * r, and the 64-bit limb sums.
const h = limbs('h'),
  r = limbs('r'),
  r5 = limbs('s'),
  d = limbs('d');
const scalarLocals = { ...declare([...h, ...r, ...r5, ...d], 'i64') };

const loadLimbs = (s: State, names: string[], field: number) => names.map((n, i) => set(n, i64.extend(i32.load(s.at(field, i)))));
const storeLimbs = (s: State, names: string[], field: number) => names.map((n, i) => i32.store(s.at(field, i), i32.wrap(get(n))));
const times5 = (dst: string[], src: string[]) => dst.map((n, i) => set(n, i64.mul(get(src[i]), i64.const(5))));

/** The 32-bit words w0..w3 of a 16-byte block, split into 26-bit limbs. */
const scalarLimbs = (words: Expr[]): Expr[] => splitBlock(words, (x) => i32.and(x, i32.const(MASK26)), i32.shr, i32.shl, i32.or);

/** poly_init(): r = clamp(key[0..16]) (RFC 8439 §2.5), s = key[16..32], h = 0. */
function init(s: State): string {
  return func({
    name: 'poly_init',
    exported: true,
    locals: declare(['w0', 'w1', 'w2', 'w3'], 'i32'),
    body: [
      set('w0', i32.and(i32.load(s.at(KEY, 0)), i32.const(0x0fffffff))),
      set('w1', i32.and(i32.load(s.at(KEY, 1)), i32.const(0x0ffffffc))),
      set('w2', i32.and(i32.load(s.at(KEY, 2)), i32.const(0x0ffffffc))),
      set('w3', i32.and(i32.load(s.at(KEY, 3)), i32.const(0x0ffffffc))),
      ...scalarLimbs(['w0', 'w1', 'w2', 'w3'].map(get)).map((limb, i) => i32.store(s.at(R, i), limb)),
      ...[0, 1, 2, 3].map((i) => i32.store(s.at(PAD, i), i32.load(s.at(KEY, 4 + i)))),
      ...[0, 1, 2, 3, 4].map((i) => i32.store(s.at(H, i), i32.const(0))),
    ],
  });
}

/** poly_blocks_scalar(ptr, len, hibit): h = (h + m) * r for each 16-byte block, `hibit` = 2^128 or 0. */
function scalarBlocks(s: State): string {
  return func({
    name: 'poly_blocks_scalar',
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['hibit', 'i32'],
    ],
    locals: { ...scalarLocals, ...declare(['w0', 'w1', 'w2', 'w3'], 'i32') },
    body: [
      ...loadLimbs(s, h, H),
      ...loadLimbs(s, r, R),
      ...times5(r5, r),
      whileLoop('block', i32.geU(get('len'), i32.const(16)), [
        ...[0, 1, 2, 3].map((i) => set(`w${i}`, i32.load(get('ptr'), 4 * i))),
        ...scalarLimbs(['w0', 'w1', 'w2', 'w3'].map(get)).map((limb, i) =>
          set(h[i], i64.add(get(h[i]), i64.extend(i === 4 ? i32.or(limb, get('hibit')) : limb))),
        ),
        ...mulmod(h, h, r, r5, d),
        set('ptr', i32.add(get('ptr'), i32.const(16))),
        set('len', i32.sub(get('len'), i32.const(16))),
      ]),
      ...storeLimbs(s, h, H),
    ],
  });
}

// Vector registers: the two lanes' accumulators [A, B], the message limbs,
// the scalar h on its way in, the final [r^2, r] and 5 times it, the limb
// sums, the transposed message words and scratch; r^2, r^4 and 5 times them.
const vH = limbs('vh'),
  vM = limbs('vm'),
  vIn = limbs('vin'),
  vR = limbs('vr'),
  vS = limbs('vs'),
  vD = limbs('vd');
const w = regs('vw', 4),
  t = regs('vt', 4);
const r2 = limbs('p'),
  r4 = limbs('q'),
  p5 = limbs('p5'),
  q5 = limbs('q5');

/** Lanes [a, a, b, b] of 32-bit limbs from two i64 locals. */
const pair = (a: string, b: string): Expr => v128.shuffle32([0, 0, 4, 4], i32x4.splat(i32.wrap(get(a))), i32x4.splat(i32.wrap(get(b))));
/** Lanes [a, b, 0, 0]. */
const lanes2 = (a: string, b: string): Expr => v128.shuffle32([0, 4, 1, 5], i32x4.splat(i32.wrap(get(a))), i32x4.splat(i32.wrap(get(b))));

/**
 * The loop's powers of r: the lanes [r^4, r^4, r^2, r^2] of each limb
 * (and 5 times them, for limbs 1..4) are read from the state's POWERS
 * field at each use rather than held in nine v128 locals: the loop then
 * needs nine registers fewer, which JavaScriptCore otherwise spills
 * around the products (docs/contributing/performance-history.md#poly1305).
 */
const powerSlot = (s: State, n: number): Expr => v128.load(s.at(POWERS), 16 * n);
const powers = (s: State): Expr[] => [0, 1, 2, 3, 4].map((n) => powerSlot(s, n));
// productTerms reads 5 * b_j only for j >= 1, so POWERS keeps no 5 * r_0:
// slots 5..8 hold 5 times limbs 1..4.
const powers5 = (s: State): Expr[] => ['', ...[1, 2, 3, 4].map((j) => powerSlot(s, 4 + j))];

/** r^2 and r^4 from r, then their lanes [r^4, r^4, r^2, r^2] and 5 times them into POWERS. */
function storePowers(s: State): Expr[] {
  return [
    ...mulmod(r2, r, r, r5, d),
    ...times5(p5, r2),
    ...mulmod(r4, r2, r2, p5, d),
    ...times5(q5, r4),
    ...[0, 1, 2, 3, 4].map((i) => v128.store(s.at(POWERS), pair(r4[i], r2[i]), 16 * i)),
    ...[1, 2, 3, 4].map((i) => v128.store(s.at(POWERS), i32x4.mul(powers(s)[i], i32x4.splat(i32.const(5))), 16 * (4 + i))),
  ];
}

/** One iteration over the 64 bytes at ptr; the first also adds vIn (the scalar h) into m0. */
function iteration(s: State, first: boolean): Expr[] {
  return [
    // Lanes [m2, m3, m0, m1]: transpose the blocks so that vw_j holds word j of each.
    ...transpose4(
      w,
      t,
      [32, 48, 0, 16].map((o) => v128.load(get('ptr'), o)),
    ),
    ...splitBlock(w.map(get), (x) => v128.and(x, get('vmask')), i32x4.shr, i32x4.shl, v128.or)
      .map((limb, i) => (i === 4 ? v128.or(limb, get('vhibit')) : limb))
      .map((limb, i) => set(vM[i], first ? i32x4.add(limb, get(vIn[i])) : limb)),
    // d_k = ([m2, m3] + [m0, m1] * r^2) + [A, B] * r^4, the message products and
    // the h products in running sums of their own (the shape that was fastest
    // in every engine: docs/contributing/performance-history.md#poly1305).
    ...vD.map((n, k) =>
      set(
        n,
        sumFirst([
          i64x2.extendLow(get(vM[k])),
          sumFirst(productTerms(vM.map(get), i64x2.mulHigh, powers(s), powers5(s), k)),
          sumFirst(productTerms(vH.map(get), i64x2.mulLow, powers(s), powers5(s), k)),
        ]),
      ),
    ),
    ...vectorCarry(vH, vD),
    set('ptr', i32.add(get('ptr'), i32.const(64))),
    set('len', i32.sub(get('len'), i32.const(64))),
  ];
}

/** h = A * r^2 + B * r: lanes [r^2, r], then the two lanes summed and carried. */
const combineLanes = (): Expr[] => [
  ...vR.map((n, i) => set(n, lanes2(r2[i], r[i]))),
  ...vS.map((n, i) => set(n, i32x4.mul(get(vR[i]), i32x4.splat(i32.const(5))))),
  ...vD.map((n, k) =>
    set(
      n,
      productTerms(vH.map(get), i64x2.mulLow, vR.map(get), vS.map(get), k).reduce((x, y) => i64x2.add(x, y)),
    ),
  ),
  ...d.map((n, k) => set(n, i64.add(i64x2.lane(get(vD[k]), 0), i64x2.lane(get(vD[k]), 1)))),
  ...carry(h, d),
];

/**
 * poly_blocks_vector(ptr, len, hibit): the 2-lane loop, 64 bytes an
 * iteration (see the header), then the scalar loop for the last blocks;
 * returns with h in memory as the scalar loop does.
 */
function vectorBlocks(s: State): string {
  return func({
    name: 'poly_blocks_vector',
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['hibit', 'i32'],
    ],
    locals: {
      ...scalarLocals,
      ...declare([...r2, ...r4, ...p5, ...q5], 'i64'),
      ...declare([...vH, ...vM, ...vIn, ...vR, ...vS, ...vD, ...w, ...t, 'vhibit', 'vmask'], 'v128'),
    },
    body: [
      ...loadLimbs(s, h, H),
      ...loadLimbs(s, r, R),
      ...times5(r5, r),
      ...storePowers(s),
      // The scalar h enters as part of the first m0 (lane 2 of the message vectors).
      ...vIn.map((n, i) => set(n, v128.shuffle32([4, 4, 0, 4], i32x4.splat(i32.wrap(get(h[i]))), v128.const32(0, 0, 0, 0)))),
      ...vH.map((n) => set(n, v128.const32(0, 0, 0, 0))),
      set('vhibit', i32x4.splat(get('hibit'))),
      set('vmask', i32x4.splat(i32.const(MASK26))),
      // poly_blocks calls this with at least VECTOR_THRESHOLD >= 128 bytes.
      // The first iteration, which adds the scalar h in, runs before the
      // loop, so that the five vectors carrying h are not live in it.
      ...iteration(s, true),
      doWhile('group', iteration(s, false), i32.geU(get('len'), i32.const(64))),
      ...combineLanes(),
      ...storeLimbs(s, h, H),
      // Fewer than 4 blocks remain.
      call('poly_blocks_scalar', get('ptr'), get('len'), get('hibit')),
    ],
  });
}

/** poly_blocks(ptr, len, hibit): the vector loop from VECTOR_THRESHOLD bytes on, else the scalar one. */
function blocks(): string {
  return func({
    name: 'poly_blocks',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['hibit', 'i32'],
    ],
    body: [
      ifElse(
        i32.geU(get('len'), i32.const(VECTOR_THRESHOLD)),
        [call('poly_blocks_vector', get('ptr'), get('len'), get('hibit'))],
        [call('poly_blocks_scalar', get('ptr'), get('len'), get('hibit'))],
      ),
    ],
  });
}

/** poly_pad16(ptr, len): whole blocks, then a final partial block zero-padded to 16 bytes (RFC 8439 §2.8 pad16). */
function pad16(s: State): string {
  return func({
    name: 'poly_pad16',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: declare(['full', 'i'], 'i32'),
    body: [
      ...wholeBlocks(),
      ifThen(i32.and(get('len'), i32.const(15)), [
        i64.store(s.at(SCRATCH), i64.const(0)),
        i64.store(s.at(SCRATCH, 2), i64.const(0)),
        set('i', i32.const(0)),
        whileLoop('tail', i32.ltU(get('i'), i32.and(get('len'), i32.const(15))), [
          i32.store8(i32.add(get('i'), s.at(SCRATCH)), i32.load8(i32.add(get('ptr'), i32.add(get('full'), get('i'))))),
          set('i', i32.add(get('i'), i32.const(1))),
        ]),
        call('poly_blocks_scalar', s.at(SCRATCH), i32.const(16), i32.const(HIBIT)),
      ]),
    ],
  });
}

/** poly_finish(): tag = ((h mod p) + s) mod 2^128 (RFC 8439 §2.5.1), in constant time, on 32-bit limbs. */
function finish(s: State): string {
  const g = limbs('g');
  return func({
    name: 'poly_finish',
    exported: true,
    locals: { ...declare([...h, ...g], 'i32'), mask: 'i32', c: 'i32', f: 'i64' },
    body: [
      ...h.map((n, i) => set(n, i32.load(s.at(H, i)))),
      // Full carry so every limb is below 2^26 (h < 2^130 + small).
      ...[1, 2, 3, 4].flatMap((i) => [
        set(h[(i + 1) % 5], i32.add(get(h[(i + 1) % 5]), i === 4 ? i32.mul(i32.shr(get(h[4]), 26), i32.const(5)) : i32.shr(get(h[i]), 26))),
        set(h[i], i32.and(get(h[i]), i32.const(MASK26))),
      ]),
      set(h[1], i32.add(get(h[1]), i32.shr(get(h[0]), 26))),
      set(h[0], i32.and(get(h[0]), i32.const(MASK26))),
      // g = h + 5 - 2^130; if it does not go negative, h >= p and g is the result.
      set('c', i32.const(5)),
      ...[0, 1, 2, 3, 4].flatMap((i) => [
        set(g[i], i32.add(get(h[i]), get('c'))),
        set('c', i32.shr(get(g[i]), 26)),
        set(g[i], i32.and(get(g[i]), i32.const(MASK26))),
      ]),
      // The carry out of limb 4 is 1 exactly when h + 5 >= 2^130.
      set('mask', i32.sub(i32.const(0), get('c'))),
      ...h.map((n, i) => set(n, i32.or(i32.and(get(n), i32.xor(get('mask'), i32.const(-1))), i32.and(get(g[i]), get('mask'))))),
      // h + s mod 2^128, a 32-bit word at a time. Adding (not OR-ing) the
      // shifted limbs stays right when limb 1 is 2^26 after the carry pass.
      set('f', i64.add(i64.add(i64.extend(get(h[0])), i64.shl(i64.extend(get(h[1])), 26)), i64.extend(i32.load(s.at(PAD, 0))))),
      i32.store(s.at(TAG, 0), i32.wrap(get('f'))),
      ...[1, 2, 3].flatMap((i) => [
        set('f', i64.add(i64.add(i64.shr(get('f'), 32), i64.shl(i64.extend(get(h[i + 1])), [20, 14, 8][i - 1])), i64.extend(i32.load(s.at(PAD, i))))),
        i32.store(s.at(TAG, i), i32.wrap(get('f'))),
      ]),
    ],
  });
}

/**
 * The Poly1305 functions for a module whose memory holds the state at
 * `base`: poly_init, poly_blocks (with its scalar and vector loops),
 * poly_pad16 and poly_finish.
 */
export function poly1305Functions(base: number): string[] {
  const s = stateAt(base);
  return [init(s), scalarBlocks(s), vectorBlocks(s), blocks(), pad16(s), finish(s)];
}

/**
 * The whole 16-byte blocks of the slice at the params ptr, len into the MAC,
 * with the 2^128 bit; the i32 local `full` is left holding their byte count.
 */
export const wholeBlocks = (): Expr[] => [set('full', i32.and(get('len'), i32.const(~15))), call('poly_blocks', get('ptr'), get('full'), i32.const(HIBIT))];

/** For the including module: Poly1305 keyed with the 32 bytes (r || s) at `key`, copied into the state at `base`. */
export const polyKeyFrom = (base: number, key: Expr): Expr[] => [memoryCopy(i32.const(base + KEY), key, i32.const(32)), call('poly_init')];

/** For the including module: the MAC finished and its 16-byte tag stored at `tag`. */
export const polyTagTo = (base: number, tag: Expr): Expr[] => [call('poly_finish'), v128.store(tag, v128.load(i32.const(base + TAG)))];

/** The carry pass of the vector loop, on two 64-bit lanes; leaves 32-bit limbs in lanes 0 and 1. */
function vectorCarry(hv: string[], sums: string[]): Expr[] {
  const mask = v128.const64(MASK26, MASK26);
  const code: Expr[] = [];
  for (let k = 0; k < 4; k++) code.push(set(sums[k + 1], i64x2.add(get(sums[k + 1]), i64x2.shr(get(sums[k]), 26))));
  // Carry out of limb 4 times 5 into limb 0, then once more from limb 0 to 1.
  const c4 = i64x2.shr(get(sums[4]), 26);
  code.push(set(sums[0], i64x2.add(v128.and(get(sums[0]), mask), i64x2.add(c4, i64x2.shl(c4, 2)))));
  code.push(set(sums[1], i64x2.add(v128.and(get(sums[1]), mask), i64x2.shr(get(sums[0]), 26))));
  code.push(set(sums[0], v128.and(get(sums[0]), mask)));
  for (let k = 2; k < 5; k++) code.push(set(sums[k], v128.and(get(sums[k]), mask)));
  return [...code, ...hv.map((n, k) => set(n, i64x2.narrowLow(get(sums[k]))))];
}
