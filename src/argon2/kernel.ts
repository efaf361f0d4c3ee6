/**
 * Argon2 kernel generator (RFC 9106): the filling of a segment (§3.4) with
 * the compression G (§3.5) on BLAKE2b's round turned BlaMka (§3.6), in
 * WebAssembly SIMD.
 *
 * A 64-bit word per lane, two words a register, as the reference's SSE
 * code holds them: a 1 KiB block is 64 registers, an 8x8 matrix whose rows
 * are 128 bytes (16 words) and whose columns take a register from each
 * row. P runs on a row, then on a column, eight registers at a time:
 * a0 a1 b0 b1 c0 c1 d0 d1, the four words a, b, c, d of GB in pairs. The
 * diagonal half of P turns b and d by one word across their pair and
 * swaps c's two registers, as the columns of its 4x4 matrix then are.
 *
 * fBlaMka's product of the low halves of two words, 2 * lo(x) * lo(y):
 * `i64x2.extmul_low_i32x4_u` multiplies 32-bit lanes 0 and 1, so one
 * shuffle gathers the low halves of both registers of a pair (lanes 0, 2
 * of x0 then of x1) and the low and high extmul give each its products.
 *
 * G(X, Y) runs in two stages through 2 KiB of scratch at fixed addresses:
 * R = X xor Y row by row (its P written to T), then T column by column,
 * its P XORed with R into the new block. From version 0x13, a block of a
 * later pass is XORed into (§3.2 step 6): the old block is folded into R
 * as it is written.
 *
 * The memory: the scratch page (R, T, the blocks of addresses), then the
 * m' blocks from BASE, lane after lane (layout.ts). The caller grows the
 * memory for the call, writes each lane's first two blocks and fills the
 * segments in order, in steps (fill_independent, fill_dependent).
 */
import { BLOCK, LAYOUT } from './layout.js';
import type { KernelSecrets } from '../wasm/secrets.js';
import {
  type Expr,
  call,
  choose,
  declare,
  doWhile,
  func,
  get,
  i32,
  i64,
  i64x2,
  ifElse,
  ifThen,
  memoryFill,
  module,
  regs,
  select,
  set,
  sharedMemoryModule,
  v128,
} from '../wasm/wat.js';

/** 65536 pages of 64 KiB: the 4 GiB a 32-bit memory can address. */
const MAX_PAGES = 65536;

/** The eight registers P works on: a0 a1 b0 b1 c0 c1 d0 d1 (16 bytes apart in a row, 128 in a column). */
const X = regs('x', 8);
const [A0, A1, B0, B1, C0, C1, D0, D1] = X;

/**
 * The fill functions' variants, which engines run at very different
 * speeds; the runtime picks one per engine by timing real calls
 * (runtime/variants.ts). 'shuffle' gathers fBlaMka's low halves from both
 * registers of a pair with one two-input shuffle and rotates by 16 with a
 * half-word shuffle: V8 11-14 (Node 26, Chromium) ran it 10-25% faster.
 * 'shift' gathers each register's with a one-input shuffle and rotates by
 * 16 with shifts: JavaScriptCore (Bun, WebKit) ran it 1.8 times as fast,
 * its two-input and half-word shuffles being slow there.
 */
export const argon2Variants = ['shuffle', 'shift'] as const;
type Variant = (typeof argon2Variants)[number];

/** The variant the functions being generated take (fill sets it). */
let variant: Variant = argon2Variants[0];

/** x = x + y + 2 * lo(x) * lo(y) for both pairs (x0, y0) and (x1, y1) (§3.6's fBlaMka). */
function blamka(x0: string, y0: string, x1: string, y1: string): Expr[] {
  if (variant === 'shift') {
    const low = (r: string) => v128.shuffle32([0, 2, 0, 2], get(r), get(r));
    const one = (x: string, y: string) => set(x, i64x2.add(i64x2.add(get(x), get(y)), i64x2.shl(i64x2.mulLow(low(x), low(y)), 1)));
    return [one(x0, y0), one(x1, y1)];
  }
  const gather = (r0: string, r1: string) => v128.shuffle32([0, 2, 4, 6], get(r0), get(r1));
  return [
    set('lx', gather(x0, x1)),
    set('ly', gather(y0, y1)),
    set(x0, i64x2.add(i64x2.add(get(x0), get(y0)), i64x2.shl(i64x2.mulLow(get('lx'), get('ly')), 1))),
    set(x1, i64x2.add(i64x2.add(get(x1), get(y1)), i64x2.shl(i64x2.mulHigh(get('lx'), get('ly')), 1))),
  ];
}

