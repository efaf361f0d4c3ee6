/**
 * The measurement, as the page's Worker runs it (measure.worker.ts), or
 * the page itself where it cannot start a Worker: the one-core part, the
 * all-cores part, then the large calls, scrypt, Argon2id and age (whose
 * fourfold/parallel columns take the workers the all-cores part started),
 * each a run of the benchmark core (runBenchmark), reported message by message. Only messages leave: the
 * caller keeps what arrived (report/collector.ts), so a run stopped
 * half-way still shows what it finished.
 */
import * as parallel from 'fourfold/parallel';
import { describeError } from '../../bench/core/errors.js';
import { runBenchmark } from '../../bench/core/run.js';
import type { EngineResult, PoolState, Progress } from '../../bench/core/types.js';
import type { ScalingPoint } from '../../bench/report/json.js';
import { scalingPoints } from '../../bench/report/scaling.js';
import { summarizeCase } from '../../bench/report/summary.js';
import { oneCoreConfig, largeConfig, scalingConfig, type Mode } from './plan.js';
import { joinRuns } from './results.js';

export type Phase = 'one-core' | 'all-cores' | 'large';

export interface MeasureRequest {
  readonly mode: Mode;
  /** The thread counts of the all-cores part (plan.ts threadCounts); none where there are no workers. */
  readonly threads: readonly number[];
  /** Package versions, fixed when the page was built. */
  readonly versions: Readonly<Record<string, string>>;
  /** The all-cores and large parts only: a second measuring Worker, after the first stopped answering while it started the pool's workers (main.ts). */
  readonly allCoresOnly?: boolean;
}

export type MeasureMessage =
  | { readonly type: 'progress'; readonly phase: Phase; readonly progress: Progress }
  | { readonly type: 'phase-done'; readonly phase: Phase; readonly result: EngineResult }
  /** One thread count of the all-cores part done: its speedups, from its own case. */
  | { readonly type: 'points'; readonly points: readonly ScalingPoint[] }
  /** The all-cores part did not run, or its workers did not all start: why. */
  | { readonly type: 'all-cores-skipped'; readonly reason: string; readonly pool?: PoolState }
  | { readonly type: 'done'; readonly pool?: PoolState }
  | { readonly type: 'failed'; readonly error: string }
  /** The answer to a 'where' request (the page asks when no message has come for a while): the step under way, and the pool. */
  | { readonly type: 'where'; readonly step: string; readonly pool: PoolState }
  /**
   * A step begins, said at once: a thread stuck in it cannot answer
   * 'where'. `pool`: the step starts fourfold/parallel's workers.
   */
  | { readonly type: 'step'; readonly step: string; readonly pool: boolean };

/** What the measurement is doing now, for where(). */
let step = 'starting';
/** Where 'step' messages go (measure()'s post). */
let announce: (message: MeasureMessage) => void = () => {};
/** Sets the step and says it to the page now (`pool`: the step starts workers). */
const stepTo = (s: string, pool = false): void => {
  step = s;
  announce({ type: 'step', step: s, pool });
};

/** The step under way and the pool's state: what the page shows when the measurement has said nothing for a while. */
export const where = (): MeasureMessage => ({ type: 'where', step, pool: poolState() });

const MiB = 1 << 20;

const poolState = (): PoolState => {
  const status = parallel.status();
  return {
    workers: status.workers,
    ready: status.ready,
    jobs: status.jobs,
    shared: status.shared,
    ...(status.failure === undefined ? {} : { failure: status.failure }),
  };
};

