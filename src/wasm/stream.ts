/**
 * Generators shared by the 4-wide inter-block stream ciphers (ChaCha,
 * Salsa20). Both build a 64-byte block from a 16-word input state with a
 * 64-bit little-endian block counter in two adjacent words, run double
 * rounds of quarter rounds on it, add the input back (the feed-forward) and
 * XOR the result into the data; they differ in the quarter round, the
 * words each round takes, and where the counter sits. The cipher kernels
 * (chacha/kernel.ts, salsa/kernel.ts) keep those and pass them in; this
 * module holds what is the same:
 *
 * - the 4-wide groups: v128 local x_w holds word w of four consecutive
 *   blocks (lane i = block counter + i); only the output pass transposes,
 *   in registers, and XORs the keystream straight into the data;
 * - the XOR loop over a buffer: 8-block pairs, a 4-block group, a
 *   zero-padded last group or scalar blocks;
 * - the scalar XOR loop, with a partial last block through a scratch block.
 */
import {
  type Expr, call, declare, func, get, i32, i32x4, i64, ifThen, memoryCopy, memoryFill, regs, set, transpose4, v128, whileLoop,
} from './wat.js';

/** Where a kernel keeps its input state and scratch, and which state words count blocks. */
export interface StreamLayout {
  /** Offset of the 16-word input state in linear memory. */
  state: number;
  /** The state word holding the block counter's low half; the next word holds its high half. */
  counter: number;
  /** 64 bytes of scratch for a partial final block. */
  block: number;
  /** 256 bytes of scratch for a zero-padded last 4-block group; the kernel's wipe clears it. */
  tail: number;
}

/** The operations a quarter round needs, for 4-lane vectors or scalar words. */
export interface Arith {
  add(a: Expr, b: Expr): Expr;
  xor(a: Expr, b: Expr): Expr;
  rotl(a: Expr, bits: number): Expr;
}

export const scalarArith: Arith = { add: i32.add, xor: i32.xor, rotl: i32.rotl };

/** A quarter round on the locals `x` at the four word indices `words`. */
export type QuarterRound = (x: string[], words: number[]) => Expr[];

/** `body` (one double round) repeated while the local `counter`, the double rounds left, counts down to 0. */
export function roundLoop(counter: string, body: Expr[]): Expr {
  return whileLoop('round', get(counter), [...body, set(counter, i32.sub(get(counter), i32.const(1)))]);
}

/** Word w of the input state. */
const stateWord = (L: StreamLayout, w: number): Expr => i32.load(i32.const(L.state), 4 * w);

/** The input state into the scalar locals y0..y15. */
export const loadState = (L: StreamLayout, y: string[]): Expr[] => y.map((n, w) => set(n, stateWord(L, w)));

/** The feed-forward (RFC 8439 §2.3, Salsa20 specification §8) on scalar locals: each input word added back. */
export const addState = (L: StreamLayout, y: string[]): Expr[] => y.map((n, w) => set(n, i32.add(get(n), stateWord(L, w))));

/** The block counter, one 64-bit little-endian number. */
const counter64 = (L: StreamLayout): Expr => i64.load(i32.const(L.state), 4 * L.counter);

/** Moves the block counter `blocks` (an i64) on; the caller knows the blocks it used. */
export const advanceCounter = (L: StreamLayout, blocks: Expr): Expr => i64.store(i32.const(L.state), i64.add(counter64(L), blocks), 4 * L.counter);

/** Word w of the input state in all four lanes. */
const splat = (L: StreamLayout, w: number): Expr => v128.splat32(i32.const(L.state), 4 * w);

/**
 * The counter words of blocks first..first+3 into `low` and `high`: the low
 * word plus 0..3, and a carry into the high word in a lane where it wrapped.
 */
function counterLanes(L: StreamLayout, low: string, high: string, first: number): Expr[] {
  return [
    set(low, i32x4.add(splat(L, L.counter), v128.const32(first, first + 1, first + 2, first + 3))),
    // A lane whose low word wrapped is below the splatted start: lt_u gives -1 there.
    set(high, i32x4.sub(splat(L, L.counter + 1), i32x4.ltU(get(low), splat(L, L.counter)))),
  ];
}

