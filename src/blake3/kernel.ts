/**
 * BLAKE3 kernel generator (the BLAKE3 paper and its reference
 * implementation's structure: chunk chaining, a stack of chaining values
 * merged by the chunk count, a root node whose compressions are the output).
 *
 * The wide path is inter-chunk: lane i of every v128 holds one word of
 * chunk c + i, so four chunks go through all 16 of their blocks together
 * with their chaining values in locals the whole time, and no lane ever
 * talks to another. Each block's message words are loaded as 16 vectors
 * (4 words of one chunk each) and transposed in registers. Parent nodes are
 * merged four at a time the same way (lane i = parent i, whose block is the
 * two 32-byte chaining values side by side), and the root's output blocks
 * four at a time (lane i = output counter t + i). Scalar compressions serve
 * a lone chunk, the last (partial) chunk, the top levels of each subtree,
 * merges on the stack and the last 1-3 output blocks.
 *
 * A slice's chunk CVs are computed first, four at a time across subtree
 * boundaries (3 chunks cost one 4-wide group, not a group and a scalar
 * chunk), then merged subtree by subtree. A one-shot input of whole chunks
 * takes its last chunk's CV from the same batch.
 *
 * Registers are the limit: 16 state vectors plus rotation masks exceed
 * the 15 xmm registers V8 allocates, so a second interleaved group only
 * adds spills, and each compression is a function of its own (block4)
 * because JavaScriptCore's optimizing tier spills almost everything in a
 * loop around the rounds. The measurements: docs/contributing/performance-history.md#blake3.
 */
import type { KernelSecrets } from '../wasm/secrets.js';
import * as L from './layout.js';
import { type Arith, COLUMNS, DIAGONALS, counterLanes, scalarArith, vectorArith } from '../wasm/arx.js';
import {
  type ByteRotation,
  type Expr,
  call,
  callVariant,
  declare,
  doWhile,
  func,
  get,
  i32,
  i32x4,
  i64,
  ifElse,
  ifThen,
  interleave,
  memoryCopy,
  memoryFill,
  module,
  regs,
  ret,
  set,
  setAll,
  transpose4,
  v128,
  variantFunctions,
  variantGlobal,
  whileLoop,
} from '../wasm/wat.js';

/** BLAKE3 rotates right (§2.2: >>> 16, 12, 8, 7); a right rotation by n is a left rotation by 32 - n. */
const rotr = (m: Arith, a: Expr, bits: number): Expr => m.rotl(a, 32 - bits);

/**
 * The G function on state words a, b, c, d with message words mx, my, as
 * eight steps. a + mx goes first: it does not wait for b, which the
 * previous step has just computed (a shorter dependency chain).
 */
function g(m: Arith, v: string[], [a, b, c, d]: number[], mx: Expr, my: Expr): Expr[] {
  return [
    set(v[a], m.add(m.add(get(v[a]), mx), get(v[b]))),
    set(v[d], rotr(m, m.xor(get(v[d]), get(v[a])), 16)),
    set(v[c], m.add(get(v[c]), get(v[d]))),
    set(v[b], rotr(m, m.xor(get(v[b]), get(v[c])), 12)),
    set(v[a], m.add(m.add(get(v[a]), my), get(v[b]))),
    set(v[d], rotr(m, m.xor(get(v[d]), get(v[a])), 8)),
    set(v[c], m.add(get(v[c]), get(v[d]))),
    set(v[b], rotr(m, m.xor(get(v[b]), get(v[c])), 7)),
  ];
}

/**
 * How the four G of a half-round are emitted: one after the other (the
 * scalar compression), or their steps interleaved (`interleave`, the
 * 4-wide functions: independent work side by side).
 */
type Order = (gs: Expr[][]) => Expr[];
const oneAfterAnother: Order = (gs) => gs.flat();

/**
 * The seven rounds, unrolled: the message permutation between rounds is
 * done by the generator (round r reads word SCHEDULE[r][j] at position j),
 * so no word ever moves at run time.
 */
