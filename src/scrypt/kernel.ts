/**
 * scrypt kernel generator (RFC 7914): scryptROMix (§5) and
 * scryptBlockMix (§4) on Salsa20/8 (§3), each BlockMix in one of two
 * forms that give the same bytes: the block X in four vectors
 * (blockmix_vector) or in sixteen scalar words (blockmix_scalar).
 *
 * BlockMix is a chain: each Salsa20/8 takes the output of the one before,
 * and each BlockMix the output of the one before it, so a lane's speed is
 * the latency of one block's rounds, and which form has the shorter chain
 * depends on the processor: on the 2-core AMD EPYC VM, N = 2^14 took
 * 37 ms in vectors and 18 ms in scalar words (a vector add, shift or xor
 * takes two cycles there, a scalar one one, and a scalar rotation is one
 * instruction where a vector one is three), where the vectors were the
 * faster on the Intel VM. Both ship; fill and mix take the form as an
 * argument, and the engine times both on real runs and keeps the faster
 * (simd.ts).
 *
 * In the vector form one 64-byte Salsa20 block sits in four v128
 * registers, a quarter round in each lane: the words of the four quarter
 * rounds of a column round are laid out as the "diagonals" a = (x0, x5,
 * x10, x15), b = (x4, x9, x14, x3), c = (x8, x13, x2, x7), d = (x12, x1,
 * x6, x11), as libsodium's SSE2 scrypt arranges them (LANES_ORDER). A
 * column round is then four vector steps; turning b, c and d by one, two
 * and three lanes gives the row round the same layout, and turning them
 * back gives the next column round. Blocks are stored in this order for
 * the whole of ROMix (to_lanes and from_lanes convert at its ends), so the
 * loops move no word; the scalar form reads and writes each word where
 * this layout keeps it.
 *
 * Within a BlockMix X stays in registers; between two it is the output's
 * last block in memory, where the next reads it and Integerify reads its
 * first word. In the second loop, V[j] is a slot anywhere in N * 128 * r
 * bytes, far out of cache for a large N: it is XORed into X in a pass of
 * its own before the BlockMix, whose loads are independent of each other
 * and so wait for memory together, where the BlockMix would meet them one
 * after another.
 *
 * The memory holds N + 2 slots of 128 * r bytes (layout.ts): slots
 * 0..N-1 are V, slot N is X after the first loop, and slots N and N + 1
 * take turns as X and its BlockMix in the second. The caller grows the
 * memory for the call and runs each loop in steps (fill, mix), so that
 * it can report progress and let other work in between.
 */
import type { KernelSecrets } from '../wasm/secrets.js';
import { SALSA_COLUMNS, SALSA_ROWS, salsaQuarterRound, scalarArith } from '../wasm/arx.js';
import { type Expr, call, declare, doWhile, func, get, i32, i32x4, ifElse, interleave, memoryFill, module, regs, set, v128 } from '../wasm/wat.js';

/** 65536 pages of 64 KiB: the 4 GiB a 32-bit memory can address. */
const MAX_PAGES = 65536;

/** Salsa20/8: 8 rounds, that is 4 double rounds (RFC 7914 §3). */
const ROUNDS = 8;

/** Bytes of a Salsa20 block, the unit BlockMix works on (RFC 7914 §4: B[0] .. B[2r-1]). */
const BLOCK = 64;

/**
 * The word of a standard-order block that each position of the lanes
 * layout holds: the diagonals a, b, c, d above, one after the other.
 */
export const LANES_ORDER = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];

/** The block X in four registers (diagonals), Salsa20/8's saved input, and a temporary. */
const X = regs('x', 4);
const S = regs('s', 4);

/** The four lanes of `x` turned by `n`: lane i takes lane (i + n) mod 4. */
const turn = (x: Expr, n: number): Expr =>
  v128.shuffle32(
    [0, 1, 2, 3].map((i) => (i + n) % 4),
    x,
    x,
  );

