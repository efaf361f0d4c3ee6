/**
 * Where node:crypto overtakes fourfold's own tiers: src/chacha/crossovers.ts's
 * table for this runtime on this processor.
 *
 *   npm run bench:crossovers                     # Node (the one on PATH)
 *   deno run -A bench/harness/crossovers.ts      # from the repository root
 *
 * Sizes from 64 B by √2, each side interleaved in short rounds (the fastest
 * round each), then around the crossover by 2^(1/8) in long rounds (medians):
 * the smallest size from which node:crypto was faster at every size above.
 */
import { cpuVendor, jsChacha, nativeOpen, nativeSeal, nativeXor, RUNTIME, simdChacha, type ChachaEngine, type NodeCrypto } from '../../dist/testing.js';

const crypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto;
const now = () => performance.now();
const ROUNDS = 7;
const SIZES: number[] = [];
for (let s = 64; s <= 256 * 1024; s = Math.round((s * Math.SQRT2) / 16) * 16) SIZES.push(s);

const key = Uint8Array.from({ length: 32 }, (_, i) => i);
const n12 = Uint8Array.from({ length: 12 }, (_, i) => i + 1);
const n24 = Uint8Array.from({ length: 24 }, (_, i) => i + 1);
const aad = new Uint8Array(0);

type Op = (engine: ChachaEngine, native: boolean, data: Uint8Array) => unknown;
function sealOp(nonce: Uint8Array): Op {
  return (e, native, d) => (native ? nativeSeal(crypto, e, key, nonce, aad, d) : e.seal(key, nonce, aad, d));
}
const openOp = (nonce: Uint8Array): Op => {
  const sealed = new Map<number, Uint8Array>();
  return (e, native, d) => {
    let s = sealed.get(d.length);
    if (s === undefined) sealed.set(d.length, (s = e.seal(key, nonce, aad, d)));
    const body = s.subarray(0, d.length);
    const tag = s.subarray(d.length);
    return native ? nativeOpen(crypto, e, key, nonce, aad, body, tag) : e.open(key, nonce, aad, body, tag);
  };
};
function xorOp(nonce: Uint8Array): Op {
  return (e, native, d) => (native ? nativeXor(crypto, e, key, nonce, 0, 0, d) : e.xor(key, nonce, 0, 0, 10, d));
}

const OPS: Record<string, Op> = { seal: sealOp(n12), open: openOp(n12), xseal: sealOp(n24), xopen: openOp(n24), chacha20: xorOp(n12), xchacha20: xorOp(n24) };

/** Milliseconds per call of `f`, over at least `ms`. */
function perCall(f: () => unknown, ms: number): number {
  for (let reps = 1; ; reps *= 2) {
    const t = now();
    for (let i = 0; i < reps; i++) f();
    const elapsed = now() - t;
    if (elapsed >= ms) return elapsed / reps;
  }
}

/** How a size is timed: rounds of at least `ms` each, `rounds` of them per side, summed up by `pick`. */
interface Timing {
  readonly ms: number;
  readonly rounds: number;
  readonly pick: (times: number[]) => number;
}

/** The coarse pass: short rounds, each side's fastest (a collection lands in one round or another). */
const SHORT: Timing = { ms: 8, rounds: ROUNDS, pick: (t) => Math.min(...t) };
/**
 * Around a crossover: rounds long enough to hold the rare full collections
 * a side's new arrays bring (in Deno the kernels' seal lost 5-20% at 8-12
 * KiB that 8 ms rounds missed), each side's median.
 */
const LONG: Timing = { ms: 60, rounds: 5, pick: (t) => [...t].sort((a, b) => a - b)[t.length >> 1]! };

/** fourfold's time over node:crypto's at each of `sizes`. */
function ratios(op: Op, engine: ChachaEngine, sizes: number[], timing: Timing): number[] {
  return sizes.map((size) => {
    const data = new Uint8Array(size).fill(5);
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let r = 0; r < timing.rounds; r++) {
      mine.push(perCall(() => op(engine, false, data), timing.ms));
      theirs.push(perCall(() => op(engine, true, data), timing.ms));
    }
    return timing.pick(mine) / timing.pick(theirs);
  });
}

/** The smallest of `sizes` (ascending) from which node:crypto was faster at every size measured above it; Infinity if none. */
function crossoverOf(sizes: number[], r: number[]): number {
  let from = sizes.length;
  while (from > 0 && r[from - 1]! >= 1) from--;
  return from < sizes.length ? sizes[from]! : Infinity;
}

/** The sizes strictly between `below` and `above` at steps of 2^(1/8), multiples of 16: a √2 step cut in four. */
function between(below: number, above: number): number[] {
  const sizes: number[] = [];
  for (let i = 1; i < 4; i++) sizes.push(Math.round((below * 2 ** (i / 8)) / 16) * 16);
  return sizes.filter((s) => s > below && s < above);
}

const table: Record<string, Record<string, number>> = { simd: {}, js: {} };
for (const [tier, engine] of [
  ['simd', simdChacha],
  ['js', jsChacha],
] as const) {
  for (const [name, op] of Object.entries(OPS)) {
    const r = ratios(op, engine, SIZES, SHORT);
    const coarse = crossoverOf(SIZES, r);
    const at = SIZES.indexOf(coarse);
    console.log(`${RUNTIME} ${tier} ${name}: ${SIZES.map((s, i) => `${s}:${r[i]!.toFixed(2)}`).join(' ')}`);
    if (at < 0) {
      table[tier]![name] = coarse;
      continue;
    }
    // The √2 grid puts a crossover up to 41% past the true one, and short rounds can put it a step off:
    // two steps below it and one above, each cut in four, are timed again in long rounds.
    const grid = SIZES.slice(Math.max(0, at - 2), at + 2);
    const region = [...new Set(grid.flatMap((size, i) => (i === 0 ? [size] : [...between(grid[i - 1]!, size), size])))];
    const rr = ratios(op, engine, region, LONG);
    console.log(`${RUNTIME} ${tier} ${name}, long rounds: ${region.map((s, i) => `${s}:${rr[i]!.toFixed(2)}`).join(' ')}`);
    // Above the region the short rounds stand (node:crypto won at every size there).
    table[tier]![name] = crossoverOf([...region, ...SIZES.slice(at + 2)], [...rr, ...r.slice(at + 2)]);
  }
}
const row = (t: Record<string, number>) =>
  `{ ${Object.entries(t)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')} }`;
console.log(`\n  ${cpuVendor() ?? 'an unknown processor'}: {\n    ${RUNTIME}: {\n      simd: ${row(table.simd!)},\n      js: ${row(table.js!)},\n    },\n  },`);
