/**
 * Generators shared by the 4-wide inter-block stream ciphers (ChaCha,
 * Salsa20). Both build a 64-byte block from a 16-word input state with a
 * 64-bit little-endian block counter in two adjacent words, run double
 * rounds of quarter rounds on it, add the input back (the feed-forward) and
 * XOR the result into the data; they differ in the quarter round, the
 * words each round takes, and where the counter sits. The cipher kernels
 * (chacha/kernel.ts, salsa/kernel.ts) describe those as a StreamCipher;
 * this module holds what is the same:
 *
 * - the rounds and the block function on scalar words;
 * - the 4-wide groups: v128 local x_w holds word w of four consecutive
 *   blocks (lane i = block counter + i); only the output pass transposes,
 *   in registers, and XORs the keystream straight into the data;
 * - the XOR loop over a buffer: 8-block pairs, a 4-block group, a
 *   zero-padded last group or scalar blocks;
 * - the scalar XOR loop, with a partial last block through a scratch block;
 * - the subkey function of the extended-nonce variants (HChaCha20, HSalsa20);
 * - for the AEADs on them: keystream from memory XORed into a short
 *   message, and a slice's two passes (encrypt and MAC) in one call.
 */
import { type Arith, counterLanes, scalarArith } from './arx.js';
import {
  type Expr,
  call,
  declare,
  func,
  get,
  i32,
  i32x4,
  i64,
  ifThen,
  interleave,
  memoryCopy,
  memoryFill,
  regs,
  set,
  transpose4,
  v128,
  whileLoop,
} from './wat.js';

/** A stream cipher's rounds, and where its kernel keeps the input state and scratch. */
export interface StreamCipher {
  /** Offset of the 16-word input state in linear memory. */
  state: number;
  /** The state word holding the block counter's low half; the next word holds its high half. */
  counter: number;
  /** 64 bytes of scratch for a partial final block. */
  block: number;
  /** 256 bytes of scratch for a zero-padded last 4-block group; the kernel's wipe clears it. */
  tail: number;
  /** The quarter round on the locals `x` at the four state words `words`. */
  quarterRound(m: Arith, x: string[], words: number[]): Expr[];
  /** The state words of a double round's quarter rounds, in order. */
  doubleRound: number[][];
}

/** `body` (one double round) repeated while the local `counter`, the double rounds left, counts down to 0. */
export function roundLoop(counter: string, body: Expr[]): Expr {
  return whileLoop('round', get(counter), [...body, set(counter, i32.sub(get(counter), i32.const(1)))]);
}

/** The double rounds on the locals `x`, as many as the local `counter` says. */
function rounds(c: StreamCipher, m: Arith, x: string[], counter: string): Expr {
  return roundLoop(
    counter,
    c.doubleRound.flatMap((words) => c.quarterRound(m, x, words)),
  );
}

/**
 * One double round on two blocks' locals `x` and `y` at once, their
 * quarter rounds' steps interleaved: the two chains are independent, so
 * either fills the other's latency.
 */
export function twoChains(c: StreamCipher, m: Arith, x: string[], y: string[]): Expr[] {
  return c.doubleRound.flatMap((words) => interleave([c.quarterRound(m, x, words), c.quarterRound(m, y, words)]));
}

/** ChaCha20 and Salsa20 are 20 rounds: 10 double rounds (RFC 8439 §2.3, Salsa20 specification §8). */
export const DOUBLE_ROUNDS = 10;

/** Word w of the input state. */
export const stateWord = (c: StreamCipher, w: number): Expr => i32.load(i32.const(c.state), 4 * w);

/** Sets word w of the input state. */
export const setStateWord = (c: StreamCipher, w: number, value: Expr): Expr => i32.store(i32.const(c.state), value, 4 * w);

/** The address of word w of the input state. */
export const stateAddress = (c: StreamCipher, w: number): Expr => i32.const(c.state + 4 * w);

/** The input state into the scalar locals y0..y15. */
export const loadState = (c: StreamCipher, y: string[]): Expr[] => y.map((n, w) => set(n, stateWord(c, w)));

/** The feed-forward (RFC 8439 §2.3, Salsa20 specification §8) on scalar locals: each input word added back. */
export const addState = (c: StreamCipher, y: string[]): Expr[] => y.map((n, w) => set(n, i32.add(get(n), stateWord(c, w))));

/**
 * The block function (RFC 8439 §2.3, Salsa20 specification §8) into the
 * scalar locals y0..y15: the state, the rounds (the i32 locals
 * `doubleRounds` and `i`), and (when `addBack`) the state added back,
 * which HChaCha20 and HSalsa20 leave out.
 */