/** Whether the pool can start `workers` workers here: one call on a small input, then its status (the workers that started). */
async function probePool(workers: number): Promise<{ ok: true; pool: PoolState } | { ok: false; reason: string; pool: PoolState }> {
  parallel.configure({ workers });
  const data = new Uint8Array(4 * MiB);
  stepTo(`starting ${workers} worker${workers === 1 ? '' : 's'} of fourfold/parallel: its first call`, true);
  await parallel.chacha20(new Uint8Array(32), new Uint8Array(12), data);
  // Workers that were still starting take the next call's pieces; wait for them a little.
  for (let i = 0; i < 50 && parallel.status().ready < workers && parallel.status().failure === undefined; i++) {
    stepTo(`waiting for fourfold/parallel's workers to start: call ${i + 2}`, true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await parallel.chacha20(new Uint8Array(32), new Uint8Array(12), data);
  }
  const pool = poolState();
  if (pool.failure !== undefined) return { ok: false, reason: `fourfold/parallel could not start a worker here (${pool.failure})`, pool };
  if (pool.ready < workers) return { ok: false, reason: `fourfold/parallel started ${pool.ready} of ${workers} workers within 5 s`, pool };
  return { ok: true, pool };
}

/**
 * The one-core part; whether fourfold's simd tier was there (the
 * all-cores part times fourfold/parallel on it: bench/core/libraries.ts).
 */
async function measureOneCore(request: MeasureRequest, post: (message: MeasureMessage) => void): Promise<boolean> {
  step = 'one core: loading the libraries';
  const oneCore = await runBenchmark(oneCoreConfig(request.mode, { ...request.versions }), (progress) => {
    step = `one core: ${progress.label}`;
    post({ type: 'progress', phase: 'one-core', progress });
  });
  post({ type: 'phase-done', phase: 'one-core', result: oneCore });
  return oneCore.libraries.some((l) => l.name === 'fourfold');
}

/** The all-cores part, or why not; resolves to the pool as its probe found it, undefined when it did not run. */
async function measureAllCores(request: MeasureRequest, simd: boolean, post: (message: MeasureMessage) => void): Promise<PoolState | undefined> {
  if (request.threads.length === 0) {
    post({ type: 'all-cores-skipped', reason: 'the page measures on its own thread, without Web Workers' });
    return undefined;
  }
  if (!simd) {
    post({ type: 'all-cores-skipped', reason: "fourfold's simd tier is not available in this browser, and fourfold/parallel's columns are timed on it" });
    return undefined;
  }
  const most = Math.max(...request.threads) - 1;
  const probe = await probePool(most);
  if (!probe.ok) {
    post({ type: 'all-cores-skipped', reason: probe.reason, pool: probe.pool });
    return undefined;
  }
  // A case per thread count, fewest first: the pool ends the workers beyond a lowered size, so
  // counts interleaved in one case would restart workers between samples (plan.ts).
  const shared = probe.pool.shared;
  const runs: EngineResult[] = [];
  for (const [i, n] of request.threads.entries()) {
    const config = scalingConfig(request.mode, n, shared, { ...request.versions });
    const label = `${n} thread${n === 1 ? '' : 's'}`;
    const share = (fraction: number) => (i + fraction) / request.threads.length;
    // The workers start here, under a step that says so, rather than in the case's first call.
    stepTo(`all cores, ${label}: starting fourfold/parallel's workers`, true);
    parallel.configure({ workers: n - 1 });
    await parallel.warm();
    stepTo(`all cores, ${label}: loading the libraries`);
    const run = await runBenchmark(config, (progress) => {
      step = `all cores, ${label}, ${progress.label}`;
      post({ type: 'progress', phase: 'all-cores', progress: { ...progress, fraction: share(progress.fraction), label: `${label}, ${progress.label}` } });
    });
    runs.push(run);
    post({ type: 'points', points: scalingPoints({ ...run, cases: run.cases.map(summarizeCase), sweeps: [] }) });
  }
  post({ type: 'phase-done', phase: 'all-cores', result: joinRuns(runs) });
  // The workers that started, as the probe found them (the pool ends idle ones when its size is lowered).
  return probe.pool;
}

/** The large calls' part (scrypt, Argon2id, age); fourfold/parallel's columns only where the all-cores part found its workers (`pool`), on the pool's default size. */
async function measureLarge(request: MeasureRequest, pool: PoolState | undefined, post: (message: MeasureMessage) => void): Promise<void> {
  const pooled = pool !== undefined;
  if (pooled) {
    stepTo("scrypt, Argon2id and age: fourfold/parallel's workers on the default pool", true);
    parallel.configure({ workers: undefined });
    await parallel.warm();
  }
  stepTo('scrypt, Argon2id and age: loading the libraries');
  const result = await runBenchmark(largeConfig(request.mode, pooled, { ...request.versions }), (progress) => {
    step = `scrypt, Argon2id and age: ${progress.label}`;
    post({ type: 'progress', phase: 'large', progress });
  });
  post({ type: 'phase-done', phase: 'large', result });
}

export async function measure(request: MeasureRequest, post: (message: MeasureMessage) => void): Promise<void> {
  announce = post;
  try {
    const simd = request.allCoresOnly === true || (await measureOneCore(request, post));
    const pool = await measureAllCores(request, simd, post);
    await measureLarge(request, pool, post);
    post({ type: 'done', ...(pool === undefined ? {} : { pool }) });
    parallel.terminate();
  } catch (cause) {
    post({ type: 'failed', error: describeError(cause) });
  }
}
