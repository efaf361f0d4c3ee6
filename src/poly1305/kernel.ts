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
 */
import { H, HIBIT, KEY, PAD, R, SCRATCH, TAG } from './layout.js';
import {
  type Expr, declare, f64, f64x2, func, get, i32, i32x4, i64, i64x2, ifThen, op, regs, set, v128, whileLoop,
} from '../wasm/wat.js';

const MASK26 = 0x3ffffff;
/** From this many bytes on, poly_blocks uses the vector loop (its setup costs two multiplications). */
export const VECTOR_THRESHOLD = 256;

const limbs = (prefix: string) => regs(prefix, 5);

/**
 * out = a * b mod p (not fully reduced), on limbs in i64 locals, through the
 * 64-bit sums d. `b5` holds 5 * b. After the carry pass every limb is below
 * 2^26 but limb 1, which may exceed it by a little: enough for the next product.
 */
function mulmod(out: string[], a: string[], b: string[], b5: string[], d: string[]): Expr[] {
  return [...d.map((n, k) => set(n, productTerms(a, i64.mul, b, b5, k).reduce((x, y) => i64.add(x, y)))), ...carry(out, d)];
}

/**
 * The five products whose limb indices sum to k (mod 5): a_i * b_j with
 * j = k - i, or with j = k - i + 5 and the factor 5 from 2^130 = 5 (mod p),
 * which `b5` holds pre-multiplied.
 */
function productTerms(a: string[], mul: (x: Expr, y: Expr) => Expr, b: string[], b5: string[], k: number): Expr[] {
  return [0, 1, 2, 3, 4].map((i) => (i <= k ? mul(get(a[i]), get(b[k - i])) : mul(get(a[i]), get(b5[k - i + 5]))));
}

/** Carry pass over 64-bit limb sums d0..d4 into 26-bit limbs `out` (i64 locals). */
function carry(out: string[], d: string[]): Expr[] {
  const code: Expr[] = [];
  for (let k = 0; k < 4; k++) {
    code.push(set(d[k + 1], i64.add(get(d[k + 1]), i64.shr(get(d[k]), 26))));
    code.push(set(out[k], i64.and(get(d[k]), i64.const(MASK26))));
  }
  // The carry out of limb 4 is worth 2^130 = 5 (mod p).
  code.push(set(out[4], i64.and(get(d[4]), i64.const(MASK26))));
  code.push(set(d[0], i64.add(get(out[0]), i64.mul(i64.shr(get(d[4]), 26), i64.const(5)))));
  code.push(set(out[0], i64.and(get(d[0]), i64.const(MASK26))));
  code.push(set(out[1], i64.add(get(out[1]), i64.shr(get(d[0]), 26))));
  return code;
}

/** The five 26-bit limbs of the 16-byte little-endian number at `ptr` (words w0..w3). */
function splitBlock(w: Expr[], and: (x: Expr) => Expr, shr: (x: Expr, n: number) => Expr, shl: (x: Expr, n: number) => Expr, or: (a: Expr, b: Expr) => Expr): Expr[] {
  return [
    and(w[0]),
    and(or(shr(w[0], 26), shl(w[1], 6))),
    and(or(shr(w[1], 20), shl(w[2], 12))),
    and(or(shr(w[2], 14), shl(w[3], 18))),
    shr(w[3], 8),
  ];
}

/** Which vector loop poly_blocks uses from VECTOR_THRESHOLD bytes on. */
export interface PolyOptions {
  /** 'i64': 26-bit limbs, i64x2 extmul products. 'f64': 22-bit limbs, exact f64x2 products (vectorBlocksF64). */
  vector?: 'i64' | 'f64';
  /** For 'f64': blocks per lane per iteration (two lanes, so twice this many blocks an iteration). */
  perLane?: number;
  /** For 'f64': how column sums are formed (floatRows or floatColumns). */
  order?: 'rows' | 'tree';
  carry?: 'steps' | 'rounds';
  lastRow?: 'chain' | 'tree' | 'two';
  /** For 'i64': the loop's shape (a do-while lets TurboFan hoist its invariants). */
  i64Loop?: 'while' | 'do';
}

