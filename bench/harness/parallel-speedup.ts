/**
 * fourfold/parallel against the synchronous functions, the calls interleaved
 * in several processes (the parallel profile times libraries one after the
 * other, so a shared machine's slow minute would land on one side only):
 *
 *   npm run bench:parallel -- [--mib=64] [--reps=11] [--processes=5]
 *        [--ops=chacha20,poly1305,...] [--arrays=new,reused,shared] [--busy=same|apart]
 *        [--workers=1,2,4,8,15] [--json=FILE]
 *
 * Each process checks both sides' bytes, then times --reps rounds and
 * reports median times and their ratio; the parent, per op, the median over
 * processes and the range. --busy keeps one core busy from another process
 * (`apart`: its own session, so Linux's autogroup schedules it as another
 * application). Decryption into a caller's output checks the tag before it
 * writes plaintext, two passes: twoPassFloor times them on the calling
 * thread alone, the most the pool can reach when its workers cannot help.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { median } from '../core/stats.js';
import { options } from './options.js';

type Arrays = 'new' | 'reused' | 'shared';

interface Measured {
  op: string;
  arrays: Arrays;
  workers: number | undefined;
  syncMs: number;
  parallelMs: number;
  speedup: number;
  /** The synchronous call against the two-pass floor on one thread (decryption into a caller's output). */
  floor?: number;
}

const args = options();
const list = (s: string | undefined): string[] | undefined => s?.split(',').filter((x) => x !== '');

/**
 * The least a decryption into `out` costs on one thread when no plaintext
 * may be written before the tag is checked: the ciphertext copied with its
 * Poly1305 polynomial, then decrypted in place (the tag's last blocks left
 * out: microseconds). From the sources, whose kernels are the package's.
 */
async function twoPassFloor(key: Uint8Array, nonce: Uint8Array): Promise<(sealed: Uint8Array, out: Uint8Array) => Uint8Array> {
  const S = await import('../../src/index.js');
  const { copyPolynomialHere } = await import('../../src/poly1305/polynomial.js');
  await S.ready();
  // XChaCha20-Poly1305's one-time key: the first 32 bytes of the keystream's block 0.
  const oneTimeKey = S.xchacha20(key, nonce, new Uint8Array(32));
  return (sealed, out) => {
    copyPolynomialHere()(oneTimeKey, true, sealed.subarray(0, sealed.length - 16), out).fill(0);
    return S.xchacha20(key, nonce, out, out, 1);
  };
}

/** One process: every op and way of passing arrays asked for, interleaved rounds; prints one JSON line per result. */
async function child(): Promise<void> {
  const F = await import('fourfold');
  const P = await import('fourfold/parallel');
  const n = Number(args.mib ?? 64) * (1 << 20);
  const reps = Number(args.reps ?? 11);
  const only = list(args.ops);
  const arraysAsked = (list(args.arrays) ?? ['new', 'reused', 'shared']) as Arrays[];
  const workers = args.workers === undefined ? undefined : Number(args.workers);
  if (workers !== undefined) P.configure({ workers });
  await F.ready();
  const data = randomFillSync(new Uint8Array(n));
  const key = randomFillSync(new Uint8Array(32));
  const n8 = new Uint8Array(8);
  const n12 = new Uint8Array(12);
  const n16 = new Uint8Array(16);
  const n24 = new Uint8Array(24);
  const sealed = F.xchacha20poly1305(key, n24).encrypt(data);
  const shared = (b: Uint8Array | number): Uint8Array => {
    const v = new Uint8Array(new SharedArrayBuffer(typeof b === 'number' ? b : b.length));
    if (typeof b !== 'number') v.set(b);
    return v;
  };
  // The arrays of each way: the input, the sealed input, and an output of the op's length (undefined: allocated by the call).
  const inputs = {
    new: { data, sealed, out: () => undefined },
    reused: { data, sealed, out: (length: number) => new Uint8Array(length).fill(1) },
    shared: { data: shared(data), sealed: shared(sealed), out: (length: number) => shared(length) },
  };
  /**
   * Per op: the output's length (0: none), and its call on the given arrays
   * through either module: fourfold/parallel's functions take fourfold's
   * arguments and resolve to what they return (awaited either way).
   */
  type Module = typeof F;
  type OpCall = (M: Module, d: Uint8Array, s: Uint8Array, o: Uint8Array | undefined) => Uint8Array;
  const ops: Record<string, { out: number; call: OpCall }> = {
    'xchacha20poly1305-encrypt': { out: n + 16, call: (M, d, _, o) => M.xchacha20poly1305(key, n24).encrypt(d, o) },
    'chacha20poly1305-encrypt': { out: n + 16, call: (M, d, _, o) => M.chacha20poly1305(key, n12).encrypt(d, o) },
    'xsalsa20poly1305-encrypt': { out: n + 16, call: (M, d, _, o) => M.xsalsa20poly1305(key, n24).encrypt(d, o) },
    'xchacha20poly1305-decrypt': { out: n, call: (M, _, s, o) => M.xchacha20poly1305(key, n24).decrypt(s, o) },
    chacha20: { out: n, call: (M, d, _, o) => M.chacha20(key, n12, d, o) },
    salsa20: { out: n, call: (M, d, _, o) => M.salsa20(key, n8, d, o) },
    poly1305: { out: 0, call: (M, d) => M.poly1305(d, key) },
    blake3: { out: 0, call: (M, d) => M.blake3(d) },
    'serpent-ctr': { out: n, call: (M, d, _, o) => M.serpent.ctr(key, n16).encrypt(d, o) },
  };
  const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;
  // Made for the first row that times it: it imports the sources and compiles their kernels.
  let floorOf: Awaited<ReturnType<typeof twoPassFloor>> | undefined;
  for (const [op, { out, call }] of Object.entries(ops)) {
    if (only !== undefined && !only.includes(op)) continue;
    for (const arrays of arraysAsked) {
      // A MAC or a hash has no output to reuse.
      if (arrays === 'reused' && out === 0) continue;
      const a = inputs[arrays];
      // Each side its own output, so that the check compares two results.
      const [syncOut, parallelOut] = out === 0 ? [] : [a.out(out), a.out(out)];
      const sync = () => call(F, a.data, a.sealed, syncOut);
      const parallel = async () => call(P as unknown as Module, a.data, a.sealed, parallelOut);
      const expected = (await sync()).slice();
      if (!same(expected, (await parallel()).slice())) throw new Error(`${op} (${arrays}): fourfold/parallel's bytes differ from the synchronous function's`);
      const floorOut = op === 'xchacha20poly1305-decrypt' && arrays !== 'new' ? a.out(out) : undefined;
      if (floorOut !== undefined) floorOf ??= await twoPassFloor(key, n24);
      const floor = floorOut === undefined ? undefined : () => floorOf!(a.sealed, floorOut);
      if (floor !== undefined && !same(expected, floor()))
        throw new Error(`${op} (${arrays}): the two-pass floor's bytes differ from the synchronous function's`);
      const s: number[] = [];
      const p: number[] = [];
      const f: number[] = [];
      for (let i = 0; i < reps; i++) {
        let t = performance.now();
        await sync();
        s.push(performance.now() - t);
        t = performance.now();
        await parallel();
        p.push(performance.now() - t);
        if (floor === undefined) continue;
        t = performance.now();
        floor();
        f.push(performance.now() - t);
      }
      const result: Measured = { op, arrays, workers, syncMs: median(s), parallelMs: median(p), speedup: median(s) / median(p) };
      if (floor !== undefined) result.floor = median(s) / median(f);
      console.log(JSON.stringify(result));
    }
  }
  P.terminate();
}