function rounds(m: Arith, v: string[], msg: (word: number) => Expr, order: Order): Expr[] {
  const code: Expr[] = [];
  for (const s of L.SCHEDULE) {
    for (const [half, quads] of [
      [0, COLUMNS],
      [8, DIAGONALS],
    ] as const) {
      code.push(...order(quads.map((q, i) => g(m, v, q, msg(s[half + 2 * i]), msg(s[half + 2 * i + 1])))));
    }
  }
  return code;
}

const splatConst = (x: number): Expr => v128.const32(x, x, x, x);
/** The flags of block b (0..15) of a chunk: the mode's, CHUNK_START on block 0, CHUNK_END on block 15. */
const blockFlags = (mode: Expr, b: Expr): Expr =>
  i32.or(mode, i32.or(i32.mul(i32.eqz(b), i32.const(L.CHUNK_START)), i32.mul(i32.eq(b, i32.const(15)), i32.const(L.CHUNK_END))));
const word = (addr: number): Expr => i32.load(i32.const(addr));

/**
 * Message vectors m0..m15 (lane i = word j of the block at address
 * `lanes[i]`), loaded 16 bytes at a time and transposed.
 */
function loadMessage(mv: string[], t: string[], lanes: Expr[]): Expr[] {
  return [0, 1, 2, 3].flatMap((q) =>
    transpose4(
      mv.slice(4 * q, 4 * q + 4),
      t,
      lanes.map((lane) => v128.load(lane, 16 * q)),
    ),
  );
}

/** Chaining values h0..h7 (lane i = word w of CV i) stored as four 32-byte CVs at `out`, transposed in registers. */
function storeCvs(h: string[], t: string[], out: Expr): Expr[] {
  const code: Expr[] = [];
  for (const half of [0, 1]) {
    const rows = h.slice(4 * half, 4 * half + 4);
    code.push(...transpose4(rows, t, rows.map(get)));
    rows.forEach((r, lane) => {
      code.push(v128.store(out, get(r), 32 * lane + 16 * half));
    });
  }
  return code;
}

/** State words 8..15 of a compression: the IV, the counter lanes, the block length and the flags. */
function lowerState(v: string[], lo: Expr, hi: Expr, length: Expr, flags: Expr): Expr[] {
  return [...[0, 1, 2, 3].map((i) => set(v[8 + i], splatConst(L.IV[i]))), set(v[12], lo), set(v[13], hi), set(v[14], length), set(v[15], flags)];
}

/** Counter lanes t + 0..3 (low words into `lo`, high words into `hi`) for the 64-bit counter t in the i64 local `ctr`. */
const counters = (lo: string, hi: string, ctr: string): Expr[] =>
  counterLanes(lo, hi, i32x4.splat(i32.wrap(get(ctr))), i32x4.splat(i32.wrap(i64.shr(get(ctr), 32))));

/**
 * block4_<v>(ptr, stride, h0..h7, lo, hi, length, flags, upper) -> h0'..h7':
 * one compression in each lane, of the block at ptr + i * stride in lane i
 * (chunks 1 KiB apart, parents 64 bytes apart, or the root block four
 * times over), the block length and flags the same in every lane. The
 * chaining values go in and come out as vectors: passed by value, they
 * are WebAssembly locals and operands the whole time, and nothing is
 * written to linear memory between a chunk's blocks. The output block's
 * upper half (§2.6: words 8..15 XOR the input chaining value), which only
 * the root's output needs, is stored at `upper` (eight vectors, lane i =
 * lane i's words) when `upper` is not 0.
 *
 * Parents and root output share this function with the chunks rather than
 * having the rounds inlined into functions of their own: each such copy
 * was 9 KB of the module for a small share of the work. What the sharing
 * adds to a chunk's compression stays off its vectors: the stride, length,
 * flags and `upper` are i32 parameters, and the upper half is not
 * returned (as the sixteen results it first was, with the length and flags
 * as vectors, BLAKE3 ran 4-5% slower: docs/contributing/performance-history.md#code-size).
 */