/** target ^= (p + q) <<< bits in every lane (RFC 7914 §3, `R(a, b)`), through the register t. */
const step = (target: string, p: string, q: string, bits: number): Expr[] => [
  set('t', i32x4.add(get(p), get(q))),
  set(target, v128.xor(get(target), v128.or(i32x4.shl(get('t'), bits), i32x4.shr(get('t'), 32 - bits)))),
];

/**
 * One round on the diagonals: the quarter round in every lane, then b, c
 * and d turned so that the next round's quarter rounds are in the lanes
 * again. After a column round, the row round's b is d turned by one, its c
 * is c turned by two and its d is b turned by three; the same turns lead
 * back, so every round is this code.
 */
function round([a, b, c, d]: string[]): Expr[] {
  return [
    ...step(b, a, d, 7),
    ...step(c, b, a, 9),
    ...step(d, c, b, 13),
    ...step(a, d, c, 18),
    set('t', get(b)),
    set(b, turn(get(d), 1)),
    set(c, turn(get(c), 2)),
    set(d, turn(get('t'), 3)),
  ];
}

/** X = Salsa20/8(X), its input kept in S and added back (§3's feed-forward). */
function salsa8(): Expr[] {
  const rounds: Expr[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(...round(X));
  return [...X.map((n, i) => set(S[i], get(n))), ...rounds, ...X.map((n, i) => set(n, i32x4.add(get(n), get(S[i]))))];
}

/** The address of the last block of the slot at local `slot` (len: the slot's bytes). */
const lastBlock = (slot: string): Expr => i32.add(get(slot), i32.sub(get('len'), i32.const(BLOCK)));

/** The parameters of a BlockMix function: the slots it reads and writes, and r. */
const BLOCKMIX_PARAMS: [string, 'i32'][] = [
  ['src', 'i32'],
  ['dst', 'i32'],
  ['r', 'i32'],
];

/**
 * The loop of a BlockMix function (scryptBlockMix, §4) over the slot at
 * `src` (of `len` bytes) into the slot at `dst`, a block a turn: X ^= the block (`xor`),
 * X = Salsa20/8(X) (`salsa8`), output to `out` (`store`). Step 3's even
 * outputs go to the first half of dst and the odd ones to the second
 * (step 6): the halves' next blocks take turns as `out` and `next`. X
 * comes in from the input's last block (step 1) and leaves as the
 * output's last block, in memory, where the loops read Integerify.
 */
function blockMixLoop(xor: Expr[], salsa: Expr[], store: Expr[]): Expr[] {
  return [
    set('p', get('src')),
    set('end', i32.add(get('src'), get('len'))),
    set('out', get('dst')),
    set('next', i32.add(get('dst'), i32.shl(get('r'), 6))),
    doWhile(
      'blocks',
      [
        ...xor,
        ...salsa,
        ...store,
        set('after', i32.add(get('out'), i32.const(BLOCK))),
        set('out', get('next')),
        set('next', get('after')),
        set('p', i32.add(get('p'), i32.const(BLOCK))),
      ],
      i32.ltU(get('p'), get('end')),
    ),
  ];
}

/** The i32 locals of blockMixLoop. */
const LOOP_LOCALS = ['len', 'p', 'end', 'out', 'next', 'after'];

/** blockmix_vector(src, dst, r): X in four v128 registers, the diagonals: a round is four vector steps (above). */
function vectorBlockMix(): string {
  return func({
    name: 'blockmix_vector',
    params: BLOCKMIX_PARAMS,
    locals: { ...declare([...X, ...S, 't'], 'v128'), ...declare(LOOP_LOCALS, 'i32') },
    body: [
      set('len', i32.shl(get('r'), 7)),
      ...X.map((n, k) => set(n, v128.load(lastBlock('src'), 16 * k))),
      ...blockMixLoop(
        X.map((n, k) => set(n, v128.xor(get(n), v128.load(get('p'), 16 * k)))),
        salsa8(),
        X.map((n, k) => v128.store(get('out'), get(n), 16 * k)),
      ),
    ],
  });
}

/** Word w of X (standard order) as the scalar form names it, its saved input, and its byte offset in the lanes layout. */
const Y = regs('y', 16);
const Z = regs('z', 16);
const at32 = (w: number): number => 4 * LANES_ORDER.indexOf(w);

/**
 * blockmix_scalar(src, dst, r): X in sixteen i32 locals, the quarter
 * rounds of a round interleaved statement by statement, every rotation one
 * instruction (i32.rotl) where the vector form takes two shifts and an or;
 * the rounds unrolled (in a loop of double rounds, 10% slower).
 */
function scalarBlockMix(): string {
  const rounds: Expr[] = [];
  for (let i = 0; i < ROUNDS / 2; i++) {
    for (const words of [SALSA_COLUMNS, SALSA_ROWS]) rounds.push(...interleave(words.map((q) => salsaQuarterRound(scalarArith, Y, q))));
  }
  return func({
    name: 'blockmix_scalar',
    params: BLOCKMIX_PARAMS,
    locals: declare([...Y, ...Z, ...LOOP_LOCALS], 'i32'),
    body: [
      set('len', i32.shl(get('r'), 7)),
      ...Y.map((n, w) => set(n, i32.load(lastBlock('src'), at32(w)))),
      ...blockMixLoop(
        Y.map((n, w) => set(n, i32.xor(get(n), i32.load(get('p'), at32(w))))),
        [...Y.map((n, w) => set(Z[w], get(n))), ...rounds, ...Y.map((n, w) => set(n, i32.add(get(n), get(Z[w]))))],
        Y.map((n, w) => i32.store(get('out'), get(n), at32(w))),
      ),
    ],
  });
}

/**
 * The BlockMix of the slot at local `src` into the slot at local `dst` in
 * the form the param `form` names: 0 the vector form, 1 the scalar. A
 * lane's speed is the latency of its chain of steps, and which form has
 * the shorter one depends on the processor (a vector add's latency against
 * a scalar one's), so both ship and the engine times them on real runs
 * (simd.ts, runtime/variants.ts).
 */
const blockMix = (): Expr =>
  ifElse(get('form'), [call('blockmix_scalar', get('src'), get('dst'), get('r'))], [call('blockmix_vector', get('src'), get('dst'), get('r'))]);

/** The locals of the loops: a slot's bytes (len), the slots and pointers. */
const LOCALS = declare(['len', 'src', 'dst', 'p', 'q', 'i', 'k'], 'i32');

/**
 * fill(r, from, count, form): iterations from .. from + count - 1 of
 * ROMix's first loop (§5 step 2): slot i + 1 = BlockMix(slot i). Slot 0
 * holds B (in lanes order) before the first; slot N is X after the last.
 */
function fill(): string {
  return func({
    name: 'fill',
    exported: true,
    params: [
      ['r', 'i32'],
      ['from', 'i32'],
      ['count', 'i32'],
      ['form', 'i32'],
    ],
    locals: LOCALS,
    body: [
      set('len', i32.shl(get('r'), 7)),
      set('src', i32.mul(get('from'), get('len'))),
      doWhile(
        'fill',
        [set('dst', i32.add(get('src'), get('len'))), blockMix(), set('src', get('dst')), set('count', i32.sub(get('count'), i32.const(1)))],
        get('count'),
      ),
    ],
  });
}

/** The slot at local `src` ^= the slot at local `q`, a block at a time: loads that do not wait for one another. */
function xorSlot(): Expr[] {
  return [
    set('p', get('src')),
    set('i', i32.shl(get('r'), 1)),
    doWhile(
      'xor_v',
      [
        ...[0, 16, 32, 48].map((at) => v128.store(get('p'), v128.xor(v128.load(get('p'), at), v128.load(get('q'), at)), at)),
        set('p', i32.add(get('p'), i32.const(BLOCK))),
        set('q', i32.add(get('q'), i32.const(BLOCK))),
        set('i', i32.sub(get('i'), i32.const(1))),
      ],
      get('i'),
    ),
  ];
}

/**
 * mix(r, n, from, count, form): iterations from .. from + count - 1 of
 * ROMix's second loop (§5 step 3): j = Integerify(X) mod N, X =
 * BlockMix(X xor V[j]). X is slot N at even iterations and slot N + 1 at
 * odd ones, its BlockMix going to the other; N is even, so X ends in slot
 * N. Integerify is the first word of X's last block (at offset 0 in the
 * lanes layout); N is a power of two, so mod N is a mask (and only the low
 * 32 bits matter: N fits in 32).
 */
function mix(): string {
  const parity = i32.and(get('from'), i32.const(1));
  return func({
    name: 'mix',
    exported: true,
    params: [
      ['r', 'i32'],
      ['n', 'i32'],
      ['from', 'i32'],
      ['count', 'i32'],
      ['form', 'i32'],
    ],
    locals: LOCALS,
    body: [
      set('len', i32.shl(get('r'), 7)),
      set('src', i32.mul(i32.add(get('n'), parity), get('len'))),
      set('dst', i32.mul(i32.sub(i32.add(get('n'), i32.const(1)), parity), get('len'))),
      doWhile(
        'mix',
        [
          set('q', i32.mul(i32.and(i32.load(lastBlock('src')), i32.sub(get('n'), i32.const(1))), get('len'))),
          ...xorSlot(),
          blockMix(),
          set('k', get('src')),
          set('src', get('dst')),
          set('dst', get('k')),
          set('count', i32.sub(get('count'), i32.const(1))),
        ],
        get('count'),
      ),
    ],
  });
}

/**
 * to_lanes(at, blocks) and from_lanes(at, blocks): the 64-byte blocks at
 * `at` from standard word order into the lanes layout (LANES_ORDER), or
 * back, in place. Once per lane at each end of ROMix.
 */
function reorder(name: string, inverse: boolean): string {
  const w = regs('w', 16);
  return func({
    name,
    exported: true,
    params: [
      ['at', 'i32'],
      ['blocks', 'i32'],
    ],
    locals: declare(w, 'i32'),
    body: [
      doWhile(
        name,
        [
          ...w.map((n, i) => set(n, i32.load(get('at'), 4 * i))),
          ...w.map((n, i) => i32.store(get('at'), get(n), 4 * (inverse ? LANES_ORDER[i] : LANES_ORDER.indexOf(i)))),
          set('at', i32.add(get('at'), i32.const(BLOCK))),
          set('blocks', i32.sub(get('blocks'), i32.const(1))),
        ],
        get('blocks'),
      ),
    ],
  });
}

/** wipe(from, count): zeroes memory [from, from + count), a part of what a lane wrote. */
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
 * For the constant-time check: ROMix's second loop reads V[j] at j =
 * Integerify(X) mod N (RFC 7914 §5 step 3), an address made from the
 * password. That is scrypt's design, in every implementation: its memory
 * hardness needs reads no one can predict, and its known cost is that a
 * spy on the same machine's cache learns which slots were read. The four
 * loads of xorSlot, and no other instruction, are allowed it.
 */
export const scryptSecrets: KernelSecrets = {
  exceptions: [
    {
      function: 'mix',
      rule: 'address',
      instruction: 'v128.load',
      count: 4,
      why: 'V[Integerify(X) mod N]: scrypt reads memory at a password-derived index by design (RFC 7914 §5)',
    },
  ],
};

/** The module: a memory of one page that the caller grows for each call, up to 4 GiB. */
export function scryptModule(): string {
  return module(1, [fill(), mix(), vectorBlockMix(), scalarBlockMix(), reorder('to_lanes', false), reorder('from_lanes', true), wipe()], [], MAX_PAGES);
}