/**
 * Each 64-bit lane rotated right by `bits`: 32 and 16 are word and
 * half-word permutations (one or two instructions on x86); 24 is two
 * shifts and an or, which ran 3% faster in V8 than a byte shuffle, whose
 * mask costs a constant; 63 is a rotation left by one.
 */
function rotr(x: string, bits: number): Expr {
  if (bits === 63) return v128.or(i64x2.add(get(x), get(x)), i64x2.shr(get(x), 63));
  if (bits === 24 || (bits === 16 && variant === 'shift')) return v128.or(i64x2.shr(get(x), bits), i64x2.shl(get(x), 64 - bits));
  const bytes = [0, 8].flatMap((lane) => [0, 1, 2, 3, 4, 5, 6, 7].map((b) => lane + ((b + bits / 8) % 8)));
  return v128.shuffle(bytes, get(x));
}

/** d = (d xor a) >>> bits for both pairs. */
const xorRotate = (d0: string, a0: string, d1: string, a1: string, bits: number): Expr[] => [
  set('t0', v128.xor(get(d0), get(a0))),
  set(d0, rotr('t0', bits)),
  set('t0', v128.xor(get(d1), get(a1))),
  set(d1, rotr('t0', bits)),
];

/** GB (§3.6) on the words of two pairs of registers at once. */
function gb(a0: string, b0: string, c0: string, d0: string, a1: string, b1: string, c1: string, d1: string): Expr[] {
  return [
    ...blamka(a0, b0, a1, b1),
    ...xorRotate(d0, a0, d1, a1, 32),
    ...blamka(c0, d0, c1, d1),
    ...xorRotate(b0, c0, b1, c1, 24),
    ...blamka(a0, b0, a1, b1),
    ...xorRotate(d0, a0, d1, a1, 16),
    ...blamka(c0, d0, c1, d1),
    ...xorRotate(b0, c0, b1, c1, 63),
  ];
}

/** (x.1, y.0): the second word of x and the first of y, one register. */
const across = (x: string, y: string): Expr => v128.shuffle([8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23], get(x), get(y));

/**
 * P (§3.6) on x0..x7: GB on the columns (v0, v4, v8, v12) ..., then on the
 * diagonals (v0, v5, v10, v15) ...: b turned left by a word across its
 * pair, d right, c's registers swapped, and all turned back.
 */
function permute(): Expr[] {
  return [
    ...gb(A0, B0, C0, D0, A1, B1, C1, D1),
    // (b0, b1) = (v4 v5, v6 v7) -> (v5 v6, v7 v4); (d0, d1) = (v12 v13, v14 v15) -> (v15 v12, v13 v14).
    set('t0', across(B0, B1)),
    set(B1, across(B1, B0)),
    set(B0, get('t0')),
    set('t0', across(D1, D0)),
    set(D1, across(D0, D1)),
    set(D0, get('t0')),
    ...gb(A0, B0, C1, D0, A1, B1, C0, D1),
    set('t0', across(B1, B0)),
    set(B1, across(B0, B1)),
    set(B0, get('t0')),
    set('t0', across(D0, D1)),
    set(D1, across(D1, D0)),
    set(D0, get('t0')),
  ];
}

/**
 * The rows of G(X, Y) (§3.5): R = X xor Y (xor the old block when `fold`),
 * stored; P of each row into T. Local o walks the rows, 128 bytes apart.
 */
function rows(fold: boolean): Expr {
  const at = (base: string) => i32.add(get(base), get('o'));
  const scratch = i32.add(get('scratch'), get('o'));
  return doWhile(
    fold ? 'rows_fold' : 'rows',
    [
      ...X.map((r, k) => set(r, v128.xor(v128.load(at('x_at'), 16 * k), v128.load(at('y_at'), 16 * k)))),
      ...X.map((r, k) => v128.store(scratch, fold ? v128.xor(get(r), v128.load(at('out'), 16 * k)) : get(r), LAYOUT.R + 16 * k)),
      ...permute(),
      ...X.map((r, k) => v128.store(scratch, get(r), LAYOUT.T + 16 * k)),
      set('o', i32.add(get('o'), i32.const(128))),
    ],
    i32.ne(get('o'), i32.const(BLOCK)),
  );
}

/**
 * The columns: P of each column of T (registers 128 bytes apart), XORed
 * with R's into the new block, and `afterFirst` once the first column is
 * stored. Local o walks the columns, 16 bytes apart.
 */