function block4(variant: ByteRotation): string {
  const h = regs('h', 8),
    v = regs('v', 16),
    mv = regs('m', 16),
    t = regs('t', 4);
  const m = vectorArith(variant);
  const lane = (i: number): Expr => (i === 0 ? get('ptr') : get(`p${i}`));
  return func({
    name: `block4_${variant}`,
    params: [
      ['ptr', 'i32'],
      ['stride', 'i32'],
      ...h.map((n): [string, 'v128'] => [n, 'v128']),
      ['lo', 'v128'],
      ['hi', 'v128'],
      ['length', 'i32'],
      ['flags', 'i32'],
      ['upper', 'i32'],
    ],
    result: h.map(() => 'v128' as const),
    locals: { ...declare([...v, ...mv, ...t], 'v128'), p1: 'i32', p2: 'i32', p3: 'i32' },
    body: [
      set('p1', i32.add(get('ptr'), get('stride'))),
      set('p2', i32.add(get('p1'), get('stride'))),
      set('p3', i32.add(get('p2'), get('stride'))),
      ...loadMessage(mv, t, [0, 1, 2, 3].map(lane)),
      ...h.map((n, i) => set(v[i], get(n))),
      ...lowerState(v, get('lo'), get('hi'), i32x4.splat(get('length')), i32x4.splat(get('flags'))),
      ...rounds(m, v, (j) => get(mv[j]), interleave),
      ifThen(
        get('upper'),
        h.map((n, i) => v128.store(get('upper'), v128.xor(get(v[i + 8]), get(n)), 16 * i)),
      ),
      ...h.map((_, i) => v128.xor(get(v[i]), get(v[i + 8]))),
    ],
  });
}

/** block4_<variant>'s call, its chaining values into the locals `h`. */
const callBlock4 = (variant: ByteRotation, h: string[], args: Expr[]): Expr => setAll(h, call(`block4_${variant}`, ...args));

/**
 * chunks4_<v>(ptr, ctr, out): the chaining values of the four whole chunks
 * at ptr (chunk counters ctr .. ctr + 3) to out (32 bytes each). The CVs
 * stay in h0..h7 through all 16 blocks.
 *
 * The compression is its own function, not the loop's body, because
 * JavaScriptCore's optimizing tier compiles the loop-and-rounds function
 * badly (docs/contributing/performance-history.md#blake3), and the build keeps binaryen from
 * inlining it back (blake3NoInline).
 */
function chunks4(variant: ByteRotation): string {
  const h = regs('h', 8),
    t = regs('t', 4);
  return func({
    name: `chunks4_${variant}`,
    params: [
      ['ptr', 'i32'],
      ['ctr', 'i64'],
      ['out', 'i32'],
    ],
    locals: { ...declare([...h, ...t, 'lo', 'hi'], 'v128'), b: 'i32', mode: 'i32' },
    body: [
      ...h.map((n, i) => set(n, v128.splat32(i32.const(L.KEY), 4 * i))),
      ...counters('lo', 'hi', 'ctr'),
      set('mode', word(L.FLAGS)),
      set('b', i32.const(0)),
      doWhile(
        'block',
        [
          callBlock4(variant, h, [
            get('ptr'),
            i32.const(1024),
            ...h.map(get),
            get('lo'),
            get('hi'),
            i32.const(64),
            blockFlags(get('mode'), get('b')),
            i32.const(0),
          ]),
          set('ptr', i32.add(get('ptr'), i32.const(64))),
          set('b', i32.add(get('b'), i32.const(1))),
        ],
        i32.ltU(get('b'), i32.const(16)),
      ),
      ...storeCvs(h, t, get('out')),
    ],
  });
}

/** Functions binaryen must not inline (a pattern for its no-inline pass): see chunks4. */
export const blake3NoInline = 'block4_*';

/** parents4(ptr, out): four parent chaining values from the eight CVs (four pairs) at ptr, to out (it may be ptr). */
function parents4(variant: ByteRotation): string {
  const h = regs('h', 8),
    t = regs('t', 4);
  return func({
    name: 'parents4',
    params: [
      ['ptr', 'i32'],
      ['out', 'i32'],
    ],
    locals: declare([...h, ...t], 'v128'),
    body: [
      callBlock4(variant, h, [
        get('ptr'),
        i32.const(64),
        ...h.map((_, i) => v128.splat32(i32.const(L.KEY), 4 * i)),
        splatConst(0),
        splatConst(0),
        i32.const(64),
        i32.or(word(L.FLAGS), i32.const(L.PARENT)),
        i32.const(0),
      ]),
      ...storeCvs(h, t, get('out')),
    ],
  });
}