export function poly1305Functions(base: number, options: PolyOptions = {}): string[] {
  const h = limbs('h'), r = limbs('r'), r5 = limbs('s'), d = limbs('d');
  const at = (field: number, limb = 0) => i32.const(base + field + 4 * limb);
  const loadLimbs = (names: string[], field: number) => names.map((n, i) => set(n, i64.extend(i32.load(at(field, i)))));
  const storeLimbs = (names: string[], field: number) => names.map((n, i) => i32.store(at(field, i), i32.wrap(get(n))));
  const times5 = (dst: string[], src: string[]) => dst.map((n, i) => set(n, i64.mul(get(src[i]), i64.const(5))));
  const scalarLocals = { ...declare([...h, ...r, ...r5, ...d], 'i64') };

  // poly_init: r = clamp(key[0..16]) (RFC 8439 §2.5), s = key[16..32], h = 0.
  const init = func({
    name: 'poly_init',
    exported: true,
    locals: declare(['w0', 'w1', 'w2', 'w3'], 'i32'),
    body: [
      set('w0', i32.and(i32.load(at(KEY, 0)), i32.const(0x0fffffff))),
      set('w1', i32.and(i32.load(at(KEY, 1)), i32.const(0x0ffffffc))),
      set('w2', i32.and(i32.load(at(KEY, 2)), i32.const(0x0ffffffc))),
      set('w3', i32.and(i32.load(at(KEY, 3)), i32.const(0x0ffffffc))),
      ...splitBlock(['w0', 'w1', 'w2', 'w3'].map(get), (x) => i32.and(x, i32.const(MASK26)), i32.shr, i32.shl, i32.or)
        .map((limb, i) => i32.store(at(R, i), limb)),
      ...[0, 1, 2, 3].map((i) => i32.store(at(PAD, i), i32.load(at(KEY, 4 + i)))),
      ...[0, 1, 2, 3, 4].map((i) => i32.store(at(H, i), i32.const(0))),
    ],
  });

  // Scalar loop: h = (h + m) * r for each 16-byte block, `hibit` = 2^128 or 0.
  const scalarBlocks = func({
    name: 'poly_blocks_scalar',
    params: [['ptr', 'i32'], ['len', 'i32'], ['hibit', 'i32']],
    locals: { ...scalarLocals, ...declare(['w0', 'w1', 'w2', 'w3'], 'i32') },
    body: [
      ...loadLimbs(h, H), ...loadLimbs(r, R), ...times5(r5, r),
      whileLoop('block', i32.geU(get('len'), i32.const(16)), [
        ...[0, 1, 2, 3].map((i) => set(`w${i}`, i32.load(get('ptr'), 4 * i))),
        ...splitBlock(['w0', 'w1', 'w2', 'w3'].map(get), (x) => i32.and(x, i32.const(MASK26)), i32.shr, i32.shl, i32.or)
          .map((limb, i) => set(h[i], i64.add(get(h[i]), i64.extend(i === 4 ? i32.or(limb, get('hibit')) : limb)))),
        ...mulmod(h, h, r, r5, d),
        set('ptr', i32.add(get('ptr'), i32.const(16))),
        set('len', i32.sub(get('len'), i32.const(16))),
      ]),
      ...storeLimbs(h, H),
    ],
  });

  // Vector loop, 64 bytes an iteration; returns with h in memory as the scalar loop does.
  const vH = limbs('vh'), vM = limbs('vm'), vIn = limbs('vin'), vR = limbs('vr'), vS = limbs('vs'), vD = limbs('vd');
  const w = regs('vw', 4), t = regs('vt', 4);
  const r2 = limbs('p'), r4 = limbs('q'), p5 = limbs('p5'), q5 = limbs('q5');
  /** Lanes [a, a, b, b] of 32-bit limbs from two i64 locals. */
  const pair = (a: string, b: string): Expr =>
    v128.shuffle32([0, 0, 4, 4], i32x4.splat(i32.wrap(get(a))), i32x4.splat(i32.wrap(get(b))));
  /** Lanes [a, b, 0, 0]. */
  const lanes2 = (a: string, b: string): Expr =>
    v128.shuffle32([0, 4, 1, 5], i32x4.splat(i32.wrap(get(a))), i32x4.splat(i32.wrap(get(b))));
  const vectorBlocks = func({
    name: 'poly_blocks_vector',
    params: [['ptr', 'i32'], ['len', 'i32'], ['hibit', 'i32']],
    locals: {
      ...scalarLocals,
      ...declare([...r2, ...r4, ...p5, ...q5], 'i64'),
      ...declare([...vH, ...vM, ...vIn, ...vR, ...vS, ...vD, ...w, ...t, 'vhibit', 'vmask'], 'v128'),
    },
    body: [
      ...loadLimbs(h, H), ...loadLimbs(r, R), ...times5(r5, r),
      // r^2 and r^4, then the lane vectors [r^4, r^4, r^2, r^2] and 5 times them.
      ...mulmod(r2, r, r, r5, d), ...times5(p5, r2),
      ...mulmod(r4, r2, r2, p5, d), ...times5(q5, r4),
      ...vR.map((n, i) => set(n, pair(r4[i], r2[i]))),
      ...vS.map((n, i) => set(n, i32x4.mul(get(vR[i]), i32x4.splat(i32.const(5))))),
      // The scalar h enters as part of the first m0 (lane 2 of the message vectors).
      ...vIn.map((n, i) => set(n, v128.shuffle32([4, 4, 0, 4], i32x4.splat(i32.wrap(get(h[i]))), v128.const32(0, 0, 0, 0)))),
      ...vH.map((n) => set(n, v128.const32(0, 0, 0, 0))),
      set('vhibit', i32x4.splat(get('hibit'))),
      set('vmask', i32x4.splat(i32.const(MASK26))),
      (options.i64Loop === 'while' ? (b: Expr[]) => whileLoop('group', i32.geU(get('len'), i32.const(64)), b) : (b: Expr[]) => doWhile('group', b, i32.geU(get('len'), i32.const(64))))([
        // Lanes [m2, m3, m0, m1]: transpose the blocks so that vw_j holds word j of each.
        ...transpose4(w, t, [32, 48, 0, 16].map((o) => v128.load(get('ptr'), o))),
        ...splitBlock(w.map(get), (x) => v128.and(x, get('vmask')), i32x4.shr, i32x4.shl, v128.or)
          .map((limb, i) => set(vM[i], i32x4.add(i === 4 ? v128.or(limb, get('vhibit')) : limb, get(vIn[i])))),
        ...vIn.map((n) => set(n, v128.const32(0, 0, 0, 0))),
        // d_k = [A, B] * r^4 + [m0, m1] * r^2 + [m2, m3]
        ...vD.map((n, k) =>
          set(n, [...productTerms(vH, i64x2.mulLow, vR, vS, k), ...productTerms(vM, i64x2.mulHigh, vR, vS, k), i64x2.extendLow(get(vM[k]))]
            .reduce((x, y) => i64x2.add(x, y)))),
        ...vectorCarry(vH, vD),
        set('ptr', i32.add(get('ptr'), i32.const(64))),
        set('len', i32.sub(get('len'), i32.const(64))),
      ]),
      // h = A * r^2 + B * r: lanes [r^2, r], then the two lanes summed.
      ...vR.map((n, i) => set(n, lanes2(r2[i], r[i]))),
      ...vS.map((n, i) => set(n, i32x4.mul(get(vR[i]), i32x4.splat(i32.const(5))))),
      ...vD.map((n, k) => set(n, productTerms(vH, i64x2.mulLow, vR, vS, k).reduce((x, y) => i64x2.add(x, y)))),
      ...d.map((n, k) => set(n, i64.add(i64x2.lane(get(vD[k]), 0), i64x2.lane(get(vD[k]), 1)))),
      ...carry(h, d),
      ...storeLimbs(h, H),
      // Fewer than 4 blocks remain.
      `(call $poly_blocks_scalar ${get('ptr')} ${get('len')} ${get('hibit')})`,
    ],
  });

  const vector = options.vector === 'f64' ? vectorBlocksF64(at, options) : vectorBlocks;

  const blocks = func({
    name: 'poly_blocks',
    exported: true,
    params: [['ptr', 'i32'], ['len', 'i32'], ['hibit', 'i32']],
    body: [
      `(if (i32.ge_u ${get('len')} ${i32.const(VECTOR_THRESHOLD)})
        (then (call $poly_blocks_vector ${get('ptr')} ${get('len')} ${get('hibit')}))
        (else (call $poly_blocks_scalar ${get('ptr')} ${get('len')} ${get('hibit')})))`,
    ],
  });

  // Whole blocks, then a final partial block zero-padded to 16 bytes (RFC 8439 §2.8 pad16).
  const pad16 = func({
    name: 'poly_pad16',
    exported: true,
    params: [['ptr', 'i32'], ['len', 'i32']],
    locals: declare(['full', 'i'], 'i32'),
    body: [
      set('full', i32.and(get('len'), i32.const(~15))),
      `(call $poly_blocks ${get('ptr')} ${get('full')} ${i32.const(HIBIT)})`,
      ifThen(i32.and(get('len'), i32.const(15)), [
        i64.store(at(SCRATCH), i64.const(0)),
        i64.store(at(SCRATCH, 2), i64.const(0)),
        set('i', i32.const(0)),
        whileLoop('tail', i32.ltU(get('i'), i32.and(get('len'), i32.const(15))), [
          i32.store8(i32.add(get('i'), i32.const(base + SCRATCH)), i32.load8(i32.add(get('ptr'), i32.add(get('full'), get('i'))))),
          set('i', i32.add(get('i'), i32.const(1))),
        ]),
        `(call $poly_blocks_scalar ${at(SCRATCH)} ${i32.const(16)} ${i32.const(HIBIT)})`,
      ]),
    ],
  });

  // tag = ((h mod p) + s) mod 2^128 (RFC 8439 §2.5.1), in constant time.
  const g = limbs('g');
  const finish = func({
    name: 'poly_finish',
    exported: true,
    locals: { ...declare([...h, ...g], 'i32'), mask: 'i32', c: 'i32', f: 'i64' },
    body: [
      ...h.map((n, i) => set(n, i32.load(at(H, i)))),
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
      set('f', i64.add(i64.add(i64.extend(get(h[0])), i64.shl(i64.extend(get(h[1])), 26)), i64.extend(i32.load(at(PAD, 0))))),
      i32.store(at(TAG, 0), i32.wrap(get('f'))),
      ...[1, 2, 3].flatMap((i) => [
        set('f', i64.add(i64.add(i64.shr(get('f'), 32), i64.shl(i64.extend(get(h[i + 1])), [20, 14, 8][i - 1])), i64.extend(i32.load(at(PAD, i))))),
        i32.store(at(TAG, i), i32.wrap(get('f'))),
      ]),
    ],
  });

  return [init, scalarBlocks, vector, blocks, pad16, finish];
}

