/**
 * The engine side of harness/builds.ts: builds `A` and `B` (bundler aliases
 * of their dist/) taking turns sample by sample, into one reused output.
 * Each kernel's rotation variant is fixed to VARIANT in both, so the
 * variant picker's measuring rounds add no noise; Node's samples are the
 * process's CPU time (waiting for a core is not the code's).
 */
import { median } from '../core/stats.js';

// The builds come in as the aliases A and B (typed as this checkout's sources): dynamic imports with
// literal specifiers, which the bundler resolves and includes, and which the type checker leaves alone.
type Blake3Module = typeof import('../../src/blake3/index.js');
type ChachaModule = typeof import('../../src/chacha/index.js');
type SalsaModule = typeof import('../../src/salsa/index.js');
type KernelsModule = typeof import('../../src/runtime/kernels.js');
type ChachaWasm = typeof import('../../src/chachapoly/wasm.js');
type Blake3Wasm = typeof import('../../src/blake3/wasm.js');

async function load(which: 'A' | 'B') {
  const [blake3, chacha, salsa, kernels, chachaWasm, blake3Wasm] =
    which === 'A'
      ? await Promise.all([
          import('A/blake3/index.js' as string),
          import('A/chacha/index.js' as string),
          import('A/salsa/index.js' as string),
          import('A/runtime/kernels.js' as string),
          import('A/chachapoly/wasm.js' as string),
          import('A/blake3/wasm.js' as string),
        ])
      : await Promise.all([
          import('B/blake3/index.js' as string),
          import('B/chacha/index.js' as string),
          import('B/salsa/index.js' as string),
          import('B/runtime/kernels.js' as string),
          import('B/chachapoly/wasm.js' as string),
          import('B/blake3/wasm.js' as string),
        ]);
  return {
    blake3: blake3 as Blake3Module,
    chacha: chacha as ChachaModule,
    salsa: salsa as SalsaModule,
    ready: (kernels as KernelsModule).ready,
    chachaWasm: chachaWasm as ChachaWasm,
    blake3Wasm: blake3Wasm as Blake3Wasm,
  };
}
type Build = Awaited<ReturnType<typeof load>>;

declare const OPS: string, VARIANT: number, SAMPLES: number, SIZES: string;

const proc = (globalThis as { process?: { cpuUsage(): { user: number; system: number } } }).process;
const now = proc
  ? () => {
      const u = proc.cpuUsage();
      return (u.user + u.system) / 1000;
    }
  : () => performance.now();

const key = new Uint8Array(32).fill(7),
  nonce24 = new Uint8Array(24).fill(9),
  nonce12 = new Uint8Array(12);
const OPERATIONS: Record<string, (b: Build, data: Uint8Array, out: Uint8Array) => unknown> = {
  blake3: (b, d) => b.blake3.blake3(d),
  xchacha20poly1305: (b, d, o) => b.chacha.xchacha20poly1305(key, nonce24).encrypt(d, o.subarray(0, d.length + 16)),
  chacha20: (b, d, o) => b.chacha.chacha20(key, nonce12, d, o.subarray(0, d.length)),
  secretbox: (b, d, o) => b.salsa.secretbox(key, nonce24).seal(d, o.subarray(0, d.length + 16)),
};

/** From now on every call of `kernel`'s family runs `variant`: its picker neither times calls nor switches. */
function fixVariant(picker: { wants: unknown; run: unknown }, kernel: { k: { select_variant(i: number): void } }, variant: number): void {
  picker.wants = () => false;
  picker.run = (_length: number, call: () => unknown) => call();
  kernel.k.select_variant(variant);
}

export default async (context: { progress(message: string): void }) => {
  const builds: [Build, Build] = [await load('A'), await load('B')];
  for (const b of builds) await b.ready();
  const out = new Uint8Array((1 << 24) + 16);
  // One call of each op instantiates the kernels and makes the pickers.
  for (const op of Object.values(OPERATIONS)) for (const b of builds) op(b, new Uint8Array(64), out);
  for (const b of builds) {
    fixVariant(b.chachaWasm.chachaVariantPicker(b.chachaWasm.chachaKernel().k) as never, b.chachaWasm.chachaKernel(), VARIANT);
    fixVariant(b.blake3Wasm.blake3VariantPicker(b.blake3Wasm.blake3Kernel().k) as never, b.blake3Wasm.blake3Kernel(), VARIANT);
  }
  const results: Record<string, { a: number; b: number; ratio: number }> = {};
  for (const name of OPS.split(',')) {
    const op = OPERATIONS[name];
    if (op === undefined) throw new Error(`no op ${name} (${Object.keys(OPERATIONS).join(', ')})`);
    const warm = new Uint8Array(1 << 20);
    for (let i = 0; i < 20; i++) for (const b of builds) op(b, warm, out);
    for (const size of SIZES.split(',').map(Number)) {
      const data = new Uint8Array(size).fill(1);
      // Calls per sample: enough for 20 ms, so a coarse browser clock (1 ms in Firefox) adds under 5% to one sample.
      let reps = 1;
      for (;;) {
        const t0 = now();
        for (let r = 0; r < reps; r++) op(builds[0], data, out);
        if (now() - t0 >= 20) break;
        reps *= 2;
      }
      for (let i = 0; i < reps; i++) op(builds[1], data, out);
      const mbps: number[][] = [[], []];
      const ratios: number[] = [];
      for (let s = 0; s < SAMPLES; s++) {
        const pair: number[] = [];
        for (const which of s % 2 ? [1, 0] : [0, 1]) {
          const t0 = now();
          for (let r = 0; r < reps; r++) op(builds[which]!, data, out);
          pair[which] = (reps * size) / ((now() - t0) * 1000);
          mbps[which]!.push(pair[which]!);
        }
        ratios.push(pair[1]! / pair[0]!);
      }
      results[`${name} ${size}`] = { a: median(mbps[0]!), b: median(mbps[1]!), ratio: median(ratios) };
      context.progress(`${name} ${size}`);
    }
  }
  return results;
};