function scalarBlock(c: StreamCipher, y: string[], addBack: boolean): Expr[] {
  return [...loadState(c, y), set('i', get('doubleRounds')), rounds(c, scalarArith, y, 'i'), ...(addBack ? addState(c, y) : [])];
}

/** The block counter, one 64-bit little-endian number. */
const counter64 = (c: StreamCipher): Expr => i64.load(i32.const(c.state), 4 * c.counter);

/** Moves the block counter `blocks` (an i64) on; the caller knows the blocks it used. */
export const advanceCounter = (c: StreamCipher, blocks: Expr): Expr => i64.store(i32.const(c.state), i64.add(counter64(c), blocks), 4 * c.counter);

/** The params ptr and len moved past `bytes` bytes of data (whole blocks), and the counter past their blocks. */
const pastBlocks = (c: StreamCipher, bytes: number): Expr[] => [
  advanceCounter(c, i64.const(bytes / 64)),
  set('ptr', i32.add(get('ptr'), i32.const(bytes))),
  set('len', i32.sub(get('len'), i32.const(bytes))),
];

/** Word w of the input state in all four lanes. */
const splat = (c: StreamCipher, w: number): Expr => v128.splat32(i32.const(c.state), 4 * w);

/** The counter words of blocks first..first+3 (the state's counter + first + lane) into `low` and `high`. */
const blockCounters = (c: StreamCipher, low: string, high: string, first: number): Expr[] =>
  counterLanes(low, high, splat(c, c.counter), splat(c, c.counter + 1), first);

const isCounter = (c: StreamCipher, w: number): boolean => w === c.counter || w === c.counter + 1;

/** Four blocks' input from the state: the words splatted into lanes, the counter words per lane. */
function initialVectors(c: StreamCipher, x: string[], first: number): Expr[] {
  return x.flatMap((n, w) => (w === c.counter ? blockCounters(c, n, x[w + 1], first) : isCounter(c, w) ? [] : [set(n, splat(c, w))]));
}