const isCounter = (L: StreamLayout, w: number): boolean => w === L.counter || w === L.counter + 1;

/** Four blocks' input from the state: the words splatted into lanes, the counter words per lane. */
function initialVectors(L: StreamLayout, x: string[], first: number): Expr[] {
  return x.flatMap((n, w) => (w === L.counter ? counterLanes(L, n, x[w + 1], first) : isCounter(L, w) ? [] : [set(n, splat(L, w))]));
}

/** The feed-forward (RFC 8439 §2.3, Salsa20 specification §8) on four blocks: the input words added back, reloaded rather than kept in 16 more registers. */
function feedForward(L: StreamLayout, x: string[], t: string[], first: number): Expr[] {
  const [low, high] = [x[L.counter], x[L.counter + 1]];
  return [
    ...x.flatMap((n, w) => (isCounter(L, w) ? [] : [set(n, i32x4.add(get(n), splat(L, w)))])),
    ...counterLanes(L, t[0], t[1], first),
    set(low, i32x4.add(get(low), get(t[0]))),
    set(high, i32x4.add(get(high), get(t[1]))),
  ];
}

/** XORs four blocks of keystream (x, after the feed-forward) into the 256 bytes at ptr + at. */
function xorOut(x: string[], t: string[], at: number): Expr[] {
  const code: Expr[] = [];
  for (let group = 0; group < 4; group++) {
    const words = x.slice(4 * group, 4 * group + 4);
    // After the transpose, words[i] holds words 4*group..4*group+3 of block i.
    code.push(...transpose4(words, t, words.map(get)));
    for (let blk = 0; blk < 4; blk++) {
      const offset = at + 64 * blk + 16 * group;
      code.push(v128.store(get('ptr'), v128.xor(v128.load(get('ptr'), offset), get(words[blk])), offset));
    }
  }
  return code;
}

/** `name`(ptr, doubleRounds): four blocks of keystream XORed into the 256 bytes at `ptr`; the counter is not advanced. */
export function groupFunction(L: StreamLayout, name: string, rounds: (x: string[], counter: string) => Expr): string {
  const x = regs('x', 16), t = regs('t', 4);
  return func({
    name,
    params: [['ptr', 'i32'], ['doubleRounds', 'i32']],
    locals: { ...declare([...x, ...t], 'v128'), i: 'i32' },
    body: [...initialVectors(L, x, 0), set('i', get('doubleRounds')), rounds(x, 'i'), ...feedForward(L, x, t, 0), ...xorOut(x, t, 0)],
  });
}

/**
 * `name`(ptr, doubleRounds): two 4-wide groups (8 blocks, 512 bytes) with
 * their quarter-round steps interleaved; `doubleRound` lists the words of
 * a double round's quarter rounds, in order. A single group is bound by
 * its quarter rounds' chains of dependent operations, which the second
 * group's work fills; though 32 state vectors cannot stay in 16
 * registers, the independent second chain hides the spills' latency. A
 * third group was not worth its code size (docs/performance.md#stream-groups-chacha-and-salsa20).
 */
export function group8Function(L: StreamLayout, name: string, quarterRound: QuarterRound, doubleRound: number[][]): string {
  const x = regs('x', 16), y = regs('y', 16), t = regs('t', 4);
  const both = (words: number[]) => {
    const a = quarterRound(x, words), b = quarterRound(y, words);
    return a.flatMap((e, i) => [e, b[i]]);
  };
  return func({
    name,
    params: [['ptr', 'i32'], ['doubleRounds', 'i32']],
    locals: { ...declare([...x, ...y, ...t], 'v128'), i: 'i32' },
    body: [
      ...initialVectors(L, x, 0), ...initialVectors(L, y, 4),
      set('i', get('doubleRounds')),
      roundLoop('i', doubleRound.flatMap(both)),
      ...feedForward(L, x, t, 0), ...xorOut(x, t, 0),
      ...feedForward(L, y, t, 4), ...xorOut(y, t, 256),
    ],
  });
}

