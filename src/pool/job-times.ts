/**
 * Rule 4's clock (docs/parallel.md): when each job in flight is expected
 * to start and end on its worker, from the worker's measured speed, and
 * when a running job turns late. Shared by a call's scheduler (in-flight.ts)
 * and a stream's (in-order.ts).
 */
import type { PoolWorker } from './pool-worker.js';
import { now } from '../runtime/host.js';

/** A running job is late once it overruns its expected time by this share of it, and at least LATE_MS. */
const LATE_SHARE = 0.5;
export const LATE_MS = 1;

/**
 * Each worker's speed, in milliseconds per byte of its recent jobs
 * (answer time less start time), kept across calls and streams: the first
 * estimate of a worker is the calling thread's speed.
 */
const speeds = new WeakMap<PoolWorker, number>();

/** A job as the clock sees it: its worker, when it was posted, its bytes. */
export interface Timed {
  readonly w: PoolWorker;
  readonly posted: number;
  readonly length: number;
}

/** When a running job expected over [start, end] turns late. */
export const lateAt = (start: number, end: number): number => end + Math.max(LATE_MS, LATE_SHARE * (end - start));

/** One scheduler's clock: its workers' last answers, for the start of their next jobs. */
export class JobTimes {
  private readonly lastAnswer = new Map<PoolWorker, number>();

  /** A job's answer came; `ran`: false for a job taken back before it started (no speed to learn). */
  answered(job: Timed, ran: boolean): void {
    const t = now();
    if (ran) {
      const rate = (t - Math.max(job.posted, this.lastAnswer.get(job.w) ?? 0)) / job.length;
      const old = speeds.get(job.w);
      speeds.set(job.w, old === undefined ? rate : 0.7 * old + 0.3 * rate);
    }
    this.lastAnswer.set(job.w, t);
  }

  /**
   * When each of `jobs` (in the order they were posted; `timed` says how
   * the clock sees one) is expected to start and end, each worker running
   * its jobs in posting order; `hereRate` (ms per byte) for a worker not
   * timed yet.
   */
  expected<J>(jobs: Iterable<J>, timed: (j: J) => Timed, hereRate: number | undefined): Map<J, { start: number; end: number }> {
    const at = new Map<J, { start: number; end: number }>();
    const ends = new Map<PoolWorker, number>();
    for (const j of jobs) {
      const { w, posted, length } = timed(j);
      const start = Math.max(posted, ends.get(w) ?? this.lastAnswer.get(w) ?? 0);
      const end = start + length * (speeds.get(w) ?? hereRate ?? 0);
      ends.set(w, end);
      at.set(j, { start, end });
    }
    return at;
  }
}