function columns(afterFirst: Expr[] = []): Expr {
  const scratch = i32.add(get('scratch'), get('o'));
  return doWhile(
    'columns',
    [
      ...X.map((r, k) => set(r, v128.load(scratch, LAYOUT.T + 128 * k))),
      ...permute(),
      ...X.map((r, k) => v128.store(i32.add(get('out'), get('o')), v128.xor(get(r), v128.load(scratch, LAYOUT.R + 128 * k)), 128 * k)),
      ...(afterFirst.length > 0 ? [ifThen(i32.eqz(get('o')), afterFirst)] : []),
      set('o', i32.add(get('o'), i32.const(16))),
    ],
    i32.ne(get('o'), i32.const(128)),
  );
}

/** out = G(X at x_at, Y at y_at), XORed into out's old block when local `fold` is set. */
function compress(afterFirstColumn: Expr[] = []): Expr[] {
  return [set('o', i32.const(0)), ifElse(get('fold'), [rows(true)], [rows(false)]), set('o', i32.const(0)), columns(afterFirstColumn)];
}

/**
 * The next block's reference block, its 16 cache lines read at once and
 * XORed into the sink: they come from memory while the other seven
 * columns are computed, where the next block's rows would wait for each
 * (64 MiB ran 10-20% faster so in V8). Its J1 and J2: the first word of
 * the block being made, final once its first column is; or the next
 * address, unless that is in a block of addresses not yet made.
 */
function touchNext(independent: boolean): Expr[] {
  const next = i32.add(get('i'), i32.const(1));
  const touch = [
    ...reference(next, 'next_ref'),
    set('next_at', blockAt(get('next_ref'))),
    set('lx', v128.load(get('next_at'))),
    ...Array.from({ length: 15 }, (_, k) => set('lx', v128.xor(get('lx'), v128.load(get('next_at'), 64 * (k + 1))))),
    v128.store(get('scratch'), get('lx'), LAYOUT.SINK),
  ];
  if (!independent) return [set('pseudo', i64.load(get('out'))), ...split(), ...touch];
  const address = i64.load(i32.add(get('scratch'), i32.shl(i32.and(next, i32.const(127)), i32.const(3))), LAYOUT.ADDRESSES);
  return [ifElse(i32.and(next, i32.const(127)), [set('pseudo', address), ...split(), ...touch], [])];
}

/** J1 and J2, the low and high halves of the pseudo-random word. */
const split = (): Expr[] => [set('j1', i32.wrap(get('pseudo'))), set('j2', i32.wrap(i64.shr(get('pseudo'), 32)))];

/** The locals every fill function uses. */
const LOCALS = {
  ...declare([...X, 'lx', 'ly', 't0'], 'v128'),
  ...declare(
    ['o', 'x_at', 'y_at', 'out', 'i', 'column', 'current', 'previous', 'j1', 'j2', 'ref_lane', 'same', 'area', 'start', 'ref', 'next_ref', 'next_at'],
    'i32',
  ),
  ...declare(['pseudo'], 'i64'),
};

/** The parameters of fill_independent and fill_dependent. */
const PARAMS: [string, 'i32' | 'i64'][] = [
  ['pass', 'i32'],
  ['slice', 'i32'],
  ['lane', 'i32'],
  ['from', 'i32'],
  ['count', 'i32'],
  ['lanes', 'i32'],
  ['lane_length', 'i32'],
  ['segment_length', 'i32'],
  ['blocks', 'i32'],
  ['passes', 'i32'],
  ['type', 'i32'],
  /** floor(2^32 / lanes), for J2 mod lanes without a divider. */
  ['reciprocal', 'i64'],
  /** Whether the new blocks are XORed into the old (a later pass from version 0x13). */
  ['fold', 'i32'],
  /** Where this caller's scratch (R, T, the blocks of addresses) begins: callers sharing a memory each have their own. */
  ['scratch', 'i32'],
  /** Where the blocks begin. */
  ['base', 'i32'],
];

/** The address of block number `index`. */
const blockAt = (index: Expr): Expr => i32.add(get('base'), i32.mul(index, i32.const(BLOCK)));

/**
 * addresses(scratch, counter): the block of addresses for the segment's
 * blocks 128k .. 128k + 127, with Z's counter k + 1 (§3.4.1.2):
 * G(0, G(0, Z)), the first G into HALF, the second from it. A function of
 * its own (binaryen does not inline a loop), called where a block of
 * addresses is needed.
 */