/** output4(ptr): root output blocks OUTPUT .. OUTPUT + 3 (256 bytes) to ptr; OUTPUT is not advanced. */
function output4(variant: ByteRotation): string {
  const o = regs('o', 16),
    t = regs('t', 4);
  const code: Expr[] = [];
  for (let group = 0; group < 4; group++) {
    const rows = o.slice(4 * group, 4 * group + 4);
    code.push(...transpose4(rows, t, rows.map(get)));
    rows.forEach((r, lane) => {
      code.push(v128.store(get('ptr'), get(r), 64 * lane + 16 * group));
    });
  }
  return func({
    name: 'output4',
    params: [['ptr', 'i32']],
    locals: { ...declare([...o, ...t, 'lo', 'hi'], 'v128'), ctr: 'i64' },
    body: [
      set('ctr', i64.load(i32.const(L.OUTPUT))),
      ...counters('lo', 'hi', 'ctr'),
      // Lane i: output block OUTPUT + i, the root's block in every lane (stride 0). The upper
      // halves go to the output's second half first, and are read back before any store.
      callBlock4(variant, o.slice(0, 8), [
        i32.const(L.ROOT_BLOCK),
        i32.const(0),
        ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => v128.splat32(i32.const(L.ROOT_CV), 4 * i)),
        get('lo'),
        get('hi'),
        word(L.ROOT_LENGTH),
        word(L.ROOT_FLAGS),
        i32.add(get('ptr'), i32.const(128)),
      ]),
      ...o.slice(8).map((n, i) => set(n, v128.load(get('ptr'), 128 + 16 * i))),
      ...code,
    ],
  });
}

/**
 * compress(cv, msg, ctr, length, flags, out, full): one compression on
 * scalar locals. Writes the 8-word chaining value to out, or with `full`
 * the 16-word output block. All loads precede all stores, so out may be
 * cv or msg.
 */
function compress(): string {
  const v = regs('v', 16),
    mw = regs('w', 16);
  return func({
    name: 'compress',
    params: [
      ['cv', 'i32'],
      ['msg', 'i32'],
      ['ctr', 'i64'],
      ['length', 'i32'],
      ['flags', 'i32'],
      ['out', 'i32'],
      ['full', 'i32'],
    ],
    locals: declare([...v, ...mw], 'i32'),
    body: [
      ...mw.map((n, j) => set(n, i32.load(get('msg'), 4 * j))),
      ...v.slice(0, 8).map((n, i) => set(n, i32.load(get('cv'), 4 * i))),
      ...[0, 1, 2, 3].map((i) => set(v[8 + i], i32.const(L.IV[i]))),
      set(v[12], i32.wrap(get('ctr'))),
      set(v[13], i32.wrap(i64.shr(get('ctr'), 32))),
      set(v[14], get('length')),
      set(v[15], get('flags')),
      ...rounds(scalarArith, v, (j) => get(mw[j]), oneAfterAnother),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => set(v[i], i32.xor(get(v[i]), get(v[i + 8])))),
      ifThen(get('full'), [
        ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => set(v[i + 8], i32.xor(get(v[i + 8]), i32.load(get('cv'), 4 * i)))),
        ...[8, 9, 10, 11, 12, 13, 14, 15].map((i) => i32.store(get('out'), get(v[i]), 4 * i)),
      ]),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => i32.store(get('out'), get(v[i]), 4 * i)),
    ],
  });
}

const callCompress = (cv: Expr, msg: Expr, ctr: Expr, length: Expr, flags: Expr, out: Expr, full = 0): Expr =>
  call('compress', cv, msg, ctr, length, flags, out, i32.const(full));
const modeFlags = (): Expr => word(L.FLAGS);