/**
 * 4x4 transpose of 32-bit lanes: out_j lane i = word j of rows[i]. Eight
 * shuffles, all in registers; shared with the ChaCha kernel's output pass.
 */
export function transpose4(out: string[], tmp: string[], rows: Expr[]): Expr[] {
  return [
    set(tmp[0], rows[0]), set(tmp[1], rows[1]), set(tmp[2], rows[2]), set(tmp[3], rows[3]),
    set(out[0], v128.shuffle32([0, 4, 1, 5], get(tmp[0]), get(tmp[1]))), // a0 b0 a1 b1
    set(out[1], v128.shuffle32([2, 6, 3, 7], get(tmp[0]), get(tmp[1]))), // a2 b2 a3 b3
    set(out[2], v128.shuffle32([0, 4, 1, 5], get(tmp[2]), get(tmp[3]))), // c0 d0 c1 d1
    set(out[3], v128.shuffle32([2, 6, 3, 7], get(tmp[2]), get(tmp[3]))), // c2 d2 c3 d3
    set(tmp[0], v128.shuffle32([0, 1, 4, 5], get(out[0]), get(out[2]))), // a0 b0 c0 d0
    set(tmp[1], v128.shuffle32([2, 3, 6, 7], get(out[0]), get(out[2]))), // a1 b1 c1 d1
    set(tmp[2], v128.shuffle32([0, 1, 4, 5], get(out[1]), get(out[3]))), // a2 b2 c2 d2
    set(tmp[3], v128.shuffle32([2, 3, 6, 7], get(out[1]), get(out[3]))), // a3 b3 c3 d3
    set(out[0], get(tmp[0])), set(out[1], get(tmp[1])), set(out[2], get(tmp[2])), set(out[3], get(tmp[3])),
  ];
}