function addresses(): string {
  const second = get('i');
  return func({
    name: 'addresses',
    params: [
      ['scratch', 'i32'],
      ['counter', 'i32'],
    ],
    locals: LOCALS,
    body: [
      i64.store(get('scratch'), i64.extend(get('counter')), LAYOUT.INPUT + 48),
      set('x_at', i32.add(get('scratch'), i32.const(LAYOUT.ZERO))),
      set('i', i32.const(0)),
      doWhile(
        'twice',
        [
          set('y_at', i32.add(get('scratch'), select(i32.const(LAYOUT.HALF), i32.const(LAYOUT.INPUT), second))),
          set('out', i32.add(get('scratch'), select(i32.const(LAYOUT.ADDRESSES), i32.const(LAYOUT.HALF), second))),
          set('o', i32.const(0)),
          rows(false),
          set('o', i32.const(0)),
          columns(),
          set('i', i32.add(get('i'), i32.const(1))),
        ],
        i32.ne(get('i'), i32.const(2)),
      ),
    ],
  });
}

/** A block of addresses with Z's counter `counter` (addresses()). */
const addressBlock = (counter: Expr): Expr => call('addresses', get('scratch'), counter);

/** Z's first six words, the segment's position and the call's shape (§3.4.1.2); the counter is set per block of addresses. */
const inputBlock = (): Expr[] =>
  ['pass', 'lane', 'slice', 'blocks', 'passes', 'type'].map((name, k) => i64.store(get('scratch'), i64.extend(get(name)), LAYOUT.INPUT + 8 * k));

/** J2 mod lanes, without a divider: J2 * floor(2^32 / lanes) / 2^32 is the quotient or one less, and one subtraction under a mask corrects it. */
function laneOf(j2: Expr): Expr[] {
  const estimate = i32.wrap(i64.shr(i64.mul(i64.extend(j2), get('reciprocal')), 32));
  return [
    set('ref_lane', i32.sub(j2, i32.mul(estimate, get('lanes')))),
    set('ref_lane', i32.sub(get('ref_lane'), i32.and(get('lanes'), i32.sub(i32.const(0), i32.geU(get('ref_lane'), get('lanes')))))),
  ];
}

/** floor(a * b / 2^32) of two 32-bit values. */
const mulHigh = (a: Expr, b: Expr): Expr => i32.wrap(i64.shr(i64.mul(i64.extend(a), i64.extend(b)), 32));

/**
 * The reference block `ref` of block i from J1 and J2 (§3.4.1.3, §3.4.2),
 * with no branch on them: the lane (the current one in the first slice of
 * the first pass), the size of the set W it may reference, J1 mapped onto
 * W, and W's start.
 */
function reference(i: Expr = get('i'), out = 'ref'): Expr[] {
  const firstSlice = i32.and(i32.eqz(get('pass')), i32.eqz(get('slice')));
  const laterPass = i32.ne(get('pass'), i32.const(0));
  const finished = select(i32.sub(get('lane_length'), get('segment_length')), i32.mul(get('slice'), get('segment_length')), laterPass);
  const otherLane = i32.sub(i32.const(0), i32.eqz(i));
  const start = select(
    i32.const(0),
    i32.mul(i32.add(get('slice'), i32.const(1)), get('segment_length')),
    i32.or(i32.eqz(get('pass')), i32.eq(get('slice'), i32.const(3))),
  );
  return [
    ...laneOf(get('j2')),
    set('ref_lane', select(get('lane'), get('ref_lane'), firstSlice)),
    set('same', i32.eq(get('ref_lane'), get('lane'))),
    // Own lane: this segment's blocks but the previous; another lane: its finished segments, less its last block while this segment has none.
    set('area', i32.add(finished, i32.add(otherLane, i32.mul(get('same'), i32.sub(i32.sub(i, i32.const(1)), otherLane))))),
    set(out, i32.sub(i32.sub(get('area'), i32.const(1)), mulHigh(get('area'), mulHigh(get('j1'), get('j1'))))),
    set(out, i32.add(start, get(out))),
    set(out, i32.sub(get(out), i32.and(get('lane_length'), i32.sub(i32.const(0), i32.geU(get(out), get('lane_length')))))),
    set(out, i32.add(i32.mul(get('ref_lane'), get('lane_length')), get(out))),
  ];
}

/**
 * fill_independent / fill_dependent(pass, slice, lane, from, count, ...):
 * blocks from .. from + count - 1 (count >= 1) of segment (pass, slice,
 * lane), J1 and J2 from the blocks of addresses (argon2i, and argon2id's
 * first half pass) or from the previous block's first word.
 */