/** chunk1(ptr, ctr, out): the chaining value of the one whole chunk at ptr (chunk counter ctr), to out. */
function chunk1(): string {
  return func({
    name: 'chunk1',
    params: [
      ['ptr', 'i32'],
      ['ctr', 'i64'],
      ['out', 'i32'],
    ],
    locals: { b: 'i32' },
    body: [
      memoryCopy(get('out'), i32.const(L.KEY), i32.const(32)),
      set('b', i32.const(0)),
      doWhile(
        'block',
        [
          callCompress(get('out'), i32.add(get('ptr'), i32.shl(get('b'), 6)), get('ctr'), i32.const(64), blockFlags(modeFlags(), get('b')), get('out')),
          set('b', i32.add(get('b'), i32.const(1))),
        ],
        i32.ltU(get('b'), i32.const(16)),
      ),
    ],
  });
}

/** parent(left, out): the (non-root) parent of the CVs at left and left + 32, to out. */
const callParent = (left: Expr, out: Expr): Expr =>
  callCompress(i32.const(L.KEY), left, i64.const(0), i32.const(64), i32.or(modeFlags(), i32.const(L.PARENT)), out);

/**
 * chunk_cvs(ptr, n): the chaining values of the n whole chunks at ptr
 * (chunk counters COUNTER, COUNTER + 1, ...) to CVS, four at a time, or
 * with the scalar function for a lone chunk. In a last group of fewer than
 * four, the spare lanes hash whatever follows into spare CVS entries,
 * which are never used.
 */
function chunkCvs(): string {
  return func({
    name: 'chunk_cvs',
    params: [
      ['ptr', 'i32'],
      ['n', 'i32'],
    ],
    locals: { i: 'i32', ctr: 'i64' },
    body: [
      set('ctr', i64.load(i32.const(L.COUNTER))),
      ifThen(i32.eq(get('n'), i32.const(1)), [call('chunk1', get('ptr'), get('ctr'), i32.const(L.CVS)), ret()]),
      set('i', i32.const(0)),
      doWhile(
        'chunks',
        [
          callVariant(blake3Variants, 'chunks4', [
            i32.add(get('ptr'), i32.shl(get('i'), 10)),
            i64.add(get('ctr'), i64.extend(get('i'))),
            i32.add(i32.const(L.CVS), i32.shl(get('i'), 5)),
          ]),
          set('i', i32.add(get('i'), i32.const(4))),
        ],
        i32.ltU(get('i'), get('n')),
      ),
    ],
  });
}

/**
 * merge(at, s): the s CVs (a power of two) at CVS entry `at` merged level
 * by level, in place, into one at entry `at`: four parents at a time
 * while a level has at least four, then one at a time (spare lanes would
 * write over the next subtree's CVs).
 */
function merge(): string {
  const cvs = (entry: Expr) => i32.add(i32.const(L.CVS), i32.shl(entry, 5));
  return func({
    name: 'merge',
    params: [
      ['at', 'i32'],
      ['s', 'i32'],
    ],
    locals: { j: 'i32' },
    body: [
      whileLoop('level', i32.gtU(get('s'), i32.const(1)), [
        set('s', i32.shr(get('s'), 1)),
        set('j', i32.const(0)),
        whileLoop('wide', i32.geU(i32.sub(get('s'), get('j')), i32.const(4)), [
          call('parents4', cvs(i32.add(get('at'), i32.shl(get('j'), 1))), cvs(i32.add(get('at'), get('j')))),
          set('j', i32.add(get('j'), i32.const(4))),
        ]),
        whileLoop('single', i32.ltU(get('j'), get('s')), [
          callParent(cvs(i32.add(get('at'), i32.shl(get('j'), 1))), cvs(i32.add(get('at'), get('j')))),
          set('j', i32.add(get('j'), i32.const(1))),
        ]),
      ]),
    ],
  });
}

const depth = (): Expr => word(L.DEPTH);
const setDepth = (x: Expr): Expr => i32.store(i32.const(L.DEPTH), x);
const stackEntry = (index: Expr): Expr => i32.add(i32.const(L.STACK), i32.shl(index, 5));

/** Merges the top two stack entries into their parent. */
const mergeTop = (): Expr[] => [
  callParent(stackEntry(i32.sub(depth(), i32.const(2))), stackEntry(i32.sub(depth(), i32.const(2)))),
  setDepth(i32.sub(depth(), i32.const(1))),
];

/**
 * The pending merges: the stack merged down to popcount(COUNTER - BASE)
 * entries (the count into the i32 local `entries`), the complete subtrees
 * left of chunk COUNTER.
 */
