/**
 * BLAKE2b kernel generator (RFC 7693): the compression F over every block
 * of a slice, in WebAssembly's 64-bit integers.
 *
 * One message is one chain of compressions, each taking the last one's
 * output, and within a compression the chain of dependent steps is what
 * bounds the speed: G's add, xor, rotate, add, xor, rotate, twice. The
 * four G of a column (or diagonal) step are independent, and a 64-bit
 * word a local lets the engine's compiler run them side by side in
 * general registers, each rotation one instruction (i64.rotr).
 *
 * The vector form (a row of the work vector in two i64x2 registers, the
 * four columns at once, diagonals by shuffles, as BLAKE2's SSE4.1 code)
 * was measured first and ran at 0.62 times hash-wasm's speed at 64 KiB in
 * V8 11.3 (Node 20, AMD EPYC): it has the same chain of dependent steps,
 * each rotation by 63 two vector instructions and the others a shuffle
 * (no vector rotation in WebAssembly), plus the message words gathered
 * in pairs, the shuffles that make the diagonals, and the spills of
 * sixteen registers. This form ran at 1.14 times hash-wasm's. Written
 * again (a and c turned for the diagonals, rotations by pshufb/pshufd,
 * the message pairs by one two-input shuffle each): 0.50-0.56x hash-wasm
 * in Node 20, 0.58-0.64x in Node 26 and Deno, and BLAKE2's own SSE4.1 C
 * at gcc -O3 ran at 0.47 times its scalar C there (95 against 44 us):
 * that Zen 5 takes 2 cycles for a vector add, xor or shuffle and 1 for
 * a scalar one, and G's chain is all such steps
 * (docs/contributing/performance-history.md#blake2b-2026-11-28).
 *
 * Each block's 16 message words are read once, into locals, before the
 * rounds; the schedule (layout.ts SCHEDULE) is applied to the locals'
 * names, so no word moves at run time. h passes from block to block as
 * block()'s arguments and results, and is read from memory (H, T) when a
 * call starts and written back when it ends.
 *
 * Nothing depends on the data but the data: the loop's bounds, the final
 * flag and the counter come from the length and `final`, both public.
 */
import { H, IV, PAGES, ROUNDS, SCHEDULE, T } from './layout.js';
import type { KernelSecrets } from '../wasm/secrets.js';
import {
  type Expr,
  call,
  declare,
  doWhile,
  func,
  get,
  i32,
  i64,
  ifThen,
  interleave,
  memoryFill,
  module,
  regs,
  ret,
  select,
  set,
  setAll,
  wipeFunction,
} from '../wasm/wat.js';

/** The work vector v0..v15, the message words m0..m15 and the state h0..h7, one local each. */
const V = regs('v', 16);
const M = regs('m', 16);
const HS = regs('h', 8);

/** IV word i (RFC 7693 §2.6) as an i64 constant. */
const iv = (i: number): Expr => i64.const(BigInt.asIntN(64, (BigInt(IV[i][0] >>> 0) << 32n) | BigInt(IV[i][1] >>> 0)));

/** G (RFC 7693 §3.1) on words a, b, c, d of v with message words x and y; a + x first, off the chain that waits for b. */
function mix(a: number, b: number, c: number, d: number, x: number, y: number): Expr[] {
  const step = (m: number, r1: number, r2: number): Expr[] => [
    set(V[a], i64.add(i64.add(get(V[a]), get(M[m])), get(V[b]))),
    set(V[d], i64.rotr(i64.xor(get(V[d]), get(V[a])), r1)),
    set(V[c], i64.add(get(V[c]), get(V[d]))),
    set(V[b], i64.rotr(i64.xor(get(V[b]), get(V[c])), r2)),
  ];
  return [...step(x, 32, 24), ...step(y, 16, 63)];
}

/** Round r: G on the four columns, then on the four diagonals, each step's four G interleaved statement by statement. */
function round(r: number): Expr[] {
  const s = SCHEDULE[r % 10];
  return [
    ...interleave([mix(0, 4, 8, 12, s[0], s[1]), mix(1, 5, 9, 13, s[2], s[3]), mix(2, 6, 10, 14, s[4], s[5]), mix(3, 7, 11, 15, s[6], s[7])]),
    ...interleave([mix(0, 5, 10, 15, s[8], s[9]), mix(1, 6, 11, 12, s[10], s[11]), mix(2, 7, 8, 13, s[12], s[13]), mix(3, 4, 9, 14, s[14], s[15])]),
  ];
}