/** The feed-forward (RFC 8439 §2.3, Salsa20 specification §8) on four blocks: the input words added back, reloaded rather than kept in 16 more registers. */
function feedForward(c: StreamCipher, x: string[], t: string[], first: number): Expr[] {
  const [low, high] = [x[c.counter], x[c.counter + 1]];
  return [
    ...x.flatMap((n, w) => (isCounter(c, w) ? [] : [set(n, i32x4.add(get(n), splat(c, w)))])),
    ...blockCounters(c, t[0], t[1], first),
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
export function groupFunction(c: StreamCipher, name: string, m: Arith): string {
  const x = regs('x', 16),
    t = regs('t', 4);
  return func({
    name,
    params: [
      ['ptr', 'i32'],
      ['doubleRounds', 'i32'],
    ],
    locals: { ...declare([...x, ...t], 'v128'), i: 'i32' },
    body: [...initialVectors(c, x, 0), set('i', get('doubleRounds')), rounds(c, m, x, 'i'), ...feedForward(c, x, t, 0), ...xorOut(x, t, 0)],
  });
}

/**
 * `name`(ptr, doubleRounds): two 4-wide groups (8 blocks, 512 bytes) with
 * their quarter-round steps interleaved (twoChains). A single group is bound by
 * its quarter rounds' chains of dependent operations, which the second
 * group's work fills; though 32 state vectors cannot stay in 16
 * registers, the independent second chain hides the spills' latency. A
 * third group was not worth its code size
 * (docs/contributing/performance-history.md#stream-groups-chacha-and-salsa20).
 */
export function group8Function(c: StreamCipher, name: string, m: Arith): string {
  const x = regs('x', 16),
    y = regs('y', 16),
    t = regs('t', 4);
  return func({
    name,
    params: [
      ['ptr', 'i32'],
      ['doubleRounds', 'i32'],
    ],
    locals: { ...declare([...x, ...y, ...t], 'v128'), i: 'i32' },
    body: [
      ...initialVectors(c, x, 0),
      ...initialVectors(c, y, 4),
      set('i', get('doubleRounds')),
      roundLoop('i', twoChains(c, m, x, y)),
      ...feedForward(c, x, t, 0),
      ...xorOut(x, t, 0),
      ...feedForward(c, y, t, 4),
      ...xorOut(y, t, 256),
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
 * (docs/contributing/performance-history.md#stream-groups-chacha-and-salsa20).
 */
export function vectorXorFunction(c: StreamCipher, name: string, callee: XorCallees): string {
  const callGroup = call(callee.group, get('ptr'), get('doubleRounds'));
  return func({
    name,
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['doubleRounds', 'i32'],
    ],
    locals: { tail: 'i32' },
    body: [
      whileLoop('pair', i32.geU(get('len'), i32.const(512)), [call(callee.group8, get('ptr'), get('doubleRounds')), ...pastBlocks(c, 512)]),
      ifThen(i32.geU(get('len'), i32.const(256)), [callGroup, ...pastBlocks(c, 256)]),
      ifThen(i32.gtU(get('len'), i32.const(128)), [
        set('tail', get('ptr')),
        memoryCopy(i32.const(c.tail), get('tail'), get('len')),
        memoryFill(i32.add(i32.const(c.tail), get('len')), i32.sub(i32.const(256), get('len'))),
        set('ptr', i32.const(c.tail)),
        callGroup,
        memoryCopy(get('tail'), i32.const(c.tail), get('len')),
        memoryFill(i32.const(c.tail), i32.const(256)),
        // Blocks used: ceil(len / 64).
        advanceCounter(c, i64.extend(i32.shr(i32.add(get('len'), i32.const(63)), 6))),
        set('len', i32.const(0)),
      ]),
      call(callee.scalar, get('ptr'), get('len'), get('doubleRounds')),
    ],
  });
}

/**
 * `name`(ptr, len, doubleRounds): whole blocks XORed a word at a time; a
 * final partial block through the scratch block.
 */
export function scalarXorFunction(c: StreamCipher, name: string): string {
  const y = regs('y', 16);
  return func({
    name,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['doubleRounds', 'i32'],
    ],
    locals: { ...declare(y, 'i32'), i: 'i32' },
    body: [
      whileLoop('block', i32.geU(get('len'), i32.const(64)), [
        ...scalarBlock(c, y, true),
        ...y.map((n, w) => i32.store(get('ptr'), i32.xor(i32.load(get('ptr'), 4 * w), get(n)), 4 * w)),
        ...pastBlocks(c, 64),
      ]),
      ifThen(get('len'), [
        ...scalarBlock(c, y, true),
        ...y.map((n, w) => i32.store(i32.const(c.block), get(n), 4 * w)),
        set('i', i32.const(0)),
        whileLoop('byte', i32.ltU(get('i'), get('len')), [
          i32.store8(i32.add(get('ptr'), get('i')), i32.xor(i32.load8(i32.add(get('ptr'), get('i'))), i32.load8(i32.add(get('i'), i32.const(c.block))))),
          set('i', i32.add(get('i'), i32.const(1))),
        ]),
        advanceCounter(c, i64.const(1)),
      ]),
    ],
  });
}

/**
 * `name`(doubleRounds): the subkey function of an extended-nonce variant
 * (HChaCha20, draft-irtf-cfrg-xchacha-03 §2.2; HSalsa20, "Extending the
 * Salsa20 nonce" §2): the rounds on the state without the feed-forward,
 * then its words `words` stored in order at `out`.
 */
export function subkeyFunction(c: StreamCipher, name: string, words: readonly number[], out: number): string {
  const y = regs('y', 16);
  return func({
    name,
    exported: true,
    params: [['doubleRounds', 'i32']],
    locals: { ...declare(y, 'i32'), i: 'i32' },
    body: [...scalarBlock(c, y, false), ...words.map((w, k) => i32.store(i32.const(out), get(y[w]), 4 * k))],
  });
}

/**
 * `name`(ptr, len), exported: the functions `passes` called in order on
 * the slice [ptr, ptr + len), as an AEAD encrypts then MACs a slice, or
 * MACs then decrypts it.
 */
export function slicePasses(name: string, passes: string[]): string {
  return func({
    name,
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
    ],
    body: passes.map((f) => call(f, get('ptr'), get('len'))),
  });
}

/**
 * XORs keystream already in memory at `keystream` into the data at the
 * param `ptr`, 16 bytes at a time while the i32 local `i` is below `end`
 * (the bytes up to the next multiple of 16 are scratch).
 */
export function xorFromMemory(keystream: number, end: Expr): Expr[] {
  return [
    set('i', i32.const(0)),
    whileLoop('keystream', i32.ltU(get('i'), end), [
      v128.store(i32.add(get('ptr'), get('i')), v128.xor(v128.load(i32.add(get('ptr'), get('i'))), v128.load(get('i'), keystream))),
      set('i', i32.add(get('i'), i32.const(16))),
    ]),
  ];
}