const mergePending = (entries: string): Expr[] => [
  set(entries, i32.wrap(i64.popcnt(i64.sub(i64.load(i32.const(L.COUNTER)), i64.load(i32.const(L.BASE)))))),
  whileLoop('merge', i32.gtU(depth(), get(entries)), mergeTop()),
];

/**
 * push_cv(ptr): pushes the CV at ptr, of the subtree starting at chunk
 * COUNTER. First the stack is merged down to popcount(COUNTER - BASE)
 * entries, the complete subtrees left of it: merging lazily like this
 * (only when the next subtree arrives) keeps the last CV unmerged until
 * finish() knows which node is the root.
 */
function pushCv(): string {
  return func({
    name: 'push_cv',
    exported: true,
    params: [['ptr', 'i32']],
    locals: { target: 'i32' },
    body: [...mergePending('target'), memoryCopy(stackEntry(depth()), get('ptr'), i32.const(32)), setDepth(i32.add(depth(), i32.const(1)))],
  });
}

/**
 * absorb_cvs(n): the n chunk CVs at CVS (chunks COUNTER ..), none of
 * them the input's last chunk, as the largest subtrees that are aligned
 * (a subtree of s chunks starts at a multiple of s, counted from BASE)
 * and fit, each merged and pushed on the stack.
 */
function absorbCvs(): string {
  return func({
    name: 'absorb_cvs',
    params: [['n', 'i32']],
    locals: { s: 'i32', at: 'i32', ctr: 'i64', low: 'i64' },
    body: [
      whileLoop('subtree', get('n'), [
        set('ctr', i64.load(i32.const(L.COUNTER))),
        // The largest power of two chunks that fits ...
        set('s', i32.shl(i32.const(1), i32.sub(i32.const(31), i32.clz(get('n'))))),
        // ... and that the position allows: at most its lowest set bit (none at the start).
        set('low', i64.sub(get('ctr'), i64.load(i32.const(L.BASE)))),
        set('low', i64.and(get('low'), i64.sub(i64.const(0), get('low')))),
        ifThen(i32.and(i64.ne(get('low'), i64.const(0)), i64.ltU(get('low'), i64.extend(get('s')))), [set('s', i32.wrap(get('low')))]),
        call('merge', get('at'), get('s')),
        call('push_cv', i32.add(i32.const(L.CVS), i32.shl(get('at'), 5))),
        i64.store(i32.const(L.COUNTER), i64.add(get('ctr'), i64.extend(get('s')))),
        set('at', i32.add(get('at'), get('s'))),
        set('n', i32.sub(get('n'), get('s'))),
      ]),
    ],
  });
}

/**
 * update(ptr, len): absorbs len / 1024 whole chunks (none of them the last
 * of the input): their CVs four at a time, then the subtrees.
 */
function update(): string {
  return func({
    name: 'update',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    body: [ifThen(get('len'), [call('chunk_cvs', get('ptr'), i32.shr(get('len'), 10)), call('absorb_cvs', i32.shr(get('len'), 10))])],
  });
}

/**
 * fold_root(cv): the root node at ROOT, from the CV at `cv` of the input's
 * last chunk (chunk COUNTER, not the first) and the stack: once the merges
 * the last push left pending are done, the chunk's CV is folded with the
 * stack entries from the top, and the last parent is the root.
 */
function foldRoot(): string {
  return func({
    name: 'fold_root',
    params: [['cv', 'i32']],
    locals: { d: 'i32' },
    body: [
      // Pending merges first: the stack is left with the complete subtrees left of the last chunk.
      ...mergePending('d'),
      // The chunk's CV is the right half of the next parent's block.
      memoryCopy(i32.const(L.ROOT_BLOCK + 32), get('cv'), i32.const(32)),
      set('d', depth()),
      whileLoop('fold', i32.gtU(get('d'), i32.const(1)), [
        set('d', i32.sub(get('d'), i32.const(1))),
        memoryCopy(i32.const(L.ROOT_BLOCK), stackEntry(get('d')), i32.const(32)),
        callParent(i32.const(L.ROOT_BLOCK), i32.const(L.ROOT_BLOCK + 32)),
      ]),
      memoryCopy(i32.const(L.ROOT_BLOCK), i32.const(L.STACK), i32.const(32)),
      memoryCopy(i32.const(L.ROOT_CV), i32.const(L.KEY), i32.const(32)),
      i32.store(i32.const(L.ROOT_LENGTH), i32.const(64)),
      i32.store(i32.const(L.ROOT_FLAGS), i32.or(modeFlags(), i32.const(L.PARENT | L.ROOT_FLAG))),
    ],
  });
}

