/**
 * A call's or a stream's jobs in flight (schedule.ts, in-order.ts), and
 * the rules of the scheduling contract (docs/parallel.md) that are about
 * them:
 *
 * - Rule 3, answers first: answers taken since the calling thread's last
 *   turn are counted (takeAnswered), so that it starts no piece of its own
 *   in a turn where one came in.
 * - Rule 4, no waiting on a worker the OS is not running (straggler):
 *   with nothing left to hand out, the calling thread takes back a job the
 *   worker has not started (its claim word) and does it itself; it redoes
 *   a job that runs late (well past its worker's usual speed) or that it
 *   would finish before the worker reaches it. Pieces are deterministic:
 *   whichever result comes first is kept and the other dropped (its slot
 *   zeroed).
 * - Rule 6, nothing writes the caller's memory after the call settles: a
 *   job that writes it directly is never redone while its worker may
 *   still be writing; it can only be taken back before it starts, or, far
 *   overdue, have its worker ended and be redone once the worker has
 *   stopped (drain waits for that).
 * - Rule 7, faults: a piece whose worker failed, died or was terminated
 *   is done on the calling thread (retry).
 */
import type { CoreJudge } from './contention.js';
import type { Piece } from './partition.js';
import type { JobDone, JobHandle } from './job-handle.js';
import type { PoolWorker } from './pool-worker.js';
import { JobTimes, LATE_MS, lateAt, type Timed } from './job-times.js';
import { Alarm, type HereClock } from './turns.js';
import { now } from '../runtime/host.js';

/** What a call does with its pieces (schedule.ts runPieces). */
export interface PieceWork<P extends Piece> {
  /** Does `p` on the calling thread. */
  onThisThread(p: P): void;
  /** Gives `p` to `w` (which has a free slot): fills the slot and posts the job. */
  toWorker(w: PoolWorker, p: P): JobHandle<unknown>;
  /** Puts a worker's answer for `p` in place (copies its output, keeps its result). */
  fromWorker(p: P, done: JobDone<unknown>): void;
  /** `p` as consecutive parts of at most `bytes` each (not below the operation's smallest piece), or [p]. */
  split(p: P, bytes: number): P[];
  /** Whether workers write the caller's memory directly (a shared output). */
  readonly direct: boolean;
}

/**
 * A job writing the caller's memory cannot be redone while it runs, so it
 * is waited for; but not forever: once it overruns its expected end by
 * OVERDUE_SHARE of its expected time, and at least OVERDUE_MS, its worker
 * is ended (a worker stuck, or one the OS no longer runs), and the piece
 * is redone here after the worker has stopped. Far beyond a busy core's
 * slowdown: ending a worker costs the next call a new one.
 */
const OVERDUE_MS = 2000;
const OVERDUE_SHARE = 10;

/** The pieces a call has finished, and the first error it met on this thread. */
export class Completion<P extends Piece> {
  readonly finished = new Set<P>();
  failure: { error: unknown } | undefined;

  /** Runs `f` for `p` unless `p` is finished; marks it finished, or keeps the error. */
  finish(p: P, f: () => void): void {
    if (this.finished.has(p)) return;
    try {
      f();
      this.finished.add(p);
    } catch (e) {
      this.failure ??= { error: e };
    }
  }
}

/** A job given: its piece, worker, handle, and when it was posted. */
interface Given<P extends Piece> {
  readonly p: P;
  readonly w: PoolWorker;
  readonly job: JobHandle<unknown>;
  readonly posted: number;
}

/** How the clock (job-times.ts) sees a job. */
const timed = <P extends Piece>(g: Given<P>): Timed => ({ w: g.w, posted: g.posted, length: g.p.length });

/** What the calling thread should do about the jobs in flight: a piece to do itself, or a time to look again. */
export type Straggler<P> = { p: P } | { until: number } | undefined;

export class InFlight<P extends Piece> {
  /** Jobs given and not answered, in the order they were posted. */
  private readonly given: Given<P>[] = [];
  /** Pieces whose worker failed: done on the calling thread. */
  readonly retry: P[] = [];
  /** Workers lost while writing the caller's memory: the call waits until they have stopped. */
  private readonly lostWriters = new Set<PoolWorker>();
  private readonly times = new JobTimes();
  private answered = 0;
  private readonly alarm = new Alarm();

  /** `settled`: called once a job's answer (or failure) is taken in, with its piece (a stream gives its worker the next). */
  constructor(
    private readonly work: PieceWork<P>,
    private readonly done: Completion<P>,
    private readonly clock: HereClock,
    private readonly judge: Pick<CoreJudge, 'jobGiven' | 'workerAnswered'>,
    private readonly settled: (p: P) => void = () => {},
  ) {}

  /** Jobs given and not answered. */
  get count(): number {
    return this.given.length;
  }

  /** Whether a job for `p` is in flight. */
  holds(p: P): boolean {
    return this.given.some((g) => g.p === p);
  }

  /** Jobs in flight on `w`. */
  on(w: PoolWorker): number {
    let n = 0;
    for (const g of this.given) if (g.w === w) n++;
    return n;
  }