/** The carry pass of the vector loop, on two 64-bit lanes; leaves 32-bit limbs in lanes 0 and 1. */
function vectorCarry(hv: string[], d: string[]): Expr[] {
  const mask = `(v128.const i64x2 ${MASK26} ${MASK26})`;
  const code: Expr[] = [];
  for (let k = 0; k < 4; k++) code.push(set(d[k + 1], i64x2.add(get(d[k + 1]), i64x2.shr(get(d[k]), 26))));
  // Carry out of limb 4 times 5 into limb 0, then once more from limb 0 to 1.
  const c4 = i64x2.shr(get(d[4]), 26);
  code.push(set(d[0], i64x2.add(v128.and(get(d[0]), mask), i64x2.add(c4, i64x2.shl(c4, 2)))));
  code.push(set(d[1], i64x2.add(v128.and(get(d[1]), mask), i64x2.shr(get(d[0]), 26))));
  code.push(set(d[0], v128.and(get(d[0]), mask)));
  for (let k = 2; k < 5; k++) code.push(set(d[k], v128.and(get(d[k]), mask)));
  return [...code, ...hv.map((n, k) => set(n, i64x2.narrowLow(get(d[k]))))];
}

// ------------------------------------------------------------ f64x2 loop

const M22 = (1 << 22) - 1;
/** Limbs of the f64x2 loop: six of 22 bits (132 bits), small integers held exactly in doubles. */
const L = 6;
/** Bits of the double 2^52: OR-ing an integer n < 2^52 into its mantissa gives the double 2^52 + n. */
const EXP52 = 0x4330000000000000n;
/** x + ALPHA - ALPHA is x rounded to a multiple of 2^22 (ties to even), exactly, for |x| < 2^73. */
const ALPHA = 3 * 2 ** 73;
/** 4p = 2^132 - 20 in 22-bit limbs, each large enough to make a carried signed limb non-negative. */
const FOUR_P = [2 ** 22 - 20, 2 ** 22 - 1, 2 ** 22 - 1, 2 ** 22 - 1, 2 ** 22 - 1, 2 ** 22 - 1];