/**
 * finish(ptr, len): the last chunk (len bytes, 0 only for an empty input)
 * and the stack make the root node at ROOT. A lone chunk is the root
 * itself; otherwise its CV goes to fold_root.
 */
function finish(): string {
  return func({
    name: 'finish',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    locals: { b: 'i32', last: 'i32', rest: 'i32', ctr: 'i64' },
    body: [
      set('ctr', i64.load(i32.const(L.COUNTER))),
      memoryCopy(i32.const(L.ROOT_CV), i32.const(L.KEY), i32.const(32)),
      // Blocks before the last: 0 for len <= 64.
      set('last', i32.shr(i32.sub(i32.add(get('len'), i32.eqz(get('len'))), i32.const(1)), 6)),
      set('b', i32.const(0)),
      whileLoop('block', i32.ltU(get('b'), get('last')), [
        callCompress(
          i32.const(L.ROOT_CV),
          i32.add(get('ptr'), i32.shl(get('b'), 6)),
          get('ctr'),
          i32.const(64),
          i32.or(modeFlags(), i32.eqz(get('b'))),
          i32.const(L.ROOT_CV),
        ),
        set('b', i32.add(get('b'), i32.const(1))),
      ]),
      set('rest', i32.sub(get('len'), i32.shl(get('last'), 6))),
      memoryFill(i32.const(L.ROOT_BLOCK), i32.const(64)),
      memoryCopy(i32.const(L.ROOT_BLOCK), i32.add(get('ptr'), i32.shl(get('last'), 6)), get('rest')),
      i32.store(i32.const(L.ROOT_LENGTH), get('rest')),
      i32.store(i32.const(L.ROOT_FLAGS), i32.or(modeFlags(), i32.or(i32.const(L.CHUNK_END), i32.eqz(get('last'))))),
      ifElse(
        depth(),
        [
          callCompress(i32.const(L.ROOT_CV), i32.const(L.ROOT_BLOCK), get('ctr'), word(L.ROOT_LENGTH), word(L.ROOT_FLAGS), i32.const(L.BLOCK)),
          call('fold_root', i32.const(L.BLOCK)),
        ],
        [i32.store(i32.const(L.ROOT_FLAGS), i32.or(word(L.ROOT_FLAGS), i32.const(L.ROOT_FLAG)))],
      ),
    ],
  });
}

/** fold(): merges the whole stack into one CV at STACK (non-root): the CV of a subtree built from BASE. */
function fold(): string {
  return func({
    name: 'fold',
    exported: true,
    body: [whileLoop('merge', i32.gtU(depth(), i32.const(1)), mergeTop())],
  });
}

/** output(ptr, blocks): root output blocks OUTPUT, OUTPUT + 1, ... to ptr, four at a time, then one at a time; advances OUTPUT. */
function output(): string {
  const advance = (n: number) => i64.store(i32.const(L.OUTPUT), i64.add(i64.load(i32.const(L.OUTPUT)), i64.const(n)));
  return func({
    name: 'output',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['blocks', 'i32'],
    ],
    body: [
      whileLoop('wide', i32.geU(get('blocks'), i32.const(4)), [
        call('output4', get('ptr')),
        advance(4),
        set('ptr', i32.add(get('ptr'), i32.const(256))),
        set('blocks', i32.sub(get('blocks'), i32.const(4))),
      ]),
      whileLoop('single', get('blocks'), [
        callCompress(i32.const(L.ROOT_CV), i32.const(L.ROOT_BLOCK), i64.load(i32.const(L.OUTPUT)), word(L.ROOT_LENGTH), word(L.ROOT_FLAGS), get('ptr'), 1),
        advance(1),
        set('ptr', i32.add(get('ptr'), i32.const(64))),
        set('blocks', i32.sub(get('blocks'), i32.const(1))),
      ]),
    ],
  });
}

