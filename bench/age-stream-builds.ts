/**
 * age's decryptStream in two builds of fourfold, for a change's before
 * and after (the core harness's builds/ compares synchronous calls only).
 * Node only:
 *
 *   node --import tsx bench/age-stream-builds.ts --a=DIR --b=DIR [--processes=5] [--rounds=3] [--mib=256]
 *
 * DIR: a checkout with dist/ built (git worktree add, npm run build).
 * Each build runs in processes of its own, taking turns (A B, B A, A B,
 * ...), so that a shared machine's slow minute lands on both. A process
 * decrypts one file of --mib MiB as the bench's age-decrypt-stream does
 * (core/ops/age.ts: 64 KiB views in, the output read and dropped): once
 * each way to warm up, then --rounds rounds of fourfold/parallel's
 * decryptStream and fourfold/age's, interleaved. Reported per build: the
 * median over the processes of each process's median time, the range,
 * all cores over one thread, and the CPU time of the process per call
 * (its threads together: less noisy than the wall time on a machine
 * whose cores other work takes).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_IDENTITY, BENCH_RECIPIENT } from './core/age-cli.js';
import { drain, piecesOf } from './core/ops/age.js';

type AgeModule = typeof import('../src/age/index.js');
type ParallelModule = typeof import('../src/parallel/index.js');

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const MiB = 1 << 20;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One process's times (ms) and CPU times (ms) of each way. */
interface Measured {
  parallel: number[];
  one: number[];
  cpuParallel: number[];
  cpuOne: number[];
}

/** The child: `dir`'s build, a file of --mib MiB decrypted each way. */
async function child(dir: string): Promise<void> {
  const dist = (path: string) => pathToFileURL(resolve(dir, 'dist', path)).href;
  const one = (await import(dist('age/index.js'))) as AgeModule;
  const { age: all } = (await import(dist('parallel/index.js'))) as ParallelModule;
  const size = Number(args.mib ?? 256) * MiB;
  const plain = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) crypto.getRandomValues(plain.subarray(at, at + 65536));
  const file = await one.encrypt(plain, { recipients: [BENCH_RECIPIENT] });
  const from = { identities: [BENCH_IDENTITY] };
  const time = async (age: AgeModule | ParallelModule['age']): Promise<{ ms: number; cpu: number }> => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await drain(piecesOf(file).pipeThrough(age.decryptStream(from)));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (out.length !== Math.ceil(size / MiB)) throw new Error(`decryptStream gave ${out.length} MiB, not ${size / MiB}`);
    return { ms, cpu: (cpu.user + cpu.system) / 1000 };
  };
  await time(all);
  await time(one);
  const m: Measured = { parallel: [], one: [], cpuParallel: [], cpuOne: [] };
  for (let r = 0; r < Number(args.rounds ?? 3); r++) {
    const p = await time(all);
    const o = await time(one);
    m.parallel.push(p.ms);
    m.cpuParallel.push(p.cpu);
    m.one.push(o.ms);
    m.cpuOne.push(o.cpu);
  }
  console.log(JSON.stringify(m));
}

/** A process of `dir`'s build: its measurements. */
function run(dir: string): Measured {
  const self = fileURLToPath(import.meta.url);
  const rest = ['rounds', 'mib'].filter((k) => args[k] !== undefined).map((k) => `--${k}=${args[k]}`);
  const out = execFileSync(process.execPath, ['--import', 'tsx', self, `--child=${dir}`, ...rest], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Measured;
}

function parent(): void {
  const builds = { A: args.a, B: args.b };
  if (builds.A === undefined || builds.B === undefined) throw new Error('--a=DIR and --b=DIR: checkouts with dist/ built');
  const processes = Number(args.processes ?? 5);
  const seen = { A: [] as Measured[], B: [] as Measured[] };
  const load0 = loadavg()[0]!;
  for (let i = 0; i < processes; i++) {
    for (const name of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const m = run(builds[name]);
      seen[name].push(m);
      const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
      console.error(`${name} process ${i + 1}: all cores ${ms(m.parallel)} ms, one thread ${ms(m.one)} ms`);
    }
  }
  const spread = (xs: number[], digits = 0) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
  console.log(
    `Node ${process.versions.node}, decryptStream of ${args.mib ?? 256} MiB in 64 KiB writes, ${processes} processes per build (A B, B A, ...), each the median of ${args.rounds ?? 3} calls; load ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log('medians over the processes (range)');
  for (const name of ['A', 'B'] as const) {
    const of = (key: keyof Measured) => seen[name].map((m) => median(m[key]));
    const ratios = seen[name].map((m) => median(m.one) / median(m.parallel));
    console.log(`${name}: ${builds[name]}`);
    console.log(`  all cores    ${spread(of('parallel'))} ms, CPU ${spread(of('cpuParallel'))} ms`);
    console.log(`  one thread   ${spread(of('one'))} ms, CPU ${spread(of('cpuOne'))} ms`);
    console.log(`  all cores over one thread ${spread(ratios, 2)}`);
  }
}

if (args.child !== undefined) await child(args.child);
else parent();
