/**
 * Argon2 with many lanes, m = 8p KiB (the least memory p allows), t = 1:
 * the longest event-loop block on the calling thread during
 * argon2idAsync, argon2Verify of a stored string and fourfold/parallel's
 * argon2id (a probe that takes every turn it can, as core/parallel.ts
 * longestTask's, with the process's CPU time in the longest gap: a gap
 * with little is the OS running other work), and how long after the
 * call's start each rejects when its AbortSignal fires at --abort ms.
 * Each lane costs two first blocks of 31 BLAKE2b compressions and the
 * tag's XOR, on the calling thread; these must go in turns as the rest.
 *
 *   node --import tsx bench/argon2-lanes.ts [--p=4096] [--abort=200] [--tiers=simd,js]
 *
 * Node only; run `npm run build` first (it imports fourfold's dist/).
 * Prints per tier and function the longest block, the call's time, the
 * abort latency and the progress told when it aborted; exits 1 when a
 * block reaches 100 ms or an abort comes 400 ms or more after the start.
 */
import { parseArgs } from 'node:util';

/** The bounds a server asks of a stored string with many lanes: the longest block, and the time from a call's start to its rejection. */
const BLOCK_MS = 100;
const ABORT_MS = 400;

const { values } = parseArgs({
  options: {
    p: { type: 'string', default: '4096' },
    abort: { type: 'string', default: '200' },
    tiers: { type: 'string', default: 'simd,js' },
  },
});
const p = Number(values.p);
const abortAt = Number(values.abort);
const m = 8 * p;
const maxmem = Math.max(2 ** 30 + 2 ** 16, m * 1024);

const { ready } = await import('fourfold');
const { argon2idAsync, argon2Verify } = await import('fourfold/argon2');
const parallel = await import('fourfold/parallel');

const password = 'correct horse battery staple';
const salt = 'fourfold bench salt';
/** A stored string of these parameters (its hash is not the password's: the call computes it all the same, then says false). */
const stored = `$argon2id$v=19$m=${m},t=1,p=${p}$${Buffer.from(salt).toString('base64').replace(/=+$/, '')}$${'A'.repeat(43)}`;

type Opts = { signal?: AbortSignal; onProgress?: (f: number) => void };
const functions: { name: string; call: (o: Opts) => Promise<unknown> }[] = [
  { name: 'argon2idAsync', call: (o) => argon2idAsync(password, salt, { t: 1, m, p, maxmem, ...o }) },
  { name: 'argon2Verify', call: (o) => argon2Verify(stored, password, { maxmem, ...(o.signal === undefined ? {} : { signal: o.signal }) }) },
  { name: "fourfold/parallel's argon2id", call: (o) => parallel.argon2id(password, salt, { t: 1, m, p, maxmem, ...o }) },
];

/** Milliseconds from the call's start to its rejection with the signal's reason, and the last progress told. */
async function abortLatency(f: (o: Opts) => Promise<unknown>): Promise<{ ms: number; progress: number }> {
  let progress = 0;
  const signal = AbortSignal.timeout(abortAt);
  const t0 = performance.now();
  try {
    await f({ signal, onProgress: (x) => (progress = x) });
  } catch (e) {
    if (e !== signal.reason) throw e;
    return { ms: performance.now() - t0, progress };
  }
  throw new Error('the call finished before its signal fired');
}

/** The longest gap between two turns of the event loop during `call`, the process's CPU time in it (workers' too), and the call's time and CPU time. */
async function longestBlock(call: () => Promise<unknown>): Promise<{ longestMs: number; cpuMs: number; callMs: number; callCpuMs: number }> {
  let longest = { ms: 0, cpu: 0 };
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let running = true;
  const probe = (): void => {
    const t = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    if (t - last > longest.ms) longest = { ms: t - last, cpu: (cpu.user + cpu.system) / 1000 };
    last = t;
    lastCpu = process.cpuUsage();
    if (running) setImmediate(probe);
  };
  setImmediate(probe);
  const start = performance.now();
  const startCpu = process.cpuUsage();
  try {
    await call();
  } finally {
    running = false;
  }
  const end = performance.now();
  const callCpu = process.cpuUsage(startCpu);
  if (end - last > longest.ms) longest = { ms: end - last, cpu: Number.NaN };
  return { longestMs: longest.ms, cpuMs: longest.cpu, callMs: end - start, callCpuMs: (callCpu.user + callCpu.system) / 1000 };
}

const ms = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
let status = 0;
for (const tier of values.tiers.split(',').filter((t) => t !== '')) {
  await ready({ tier: tier as 'simd' | 'js' });
  // The kernel compiled and the workers started before the measured calls.
  await argon2idAsync(password, salt, { t: 1, m: 1024, p: 4 });
  await parallel.argon2id(password, salt, { t: 1, m: 1024, p: 4 });
  console.log(`p = ${p}, m = ${m} KiB, t = 1, ${tier} tier (pool: ${parallel.status().ready} workers ready):`);
  for (const f of functions) {
    const taken = await longestBlock(() => f.call({}));
    const aborted = await abortLatency(f.call).catch((e: unknown) => e as Error);
    const abort = aborted instanceof Error ? aborted.message : `aborted ${ms(aborted.ms)} after the start (progress ${aborted.progress.toFixed(3)})`;
    console.log(
      `  ${f.name}: longest block ${ms(taken.longestMs)} (CPU ${ms(taken.cpuMs)}), ${ms(taken.callMs)} a call (CPU ${ms(taken.callCpuMs)}); signal at ${abortAt} ms: ${abort}`,
    );
    if (taken.longestMs >= BLOCK_MS || aborted instanceof Error || aborted.ms >= ABORT_MS) status = 1;
  }
}
parallel.terminate();
process.exit(status);