/**
 * hash(ptr, len, blocks, iv): a whole input of len bytes at ptr, from a
 * fresh tree state (key and flags set, the rest zero; with `iv` the kernel
 * sets the key to the IV itself), and its first `blocks` output blocks
 * written over it: one call for a one-shot hash.
 */
function hash(): string {
  return func({
    name: 'hash',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['blocks', 'i32'],
      ['iv', 'i32'],
    ],
    locals: { whole: 'i32' },
    body: [
      ifThen(
        get('iv'),
        L.IV.map((w, i) => i32.store(i32.const(L.KEY), i32.const(w), 4 * i)),
      ),
      ifElse(
        i32.and(i32.gtU(get('len'), i32.const(1024)), i32.eqz(i32.and(get('len'), i32.const(1023)))),
        [
          // Whole chunks only: the last one's CV comes from the same 4-wide batch.
          call('chunk_cvs', get('ptr'), i32.shr(get('len'), 10)),
          call('absorb_cvs', i32.sub(i32.shr(get('len'), 10), i32.const(1))),
          call('fold_root', i32.add(i32.const(L.CVS - 32), i32.shr(get('len'), 5))),
        ],
        [
          // Every chunk but the last (which may be partial) goes through update.
          set('whole', i32.and(i32.sub(get('len'), i32.const(1)), i32.const(~1023))),
          ifThen(i32.leU(get('len'), i32.const(1024)), [set('whole', i32.const(0))]),
          call('update', get('ptr'), get('whole')),
          call('finish', i32.add(get('ptr'), get('whole')), i32.sub(get('len'), get('whole'))),
        ],
      ),
      call('output', get('ptr'), get('blocks')),
    ],
  });
}

/** wipe(end, tree): zeroes [0, end), and the CV scratch and stack when `tree`. */
function wipe(): string {
  return func({
    name: 'wipe',
    exported: true,
    params: [
      ['end', 'i32'],
      ['tree', 'i32'],
    ],
    body: [memoryFill(i32.const(0), get('end')), ifThen(get('tree'), [memoryFill(i32.const(L.TREE), i32.const(L.TREE_BYTES))])],
  });
}

/**
 * For the constant-time check: the tree state's counts are public (they
 * follow from the input's length and the mode alone, never its bytes),
 * and the kernel reads and writes them at fixed addresses.
 */
export const blake3Secrets: KernelSecrets = {
  publicMemory: [
    { start: L.FLAGS, end: L.FLAGS + 4, holds: 'the mode flags (hash, keyed_hash, derive_key)' },
    { start: L.DEPTH, end: L.DEPTH + 4, holds: 'the chaining values on the stack' },
    { start: L.COUNTER, end: L.OUTPUT + 8, holds: "the chunk counter, the subtree's first chunk, the output block counter" },
    { start: L.ROOT_LENGTH, end: L.ROOT_FLAGS + 4, holds: "the root node's block length and flags" },
  ],
};

/**
 * The chunk function's variants, each named by how it emits its byte
 * rotations (wasm/wat.ts rotlLanes); the runtime picks one per engine by
 * timing real calls (runtime/variants.ts), as for ChaCha, whose kernels
 * showed V8 11.3 and JavaScriptCore preferring i8x16.swizzle and newer V8
 * i8x16.shuffle. Parents and output, a small share of the work, use the
 * first variant.
 */
export const blake3Variants: ByteRotation[] = ['swizzle', 'shuffle'];

export function blake3Module(): string {
  return module(
    L.PAGES,
    [
      ...blake3Variants.flatMap((v) => [block4(v), chunks4(v)]),
      parents4(blake3Variants[0]),
      output4(blake3Variants[0]),
      compress(),
      chunk1(),
      chunkCvs(),
      merge(),
      pushCv(),
      absorbCvs(),
      update(),
      foldRoot(),
      finish(),
      fold(),
      output(),
      hash(),
      wipe(),
      ...variantFunctions(blake3Variants.length),
    ],
    [variantGlobal],
  );
}