function fill(independent: boolean, v: Variant): string {
  variant = v;
  const name = `${independent ? 'fill_independent' : 'fill_dependent'}_${v}`;
  const pseudo = independent
    ? i64.load(i32.add(get('scratch'), i32.shl(i32.and(get('i'), i32.const(127)), i32.const(3))), LAYOUT.ADDRESSES)
    : i64.load(blockAt(get('previous')));
  const newAddresses = independent
    ? [
        ifElse(
          i32.and(i32.eqz(i32.and(get('i'), i32.const(127))), i32.ne(get('i'), get('from'))),
          [addressBlock(i32.add(i32.shr(get('i'), 7), i32.const(1)))],
          [],
        ),
      ]
    : [];
  return func({
    name,
    params: PARAMS,
    locals: LOCALS,
    body: [
      ...(independent ? [...inputBlock(), addressBlock(i32.add(i32.shr(get('from'), 7), i32.const(1)))] : []),
      set('i', get('from')),
      doWhile(
        name,
        [
          set('column', i32.add(i32.mul(get('slice'), get('segment_length')), get('i'))),
          set('current', i32.add(i32.mul(get('lane'), get('lane_length')), get('column'))),
          // The lane's last block precedes its first (a later pass's first segment).
          set('previous', i32.sub(select(i32.add(get('current'), get('lane_length')), get('current'), i32.eqz(get('column'))), i32.const(1))),
          ...newAddresses,
          set('pseudo', pseudo),
          ...split(),
          ...reference(),
          set('x_at', blockAt(get('previous'))),
          set('y_at', blockAt(get('ref'))),
          set('out', blockAt(get('current'))),
          ...compress(touchNext(independent)),
          set('i', i32.add(get('i'), i32.const(1))),
          set('count', i32.sub(get('count'), i32.const(1))),
        ],
        get('count'),
      ),
    ],
  });
}

/** wipe(from, count): zeroes memory [from, from + count). */
const wipe = (): string =>
  func({
    name: 'wipe',
    exported: true,
    params: [
      ['from', 'i32'],
      ['count', 'i32'],
    ],
    body: [memoryFill(get('from'), get('count'))],
  });

/**
 * For the constant-time check: argon2d, and argon2id after its first half
 * pass, read the reference block at an index made from the previous
 * block's first word (RFC 9106 §3.4.1.1), by design: that is what makes
 * them costly to attack with custom hardware, at the known cost that a
 * spy on the same machine's cache learns which blocks were read. In
 * fill_dependent, the loads of Y in both forms of the row stage (eight
 * each) and touchNext's 16, and no other instruction, are allowed it.
 * fill_independent's indices come from blocks of addresses made of public
 * counters alone (§3.4.1.2), which the check is told by declaring the two
 * loads that read them (the block's and touchNext's) public.
 */
export const argon2Secrets: KernelSecrets = {
  publicLoads: argon2Variants.map((v) => ({
    function: `fill_independent_${v}`,
    instruction: 'i64.load',
    count: 2,
    holds: 'J1 and J2 from the block of addresses, G(0, G(0, Z)) of public counters (RFC 9106 §3.4.1.2)',
  })),
  exceptions: argon2Variants.map((v) => ({
    function: `fill_dependent_${v}`,
    rule: 'address' as const,
    instruction: 'v128.load',
    count: 32,
    why: "the reference block at an index from the previous block's data: argon2d's design (RFC 9106 §3.4.1.1)",
  })),
};

/**
 * The module: a memory of one page that the caller grows for each call, up
 * to 4 GiB; or, `shared`, the same code on a memory it imports, shared
 * with the other threads that fill the lanes (fourfold/parallel).
 */
/**
 * fill_independent / fill_dependent(..., variant): the fill of the
 * variant the runtime chose (argon2Variants' index; public, so a branch).
 * Each variant stays a function of its own (argon2NoInline), so that
 * the constant-time check counts each one's loads.
 */
function dispatch(independent: boolean): string {
  const name = independent ? 'fill_independent' : 'fill_dependent';
  return func({
    name,
    exported: true,
    params: [...PARAMS, ['variant', 'i32']],
    body: [
      choose(
        get('variant'),
        argon2Variants.map((v) => call(`${name}_${v}`, ...PARAMS.map(([p]) => get(p)))),
      ),
    ],
  });
}

/** Functions binaryen must not inline (a pattern for its no-inline pass): each variant's fill (dispatch). */
export const argon2NoInline = 'fill_*_s*';

export function argon2Module(shared = false): string {
  variant = argon2Variants[0];
  const count = func({ name: 'variant_count', exported: true, result: 'i32', body: [i32.const(argon2Variants.length)] });
  const functions = [addresses(), ...argon2Variants.flatMap((v) => [fill(true, v), fill(false, v)]), dispatch(true), dispatch(false), count, wipe()];
  return shared ? sharedMemoryModule(1, functions, MAX_PAGES) : module(1, functions, [], MAX_PAGES);
}
