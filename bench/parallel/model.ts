/**
 * The cost model of fourfold/parallel, measured on this machine, and the
 * speedups it projects on more cores (issue 17's bound and projection).
 *
 * A call of B bytes costs W on one thread (the synchronous function). In
 * parallel, n - 1 workers do their share of the pieces; the calling thread
 * does the rest, plus, for every byte that goes to a worker, the copies in
 * and out of a slot (c per byte, none for a SharedArrayBuffer view), plus
 * m per job for the messages and the continuation, plus the combination
 * of the pieces' results (Poly1305). With x the calling thread's share,
 * the two sides finish together when
 *
 *   x·W + (1 - x)·(c·B + m·J) = (1 - x)·W / (n - 1),    J = B / PIECE,
 *
 * so T(n) = x·W + (1 - x)·(c·B + m·J) (or c·B + m·J when the copies alone
 * outlast the workers: x = 0), and the speedup is W / T(n). It is a
 * model: it leaves out memory bandwidth shared between the cores and the
 * caches, which the 2-core measurement beside it checks.
 */
import { median } from '../core/stats.js';

export interface Costs {
  /** Milliseconds on one thread for the whole input. */
  readonly w: number;
  /** Milliseconds of copying per byte that goes through a slot (in and out). */
  readonly c: number;
  /** Milliseconds on the calling thread per job. */
  readonly m: number;
  readonly bytes: number;
  /** Bytes of a piece. */
  readonly piece: number;
}

/** The model's time for `cores` cores (the calling thread and cores - 1 workers). */
export function projectedMs(k: Costs, cores: number): number {
  if (cores <= 1) return k.w;
  const jobs = k.bytes / k.piece;
  const overhead = k.c * k.bytes + k.m * jobs;
  const workers = cores - 1;
  // x·W + (1 - x)·overhead = (1 - x)·W / workers
  const x = Math.max(0, (k.w / workers - overhead) / (k.w + k.w / workers - overhead));
  return x === 0 ? Math.max(overhead, k.w / workers) : x * k.w + (1 - x) * overhead;
}

/** The simpler bound: W / max((W + C) / n, C), C the copies of the whole input. */
export function boundSpeedup(k: Costs, cores: number): number {
  const copies = k.c * k.bytes;
  return k.w / Math.max((k.w + copies) / cores, copies);
}

/** Median milliseconds of `f` over `runs` runs after one warm-up. */
export async function timeMs(f: () => unknown, runs: number): Promise<number> {
  await f();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}