const i64sub = op('i64.sub');
const i64x2splat = op('i64x2.splat');
const i64or = op('i64.or');

/**
 * Limbs of `dstBits` bits (the last one unbounded) of the number whose limbs
 * of `srcBits` bits are in i64 locals `src`; every source limb but the last
 * must be below 2^srcBits, so the pieces of one result limb do not overlap.
 */
function rebase(src: string[], srcBits: number, dstCount: number, dstBits: number): Expr[] {
  return Array.from({ length: dstCount }, (_, k) => {
    const lo = dstBits * k;
    const top = k === dstCount - 1;
    const end = top ? Infinity : lo + dstBits;
    const pieces = src.flatMap((n, i) => {
      const sLo = srcBits * i;
      const sEnd = i === src.length - 1 ? Infinity : sLo + srcBits;
      if (sEnd <= lo || sLo >= end) return [];
      return [sLo >= lo ? i64.shl(get(n), sLo - lo) : i64.shr(get(n), lo - sLo)];
    });
    const sum = pieces.reduce((a, b) => i64.add(a, b));
    return top ? sum : i64.and(sum, i64.const(2 ** dstBits - 1));
  });
}

/** Carries 26-bit limbs (i64 locals) so all but the last are below 2^26; the value is unchanged. */
function normalize26(x: string[]): Expr[] {
  return [0, 1, 2, 3].flatMap((i) => [
    set(x[i + 1], i64.add(get(x[i + 1]), i64.shr(get(x[i]), 26))),
    set(x[i], i64.and(get(x[i]), i64.const(MASK26))),
  ]);
}

/**
 * 26-bit limbs `src` (value below 2^131) to six 22-bit limbs in `g`. With
 * `balanced`, limbs 0..4 are then moved into [-2^21, 2^21) by carrying 1
 * from each limb of 2^21 or more; limb 5 stays below 2^20 + 2 for a value
 * below 2^130 + 2^105, as every power of r here is.
 */
function to22(src: string[], g: string[], balanced: boolean): Expr[] {
  const code = [...normalize26(src), ...rebase(src, 26, L, 22).map((e, k) => set(g[k], e))];
  if (balanced) {
    for (let k = 0; k < L - 1; k++) {
      const c = i64.shr(i64.add(get(g[k]), i64.const(1 << 21)), 22);
      code.push(set(g[k + 1], i64.add(get(g[k + 1]), c)));
      code.push(set(g[k], i64sub(get(g[k]), i64.shl(c, 22))));
    }
  }
  return code;
}

/**
 * Carry pass of the f64x2 loop over column sums x0..x5 (|x_k| < 2^52),
 * three steps of independent carries: limbs 0, 2, 4; then 1, 3, 5; then 0,
 * 2, 4 again. A carry rounds to nearest, so the limb left behind is in
 * [-2^21, 2^21]; the carry out of limb 5 is worth 2^132 = 20 (mod p).
 */
function floatCarry(x: string[], c: string[], mode: 'steps' | 'rounds' = 'steps'): Expr[] {
  const alpha = f64x2.const(ALPHA);
  const down = (k: number) => f64x2.const(k === L - 1 ? 20 * 2 ** -22 : 2 ** -22);
  const next = (k: number) => (k + 1) % L;
  if (mode === 'rounds') {
    // Two rounds, each carrying every limb at once from its value before the round.
    const round = (): Expr[] => [
      ...x.map((nm, k) => set(c[k], f64x2.sub(f64x2.add(get(nm), alpha), alpha))),
      ...x.map((nm, k) => set(nm, f64x2.add(f64x2.sub(get(nm), get(c[k])), f64x2.mul(get(c[(k + L - 1) % L]), down((k + L - 1) % L))))),
    ];
    return [...round(), ...round()];
  }
  const step = (k: number): Expr[] => [
    set(c[k], f64x2.sub(f64x2.add(get(x[k]), alpha), alpha)),
    set(x[k], f64x2.sub(get(x[k]), get(c[k]))),
    set(x[next(k)], f64x2.add(get(x[next(k)]), f64x2.mul(get(c[k]), down(k)))),
  ];
  return [0, 2, 4, 1, 3, 5, 0, 2, 4].flatMap(step);
}

/** `do { body } while (cond)`. */
function doWhile(label: string, body: Expr[], cond: Expr): Expr {
  return `(loop $${label}\n    ${body.join('\n    ')}\n    (br_if $${label} ${cond}))`;
}

