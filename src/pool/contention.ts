/**
 * Rule 5 of the scheduling contract (docs/parallel.md, "No workers on a
 * shared core"): where the engine reports the process's CPU time, a call
 * whose threads together get less than SHARED_CORE CPU-ms per ms once its
 * workers are at work (another program's scheduling group has the other
 * cores) stops handing out pieces: the workers would only time-slice one
 * core with the calling thread, which would then also copy their pieces.
 * When the next call that judges finds the same, calls in the next
 * STARVED_MS do the same without asking; then the workers are tried
 * again, and each further judgement in a row that finds the core still
 * shared doubles that time, up to STARVED_MAX_MS (a retrial costs the
 * call that makes it). One judgement alone holds no later call off: a
 * window of a few scheduler ticks on an idle machine falls below the
 * mark now and then (2 of about 100 calls of 8 MiB, measured), and a
 * stream of such calls would lose a second each time.
 */
import type { PoolWorker } from './pool-worker.js';
import { cpuTime, now } from '../runtime/host.js';

/** How long into a call, counted from its first job, the CPU time its threads got is judged. */
const CALL_JUDGE_MS = 8;
/** CPU-ms per ms below which the calling thread and its workers share one core. */
const SHARED_CORE = 1.2;
/** How long a second such judgement in a row holds later calls off, doubled for each one after it, up to STARVED_MAX_MS. */
const STARVED_MS = 1000;
const STARVED_MAX_MS = 8000;

/**
 * The process's CPU clock (undefined where the engine has none), until
 * when calls use no workers, and how many judgements in a row found the
 * core shared; tests replace the clock.
 */
export const contention: { cpu: () => number | undefined; starvedUntil: number; inARow: number } = { cpu: cpuTime, starvedUntil: 0, inARow: 0 };

/** Whether a call may give its pieces to workers now: no judgement of a shared core holds. */
export const workersWelcome = (): boolean => now() >= contention.starvedUntil;

/**
 * One call's judgement: the CPU clock starts at its first job, and once
 * every worker it was given has answered one and `judgeMs` (CALL_JUDGE_MS for a
 * call) have passed, the call learns whether its threads shared one core.
 * It judges once.
 */
export class CoreJudge {
  private from: { cpu: number; at: number } | undefined;
  private started = false;
  private readonly answered = new Set<PoolWorker>();

  constructor(
    private readonly workers: number,
    private readonly judgeMs = CALL_JUDGE_MS,
  ) {}

  /** A job is given: the first one starts the clock. */
  jobGiven(): void {
    if (this.started) return;
    this.started = true;
    const cpu = contention.cpu();
    if (cpu !== undefined) this.from = { cpu, at: now() };
  }

  /** Worker `w` answered a job it ran. */
  workerAnswered(w: PoolWorker): void {
    this.answered.add(w);
  }

  /** True when the call's threads got about one core between them: it should hand out no more pieces. */
  sharedCore(): boolean {
    const from = this.from;
    if (from === undefined || this.answered.size < this.workers) return false;
    const t = now();
    if (t - from.at < this.judgeMs) return false;
    this.from = undefined;
    const shared = (contention.cpu()! - from.cpu) / (t - from.at) < SHARED_CORE;
    if (!shared) contention.inARow = 0;
    else if (++contention.inARow >= 2) contention.starvedUntil = t + Math.min(STARVED_MAX_MS, STARVED_MS * 2 ** (contention.inARow - 2));
    return shared;
  }
}