  /** Whether a job in flight has a piece nobody finished yet. */
  get unfinished(): boolean {
    return this.given.some((g) => !this.done.finished.has(g.p));
  }

  /** Answers taken since the last call of this (rule 3). */
  takeAnswered(): number {
    const n = this.answered;
    this.answered = 0;
    return n;
  }

  /** Gives `p` to `w`; its answer is taken in (or dropped, if the piece was done here first) as it comes. */
  give(w: PoolWorker, p: P): void {
    this.judge.jobGiven();
    const g: Given<P> = { p, w, job: this.work.toWorker(w, p), posted: now() };
    this.given.push(g);
    g.job.done.then(
      (done) => {
        this.answer(g, done);
        this.settle(g);
      },
      () => {
        // A worker lost may still be writing until it has stopped; one that answered its job failed (an I/O error) and went on is not.
        if (this.work.direct && !w.alive) this.lostWriters.add(w);
        if (!this.done.finished.has(p)) this.retry.push(p);
        this.settle(g);
      },
    );
  }

  private answer(g: Given<P>, done: JobDone<unknown>): void {
    const { p, w } = g;
    this.times.answered(timed(g), !done.skipped);
    if (!done.skipped) this.judge.workerAnswered(w);
    if (done.skipped || this.done.finished.has(p) || this.done.failure !== undefined) {
      // Done here first (or the call failed): the worker's copy is dropped.
      done.discard();
      return;
    }
    this.done.finish(p, () => this.work.fromWorker(p, done));
    this.answered++;
    done.release();
  }

  private settle(g: Given<P>): void {
    this.given.splice(this.given.indexOf(g), 1);
    this.alarm.ring();
    this.settled(g.p);
  }

  /**
   * A job in flight the calling thread should do itself now, taken back
   * if its worker has not started it; else when to look again (a job turns
   * late, or one writing the caller's memory turns overdue), or undefined
   * when no job is in flight.
   */
  straggler(): Straggler<P> {
    const t = now();
    const times = this.times.expected(this.given, timed, this.clock.rate);
    const mine = this.clock.rate;
    let until = Infinity;
    // Latest expected first: the job the calling thread gains most by doing.
    const order = this.given.filter((g) => !this.done.finished.has(g.p)).sort((a, b) => times.get(b)!.end - times.get(a)!.end);
    for (const g of order) {
      if (g.job.claim()) return { p: g.p };
      const { start, end } = times.get(g)!;
      if (this.work.direct) {
        until = Math.min(until, this.overdue(g, start, end, t));
        continue;
      }
      const late = lateAt(start, end);
      // Running late, or still queued behind others where this thread would finish it first.
      if (t >= late || (mine !== undefined && t + g.p.length * mine < end - LATE_MS)) return { p: g.p };
      until = Math.min(until, late);
    }
    return order.length > 0 ? { until } : undefined;
  }

  /**
   * Rule 6 for a call that only hands out (schedule.ts runOnWorkers): ends
   * the workers of jobs writing the caller's memory that are far overdue;
   * returns when the next will be (Infinity: none writes it).
   */
  overdueAt(): number {
    if (!this.work.direct) return Infinity;
    const t = now();
    const times = this.times.expected(this.given, timed, this.clock.rate);
    let until = Infinity;
    for (const g of this.given) {
      if (this.done.finished.has(g.p)) continue;
      const { start, end } = times.get(g)!;
      until = Math.min(until, this.overdue(g, start, end, t));
    }
    return until;
  }

  /** Rule 6: ends the worker of a job writing the caller's memory once it is far overdue; else returns when it will be. */
  private overdue(g: Given<P>, start: number, end: number, t: number): number {
    const at = end + Math.max(OVERDUE_MS, OVERDUE_SHARE * (end - start));
    if (t < at) return at;
    // Its answer, or the rejection of the worker's jobs, wakes the wait.
    g.w.abandon(`a job that writes the caller's memory ran ${Math.round(t - start)} ms, expected ${Math.round(end - start)} ms`);
    return Infinity;
  }

  /** Waits for an answer, or until `until` (a job turns late). */
  waitFor(until: number): Promise<void> {
    return this.alarm.wait(until);
  }

  /**
   * The call ends: every job in flight that its worker has not started is
   * taken back (its answer comes, skipped), and a wait for answers wakes.
   * The answers still to come are taken in as they come, but no longer
   * keep the process alive, unless the job writes the caller's memory
   * (drain waits for those).
   */
  takeBack(): void {
    for (const g of this.given) {
      g.job.claim();
      if (!this.work.direct) g.job.letGo();
    }
    this.alarm.ring();
  }

  /**
   * The end of a call (rule 6): nothing more is handed out. Jobs still in
   * flight are taken back where they have not started; those writing the
   * caller's memory are waited for, as is the stop of any worker lost
   * while writing it.
   */
  async drain(): Promise<void> {
    this.takeBack();
    while (this.work.direct && this.given.length > 0) {
      const next = this.straggler();
      await this.waitFor(next !== undefined && 'until' in next ? next.until : Infinity);
    }
    for (const w of this.lostWriters) await w.stopped;
  }
}