/** a + b + ... as a balanced tree (shorter dependency chains than a running sum). */
function tree(terms: Expr[], add: (a: Expr, b: Expr) => Expr): Expr {
  if (terms.length === 1) return terms[0];
  const half = Math.ceil(terms.length / 2);
  return add(tree(terms.slice(0, half), add), tree(terms.slice(half), add));
}

/** Product terms a_i * b_j with i + j = col, 0 <= i, j < L. */
function floatTerms(a: string[], b: string[], col: number): Expr[] {
  const out: Expr[] = [];
  for (let i = 0; i < L; i++) if (col - i >= 0 && col - i < L) out.push(f64x2.mul(get(a[i]), get(b[col - i])));
  return out;
}

/**
 * Column sums x0..x5 of sum(early_t.a * early_t.b) + plain + late.a * late.b,
 * columns 6..10 folded in with their factor 20 (2^132 = 20 mod p). The
 * early products and `plain` are summed first, in running sums; the late
 * products (on the loop-carried dependency) join last through short trees.
 */
function floatColumns(
  x: string[], early: { a: string[]; b: string[] }[], plain: string[] | null, late: { a: string[]; b: string[] },
): Expr[] {
  const chain = (terms: Expr[]): Expr[] => (terms.length ? [terms.reduce((p, q) => f64x2.add(p, q))] : []);
  return x.map((n, k) => {
    const low = tree([...chain([...early.flatMap((s) => floatTerms(s.a, s.b, k)), ...(plain ? [get(plain[k])] : [])]), ...floatTerms(late.a, late.b, k)], f64x2.add);
    if (k + L > 2 * L - 2) return set(n, low);
    const high = tree([...chain(early.flatMap((s) => floatTerms(s.a, s.b, k + L))), ...floatTerms(late.a, late.b, k + L)], f64x2.add);
    return set(n, f64x2.add(low, f64x2.mul(high, f64x2.const(20))));
  });
}

/** A row of products: operand limbs `a` times a power's limbs `r`, and `s` = 20 * r for the wrapped terms. */
interface Row {
  a: string[];
  r: string[];
  s: string[];
}

/**
 * Column sums x_k = plain_k + sum over rows of a_i * (r_(k-i), or s_(k-i+6)
 * when k < i), a running sum per column in the order of `rows`: each column
 * gets one product from every operand limb, so all columns advance a row at
 * a time, which keeps few values live in whatever order the engine's
 * scheduler picks (it orders by distance from the end of the loop).
 */
function floatRows(x: string[], rows: Row[], plain: string[] | null, lastRow: 'chain' | 'tree' | 'two' = 'chain'): Expr[] {
  return x.map((nm, k) => {
    const product = (row: Row, i: number) => f64x2.mul(get(row.a[i]), get(k >= i ? row.r[k - i] : row.s[k - i + L]));
    const sum = (terms: Expr[]) => terms.reduce((p, q) => f64x2.add(p, q));
    const early = rows.slice(0, lastRow === 'chain' ? rows.length : rows.length - 1);
    const terms = [...(plain ? [get(plain[k])] : []), ...early.flatMap((row) => [0, 1, 2, 3, 4, 5].map((i) => product(row, i)))];
    if (lastRow === 'chain') return set(nm, sum(terms));
    const last = rows[rows.length - 1];
    const lp = [0, 1, 2, 3, 4, 5].map((i) => product(last, i));
    const tail = lastRow === 'tree' ? tree(lp, f64x2.add) : f64x2.add(sum(lp.slice(0, 3)), sum(lp.slice(3)));
    return set(nm, terms.length ? f64x2.add(sum(terms), tail) : tail);
  });
}

