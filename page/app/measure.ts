/**
 * The measurement, as the page's Worker runs it (measure.worker.ts), or
 * the page itself where it cannot start a Worker: the one-core part, then
 * the all-cores part, each a run of the benchmark core (runBenchmark),
 * reported message by message. Only messages leave: the caller keeps what
 * arrived (report/collector.ts), so a run stopped half-way still shows
 * what it finished.
 */
import * as parallel from 'fourfold/parallel';
import { describeError } from '../../bench/core/errors.js';
import { runBenchmark } from '../../bench/core/run.js';
import type { EngineResult, PoolState, Progress } from '../../bench/core/types.js';
import { oneCoreConfig, scalingConfig, type Mode } from './plan.js';

export type Phase = 'one-core' | 'all-cores';

export interface MeasureRequest {
  readonly mode: Mode;
  /** The thread counts of the all-cores part (plan.ts threadCounts); none where there are no workers. */
  readonly threads: readonly number[];
  /** Package versions, fixed when the page was built. */
  readonly versions: Readonly<Record<string, string>>;
}

export type MeasureMessage =
  | { readonly type: 'progress'; readonly phase: Phase; readonly progress: Progress }
  | { readonly type: 'phase-done'; readonly phase: Phase; readonly result: EngineResult }
  /** The all-cores part did not run, or its workers did not all start: why. */
  | { readonly type: 'all-cores-skipped'; readonly reason: string; readonly pool?: PoolState }
  | { readonly type: 'done'; readonly pool?: PoolState }
  | { readonly type: 'failed'; readonly error: string };

const MiB = 1 << 20;

/** Whether the pool can start `workers` workers here: one call on a small input, then its status. */
async function probePool(workers: number): Promise<{ ok: true } | { ok: false; reason: string; pool: PoolState }> {
  parallel.configure({ workers });
  const data = new Uint8Array(4 * MiB);
  await parallel.chacha20(new Uint8Array(32), new Uint8Array(12), data);
  // Workers that were still starting take the next call's pieces; wait for them a little.
  for (let i = 0; i < 50 && parallel.status().ready < workers && parallel.status().failure === undefined; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await parallel.chacha20(new Uint8Array(32), new Uint8Array(12), data);
  }
  const status = parallel.status();
  const pool: PoolState = { workers: status.workers, ready: status.ready, jobs: status.jobs, shared: status.shared, ...(status.failure === undefined ? {} : { failure: status.failure }) };
  if (status.failure !== undefined) return { ok: false, reason: `fourfold/parallel could not start a worker here (${status.failure})`, pool };
  if (status.ready < workers) return { ok: false, reason: `fourfold/parallel started ${status.ready} of ${workers} workers within 5 s`, pool };
  return { ok: true };
}

export async function measure(request: MeasureRequest, post: (message: MeasureMessage) => void): Promise<void> {
  try {
    const oneCore = await runBenchmark(oneCoreConfig(request.mode, { ...request.versions }), (progress) => post({ type: 'progress', phase: 'one-core', progress }));
    post({ type: 'phase-done', phase: 'one-core', result: oneCore });

    if (request.threads.length === 0) {
      post({ type: 'all-cores-skipped', reason: 'the page measures on its own thread, without Web Workers' });
      post({ type: 'done' });
      return;
    }
    // fourfold/parallel's columns are its simd tier's (bench/core/libraries.ts).
    if (!oneCore.libraries.some((l) => l.name === 'fourfold')) {
      post({ type: 'all-cores-skipped', reason: "fourfold's simd tier is not available in this browser, and fourfold/parallel's columns are timed on it" });
      post({ type: 'done' });
      return;
    }
    const most = Math.max(...request.threads) - 1;
    const probe = await probePool(most);
    if (!probe.ok) {
      post({ type: 'all-cores-skipped', reason: probe.reason, pool: probe.pool });
      post({ type: 'done', pool: probe.pool });
      return;
    }
    const shared = parallel.status().shared;
    const config = scalingConfig(request.mode, request.threads, shared, { ...request.versions });
    const allCores = await runBenchmark(config, (progress) => post({ type: 'progress', phase: 'all-cores', progress }));
    post({ type: 'phase-done', phase: 'all-cores', result: allCores });
    const status = parallel.status();
    post({ type: 'done', pool: { workers: status.workers, ready: status.ready, jobs: status.jobs, shared: status.shared, ...(status.failure === undefined ? {} : { failure: status.failure }) } });
    parallel.terminate();
  } catch (cause) {
    post({ type: 'failed', error: describeError(cause) });
  }
}