/** The functions a vector XOR calls, by name. */
export interface XorCallees {
  /** groupFunction's: four blocks. */
  group: string;
  /** group8Function's: eight blocks. */
  group8: string;
  /** scalarXorFunction's: whatever is left, a block at a time. */
  scalar: string;
}

/**
 * `name`(ptr, len, doubleRounds): XORs the keystream into [ptr, ptr + len)
 * and advances the counter past the blocks used. 8-block pairs while 512
 * bytes remain, then a 4-block group if 256 do. A remainder of more than 2
 * blocks costs less as one more group over a zero-padded copy in the tail
 * than as scalar blocks; up to 2 blocks go to the scalar function
 * (docs/performance.md#stream-groups-chacha-and-salsa20).
 */
export function vectorXorFunction(L: StreamLayout, name: string, callee: XorCallees): string {
  const callGroup = call(callee.group, get('ptr'), get('doubleRounds'));
  return func({
    name,
    exported: true,
    params: [['ptr', 'i32'], ['len', 'i32'], ['doubleRounds', 'i32']],
    locals: { tail: 'i32' },
    body: [
      whileLoop('pair', i32.geU(get('len'), i32.const(512)), [
        call(callee.group8, get('ptr'), get('doubleRounds')),
        advanceCounter(L, i64.const(8)),
        set('ptr', i32.add(get('ptr'), i32.const(512))),
        set('len', i32.sub(get('len'), i32.const(512))),
      ]),
      ifThen(i32.geU(get('len'), i32.const(256)), [
        callGroup,
        advanceCounter(L, i64.const(4)),
        set('ptr', i32.add(get('ptr'), i32.const(256))),
        set('len', i32.sub(get('len'), i32.const(256))),
      ]),
      ifThen(i32.gtU(get('len'), i32.const(128)), [
        set('tail', get('ptr')),
        memoryCopy(i32.const(L.tail), get('tail'), get('len')),
        memoryFill(i32.add(i32.const(L.tail), get('len')), i32.sub(i32.const(256), get('len'))),
        set('ptr', i32.const(L.tail)),
        callGroup,
        memoryCopy(get('tail'), i32.const(L.tail), get('len')),
        memoryFill(i32.const(L.tail), i32.const(256)),
        // Blocks used: ceil(len / 64).
        advanceCounter(L, i64.extend(i32.shr(i32.add(get('len'), i32.const(63)), 6))),
        set('len', i32.const(0)),
      ]),
      call(callee.scalar, get('ptr'), get('len'), get('doubleRounds')),
    ],
  });
}

/**
 * `name`(ptr, len, doubleRounds): whole blocks XORed a word at a time; a
 * final partial block through the scratch block. `block(y)` puts one
 * block's keystream (after the feed-forward) in the i32 locals y0..y15;
 * it may use the i32 local `i`.
 */
export function scalarXorFunction(L: StreamLayout, name: string, block: (y: string[]) => Expr[]): string {
  const y = regs('y', 16);
  return func({
    name,
    params: [['ptr', 'i32'], ['len', 'i32'], ['doubleRounds', 'i32']],
    locals: { ...declare(y, 'i32'), i: 'i32' },
    body: [
      whileLoop('block', i32.geU(get('len'), i32.const(64)), [
        ...block(y),
        ...y.map((n, w) => i32.store(get('ptr'), i32.xor(i32.load(get('ptr'), 4 * w), get(n)), 4 * w)),
        advanceCounter(L, i64.const(1)),
        set('ptr', i32.add(get('ptr'), i32.const(64))),
        set('len', i32.sub(get('len'), i32.const(64))),
      ]),
      ifThen(get('len'), [
        ...block(y),
        ...y.map((n, w) => i32.store(i32.const(L.block), get(n), 4 * w)),
        set('i', i32.const(0)),
        whileLoop('byte', i32.ltU(get('i'), get('len')), [
          i32.store8(i32.add(get('ptr'), get('i')), i32.xor(i32.load8(i32.add(get('ptr'), get('i'))), i32.load8(i32.add(get('i'), i32.const(L.block))))),
          set('i', i32.add(get('i'), i32.const(1))),
        ]),
        advanceCounter(L, i64.const(1)),
      ]),
    ],
  });
}