/**
 * The vector loop on doubles: poly_blocks_vector with the interface of the
 * i64x2 one (26-bit h and r in memory at entry and exit).
 *
 * Numbers are six signed 22-bit limbs, each an integer held exactly in a
 * double, x = sum(x_k * 2^(22k)); a lane pair [A, B] is an f64x2. With
 * n = perLane, one iteration takes 2n blocks m0..m(2n-1):
 *   A' = A * r^(2n) + m0 * r^(2n-2) + m2 * r^(2n-4) + ... + m(2n-2),
 *   B' = B * r^(2n) + m1 * r^(2n-2) + ...                + m(2n-1),
 * and at the end h = A * r^2 + B * r, as in the i64x2 loop. A product term
 * a_i * b_j lands in column i + j; columns 6..10 are worth 2^132 = 20
 * (mod p) times columns 0..4. Message limbs are made by OR-ing their bits
 * into the mantissa of 2^52 and subtracting 2^52.
 *
 * Exactness (every sum and product must stay below 2^53):
 * - r^k limbs are balanced, |r_j| <= 2^21 (to22); message limbs are in
 *   [0, 2^22) (limb 5: [0, 2^19)); the h from before the loop, added to
 *   m0 in the first iteration, has limbs in [0, 2^22) too, and A = B = 0 then.
 * - After floatCarry, |h_k| <= 2^21 + 2^12 (see below).
 * - Column k sums (k + 1) products plus 20 times (5 - k) wrapped ones: at
 *   most 101 products' worth (column 0). With operand limbs |h| <= 2^21 +
 *   2^12 and n - 1 message operands < 2^22, |r| <= 2^21:
 *     |x_k| <= 101 * (2^21 + 2^12 + (n - 1) * 2^22) * 2^21 + 2^22,
 *   n = 2: < 2^50.3; n = 4: < 2^51.5. The first iteration (m0 + h < 2^23,
 *   A = 0) is smaller. Partial sums are bounded by the same sum of
 *   magnitudes, and 20 * (high columns) by the same too.
 * - floatCarry: step 1 leaves |x_0|, |x_2|, |x_4| <= 2^21 and adds carries
 *   |c| <= 2^51.5 / 2^22 + 1 < 2^29.6 into x_1, x_3, x_5; step 2 leaves
 *   those <= 2^21 and adds < 2^29.6 into x_2, x_4 and 20 * 2^29.6 < 2^34 into
 *   x_0; step 3 leaves x_0, x_2, x_4 <= 2^21 with carries < 2^12 + 1 into x_1,
 *   x_3, x_5: every limb ends within 2^21 + 2^12.
 * - At the end, A * r^2 and B * r (|r^k| limbs <= 2^21) give columns
 *   < 101 * 2^21.01 * 2^21 < 2^48.7 a lane, < 2^49.7 for the two lanes summed.
 */