/**
 * block(ptr, t, last, h0..h7): one compression F of the block at ptr, the
 * counter t and the final flag `last` (0 or 1), returning the new h. A
 * function of its own (blake2NoInline), called once a block: V8 11.3 and
 * 14 ran a call of 2 to 16 blocks 110-120 ns slower when the blocks were
 * iterations of one loop in compress (2 blocks 285-309 ns against 173-203,
 * 8 blocks 750-829 against 651-702), the Zen 5 EPYC in Node 20; at 64 KiB
 * the call costs 2-3% (41.6-44.1 against 43.1-44.9 us).
 */
function block(): string {
  return func({
    name: 'block',
    params: [['ptr', 'i32'], ['t', 'i64'], ['last', 'i32'], ...HS.map((h): [string, 'i64'] => [h, 'i64'])],
    result: HS.map(() => 'i64' as const),
    locals: declare([...V, ...M], 'i64'),
    body: [
      ...M.map((m, i) => set(m, i64.load(get('ptr'), 8 * i))),
      ...V.slice(0, 8).map((v, i) => set(v, get(HS[i]))),
      ...[0, 1, 2, 3].map((i) => set(V[8 + i], iv(i))),
      // The counter's high word stays 0 (t < 2^53); the final flag f0 is all ones, f1 0 (no tree).
      set(V[12], i64.xor(iv(4), get('t'))),
      set(V[13], iv(5)),
      set(V[14], select(i64.xor(iv(6), i64.const(-1)), iv(6), get('last'))),
      set(V[15], iv(7)),
      ...Array.from({ length: ROUNDS }, (_, r) => round(r)).flat(),
      ...HS.map((h, i) => i64.xor(get(h), i64.xor(get(V[i]), get(V[i + 8])))),
    ],
  });
}

/** Functions binaryen must not inline (a pattern for its no-inline pass): block, one call a block. */
export const blake2NoInline = 'block';

/**
 * compress(ptr, len, final): the blocks at ptr into h (at H) and t (at T).
 * Not final: len / 128 whole blocks, none the last. Final: the input's
 * last ceil(len / 128) blocks, at least one, zero-padded in place, the
 * last with the final flag, its counter counting only its own bytes
 * (len - 128 * (blocks - 1), 0..128).
 */
function compress(): string {
  const last = i32.and(get('final'), i32.eq(get('count'), i32.const(1)));
  return func({
    name: 'compress',
    exported: true,
    params: [
      ['ptr', 'i32'],
      ['len', 'i32'],
      ['final', 'i32'],
    ],
    locals: { ...declare(HS, 'i64'), count: 'i32', rest: 'i32', t: 'i64' },
    body: [
      set('count', select(i32.shr(i32.add(get('len'), i32.const(127)), 7), i32.shr(get('len'), 7), get('final'))),
      set('count', select(i32.const(1), get('count'), i32.and(get('final'), i32.eqz(get('count'))))),
      ifThen(get('final'), [memoryFill(i32.add(get('ptr'), get('len')), i32.sub(i32.shl(get('count'), 7), get('len')))]),
      ifThen(i32.eqz(get('count')), [ret()]),
      set('rest', i32.sub(get('len'), i32.shl(i32.sub(get('count'), i32.const(1)), 7))),
      set('t', i64.load(i32.const(T))),
      ...HS.map((h, i) => set(h, i64.load(i32.const(H), 8 * i))),
      doWhile(
        'block',
        [
          set('t', i64.add(get('t'), i64.extend(select(get('rest'), i32.const(128), last)))),
          setAll(HS, call('block', get('ptr'), get('t'), last, ...HS.map((h) => get(h)))),
          set('ptr', i32.add(get('ptr'), i32.const(128))),
          set('count', i32.sub(get('count'), i32.const(1))),
        ],
        get('count'),
      ),
      ...HS.map((h, i) => i64.store(i32.const(H), get(h), 8 * i)),
      i64.store(i32.const(T), get('t')),
    ],
  });
}

/**
 * For the constant-time check: the counter t is the input's length so
 * far, public; h and the buffer (key block, message) are secret.
 */
export const blake2Secrets: KernelSecrets = {
  publicMemory: [{ start: T, end: T + 8, holds: 'the byte counter t: the length compressed so far' }],
};

/** The module: block, compress and wipe, on a fixed memory of PAGES pages (layout.ts). */
export function blake2Module(): string {
  return module(PAGES, [block(), compress(), wipeFunction()]);
}