/** A process that keeps one core busy until it is killed; `apart` puts it in a session of its own. */
function busy(where: 'same' | 'apart'): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: where === 'apart' });
}

async function run(extra: string[]): Promise<Measured[]> {
  const script = fileURLToPath(import.meta.url);
  const passOn = process.argv.slice(2).filter((a) => !/^--(processes|busy|json|workers)=/.test(a));
  const proc = spawn(process.execPath, ['--import', 'tsx', script, '--child', ...passOn, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  if (code !== 0) throw new Error(`a measuring process exited with ${code}`);
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Measured);
}

async function parent(): Promise<void> {
  const processes = Number(args.processes ?? 5);
  const where = args.busy as 'same' | 'apart' | undefined;
  const workerCounts = list(args.workers)?.map(Number) ?? [undefined];
  const load = where === undefined ? undefined : busy(where);
  const all: Measured[] = [];
  try {
    console.log(
      `${args.mib ?? 64} MiB, ${args.reps ?? 11} interleaved rounds per process, ${processes} processes, node ${process.version}, ${availableParallelism()} logical cores` +
        (where === undefined ? '' : `, one core kept busy by another process (${where === 'same' ? 'same session' : 'a session of its own'})`),
    );
    for (const workers of workerCounts) {
      for (let i = 0; i < processes; i++) all.push(...(await run(workers === undefined ? [] : [`--workers=${workers}`])));
    }
  } finally {
    load?.kill('SIGKILL');
  }
  const keys = [...new Set(all.map((m) => `${m.op}|${m.arrays}|${m.workers ?? ''}`))];
  const rows = keys.map((k) => {
    const ms = all.filter((m) => `${m.op}|${m.arrays}|${m.workers ?? ''}` === k);
    const s = ms.map((m) => m.speedup);
    return {
      op: ms[0]!.op,
      arrays: ms[0]!.arrays,
      workers: ms[0]!.workers,
      median: median(s),
      min: Math.min(...s),
      max: Math.max(...s),
      syncMs: median(ms.map((m) => m.syncMs)),
      parallelMs: median(ms.map((m) => m.parallelMs)),
      processes: s.length,
      floor: ms.every((m) => m.floor !== undefined) ? median(ms.map((m) => m.floor!)) : undefined,
    };
  });
  for (const r of rows) {
    const w = r.workers === undefined ? '' : ` ${String(r.workers).padStart(2)} workers`;
    console.log(
      `${r.op.padEnd(26)} ${r.arrays.padEnd(6)}${w}  ${r.median.toFixed(2)}x (${r.min.toFixed(2)}-${r.max.toFixed(2)})  sync ${r.syncMs.toFixed(1)} ms, parallel ${r.parallelMs.toFixed(1)} ms` +
        (r.floor === undefined ? '' : `; two passes on one thread ${r.floor.toFixed(2)}x`),
    );
  }
  if (args.json !== undefined) writeFileSync(args.json, JSON.stringify({ args, rows, all }, null, 1));
}

if (args.child !== undefined || process.argv.includes('--child')) await child();
else await parent();