function vectorBlocksF64(at: (field: number, limb?: number) => Expr, options: PolyOptions): string {
  const perLane = options.perLane ?? 2, order = options.order ?? 'rows';
  const n = perLane;
  const h = limbs('h'), r = limbs('r'), r5 = limbs('s'), d = limbs('d'), p5 = limbs('p5');
  // pw[k] = r^(2k) in 26-bit limbs, k = 1..n.
  const pw = Array.from({ length: n + 1 }, (_, k) => limbs(`w${k}_`));
  const g = regs('g', L), g2 = regs('gg', L);
  const vh = regs('vh', L), vf = regs('vf', L), fm = regs('fm', L), x = regs('vx', L), c = regs('vc', L);
  // vr[t] = r^(2n - 2t) in both lanes; mm[p] = message limbs of blocks (2p, 2p + 1).
  const vr = Array.from({ length: n }, (_, t) => regs(`vr${t}_`, L));
  const mm = Array.from({ length: n }, (_, p) => regs(`mm${p}_`, L));
  const vs = Array.from({ length: n }, (_, t) => regs(`vs${t}_`, L)), vfs = regs('vfs', L);
  const twenty = (dst: string[], src: string[]) => dst.map((nm, j) => set(nm, f64x2.mul(get(src[j]), f64x2.const(20))));
  const two52 = f64x2.const(2 ** 52);
  const exp52 = f64x2.splatBits(EXP52);
  const mask22 = f64x2.splatBits(BigInt(M22));
  const toF = (e: Expr): Expr => f64.fromI64(e);

  const load26 = (names: string[], field: number) => names.map((nm, i) => set(nm, i64.extend(i32.load(at(field, i)))));
  const times5 = (dst: string[], src: string[]) => dst.map((nm, i) => set(nm, i64.mul(get(src[i]), i64.const(5))));

  const body: Expr[] = [
    ...load26(h, H), ...load26(r, R), ...times5(r5, r),
    ...mulmod(pw[1], r, r, r5, d), ...times5(p5, pw[1]),
  ];
  for (let k = 2; k <= n; k++) body.push(...mulmod(pw[k], pw[k - 1], pw[1], p5, d));
  for (let t = 0; t < n; t++) {
    body.push(...to22(pw[n - t], g, true), ...vr[t].map((nm, j) => set(nm, f64x2.splat(toF(get(g[j]))))));
  }
  // [r^2, r] for the final h = A * r^2 + B * r.
  body.push(...to22(pw[1], g, true), ...to22(r, g2, true), ...vf.map((nm, j) => set(nm, f64x2.pair(toF(get(g[j])), toF(get(g2[j]))))));
  if (order === 'rows') body.push(...vr.flatMap((v, t) => twenty(vs[t], v)), ...twenty(vfs, vf));
  // The h from before enters lane A of the first m0: 2^52 - h is subtracted instead of 2^52.
  body.push(...to22(h, g, false), ...fm.map((nm, j) => set(nm, f64x2.pair(toF(i64sub(i64.const(2 ** 52), get(g[j]))), f64.const(2 ** 52)))));
  body.push(...vh.map((nm) => set(nm, f64x2.const(0))));
  body.push(set('vhib', i64x2splat(i64or(i64.const(EXP52), i64.extend(i32.shr(get('hibit'), 6))))));

  const loop: Expr[] = [];
  for (let p = 0; p < n; p++) {
    loop.push(
      set('ta', v128.load(get('ptr'), 32 * p)),
      set('tb', v128.load(get('ptr'), 32 * p + 16)),
      set('lo', f64x2.interleave(get('ta'), get('tb'))),
      set('hi', f64x2.interleave(get('ta'), get('tb'), true)),
    );
    const bits = [
      v128.and(get('lo'), mask22),
      v128.and(i64x2.shr(get('lo'), 22), mask22),
      v128.and(v128.or(i64x2.shr(get('lo'), 44), i64x2.shl(get('hi'), 20)), mask22),
      v128.and(i64x2.shr(get('hi'), 2), mask22),
      v128.and(i64x2.shr(get('hi'), 24), mask22),
    ];
    loop.push(...mm[p].map((nm, k) => {
      const sub = p === 0 ? get(fm[k]) : two52;
      return set(nm, f64x2.sub(k < 5 ? v128.or(bits[k], exp52) : v128.or(i64x2.shr(get('hi'), 46), get('vhib')), sub));
    }));
  }
  loop.push(...fm.map((nm) => set(nm, two52)));
  if (order === 'rows') {
    loop.push(...floatRows(x, [...mm.slice(0, n - 1).map((m, p) => ({ a: m, r: vr[p + 1], s: vs[p + 1] })), { a: vh, r: vr[0], s: vs[0] }], mm[n - 1], options.lastRow));
  } else {
    loop.push(...floatColumns(x, mm.slice(0, n - 1).map((m, p) => ({ a: m, b: vr[p + 1] })), mm[n - 1], { a: vh, b: vr[0] }));
  }
  loop.push(...floatCarry(x, c, options.carry), ...vh.map((nm, k) => set(nm, get(x[k]))));
  loop.push(set('ptr', i32.add(get('ptr'), i32.const(32 * n))), set('len', i32.sub(get('len'), i32.const(32 * n))));
  // A loop with its test at the end (the caller guarantees one iteration):
  // TurboFan only hoists loop-invariant values out of a loop block that
  // dominates the loop's exit, and would otherwise compute them in the loop.
  body.push(doWhile('group', loop, i32.geU(get('len'), i32.const(32 * n))));

  // h = A * r^2 + B * r, the lanes summed, carried, and made non-negative by adding 4p.
  body.push(...(order === 'rows' ? floatRows(x, [{ a: vh, r: vf, s: vfs }], null) : floatColumns(x, [], null, { a: vh, b: vf })));
  body.push(...x.map((nm) => set(nm, f64x2.add(get(nm), v128.shuffle([8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7], get(nm))))));
  body.push(...floatCarry(x, c));
  body.push(...g.map((nm, k) => set(nm, i64.add(f64.toI64(f64x2.lane(get(x[k]), 0)), i64.const(FOUR_P[k])))));
  for (let k = 0; k < L - 1; k++) {
    body.push(set(g[k + 1], i64.add(get(g[k + 1]), i64.shr(get(g[k]), 22))), set(g[k], i64.and(get(g[k]), i64.const(M22))));
  }
  // Back to 26-bit limbs (value < 2^134): bits from 2^130 up fold into limb 0 times 5.
  body.push(...rebase(g, 22, 5, 26).map((e, i) => set(h[i], e)));
  body.push(
    set(h[0], i64.add(get(h[0]), i64.mul(i64.shr(get(h[4]), 26), i64.const(5)))),
    set(h[4], i64.and(get(h[4]), i64.const(MASK26))),
    set(h[1], i64.add(get(h[1]), i64.shr(get(h[0]), 26))),
    set(h[0], i64.and(get(h[0]), i64.const(MASK26))),
    ...h.map((nm, i) => i32.store(at(H, i), i32.wrap(get(nm)))),
    `(call $poly_blocks_scalar ${get('ptr')} ${get('len')} ${get('hibit')})`,
  );

  return func({
    name: 'poly_blocks_vector',
    params: [['ptr', 'i32'], ['len', 'i32'], ['hibit', 'i32']],
    locals: {
      ...declare([...h, ...r, ...r5, ...d, ...p5, ...pw.slice(1).flat(), ...g, ...g2], 'i64'),
      ...declare([...vh, ...vf, ...fm, ...x, ...c, ...vr.flat(), ...vs.flat(), ...vfs, ...mm.flat(), 'ta', 'tb', 'lo', 'hi', 'vhib'], 'v128'),
    },
    body,
  });
}
