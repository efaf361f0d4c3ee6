/**
 * Pieces that come one after another (a stream's), each independent of
 * the others, done on the pool's workers and the calling thread as they
 * come and taken back in order: the scheduling contract of
 * docs/parallel.md for input that arrives a piece at a time, where
 * runPieces (schedule.ts) has a call's whole input at once.
 *
 * - A piece goes to the worker with the fewest that has a free slot and
 *   fewer than DEPTH pieces, as soon as one has (an answer gives its worker
 *   the next); while more than SPARE wait for one, the calling thread does
 *   the latest itself. So the workers stay fed, and the calling thread,
 *   which also gathers the stream's bytes and hands its output on, takes
 *   only the work they cannot. With no worker to go to, each piece is
 *   done here as it comes.
 * - Rule 2, short turns: with jobs in flight or workers starting, each
 *   piece added, and each piece done here while waiting for the first,
 *   lets the event loop turn, so that answers (and a new worker's ready
 *   message) come in and the workers get their next pieces.
 * - At most WINDOW pieces are not taken back yet: add() waits for the
 *   first, so a stream's memory is bounded whatever its length.
 * - Rule 4, waiting for the first piece while a worker has it: the
 *   calling thread does a piece no worker has, else takes back the job a
 *   worker has not started that would end last and does it itself, else
 *   redoes one that runs late.
 *   Results are deterministic: whichever comes first is kept, the other
 *   dropped and its slot zeroed.
 * - Rule 5: a shared core (contention.ts, judged over JUDGE_MS) leaves
 *   the workers out for OFF_MS, then a new judgement tries them again.
 * - Rule 7: a piece whose worker failed, died or was terminated waits for
 *   a worker again, or is done on the calling thread.
 * Workers write only their slots or arrays of their own that they move
 * back, never the caller's memory, so rule 6 has nothing to wait for.
 */
import { CoreJudge, workersWelcome } from './contention.js';
import type { Piece } from './partition.js';
import type { PieceWork } from './in-flight.js';
import type { JobDone, JobHandle, PoolWorker } from './pool.js';
import { JobTimes, lateAt } from './job-times.js';
import { Alarm, HereClock, ticker } from './turns.js';
import { now } from '../runtime/host.js';

/** What a stream does with its pieces: a call's PieceWork (in-flight.ts) less split and direct, as a stream's pieces come whole and workers write only their slots. */
export type StreamWork<P extends Piece> = Pick<PieceWork<P>, 'onThisThread' | 'toWorker' | 'fromWorker'>;

/** Pieces a worker holds at most (one running, one queued): its next is there when it finishes one. */
const DEPTH = 3;
/** Pieces that may wait for a worker; beyond them the calling thread does the latest. */
const SPARE = 1;
/** Pieces added and not taken back yet, at most. */
export const WINDOW = 8;
/** How long a judgement of a shared core leaves the workers out before a new one tries them. */
const OFF_MS = 1000;
/** How long a judgement that found the cores free holds before a new one is made. */
const JUDGED_MS = 1000;
/**
 * The CPU time of how long a stream's judgement counts: longer than a
 * call's, as a stream judges again and again and its calling thread also
 * waits for its source and sink (a garbage collection or a slow read in a
 * short window would take the workers out for nothing).
 */
const JUDGE_MS = 50;

interface Given {
  readonly w: PoolWorker;
  readonly handle: JobHandle<unknown>;
  readonly posted: number;
}

interface Entry<P> {
  readonly p: P;
  done: boolean;
  /** The job while a worker has it (until its answer, or its failure); undefined while it waits for one. */
  job: Given | undefined;
}

export class InOrder<P extends Piece> {
  /** Pieces added and not taken back, in order. */
  private readonly entries: Entry<P>[] = [];
  private readonly clock = new HereClock();
  private readonly turns = ticker();
  private readonly times = new JobTimes();
  private judge: { judge: CoreJudge; since: number } | undefined;
  private offUntil = 0;
  private inFlight = 0;
  /** Whether a worker is still starting: its ready message comes in a turn of the event loop too. */
  private starting = false;
  private ended = false;
  private readonly alarm = new Alarm();

  /** `workers`: the workers a piece may go to now (none: every piece here). */
  constructor(
    private readonly work: StreamWork<P>,
    private readonly workers: () => readonly PoolWorker[],
  ) {}

  /** Starts `p`; resolves to the pieces now done at the front, in order, once fewer than WINDOW are left. */
  async add(p: P): Promise<P[]> {
    this.entries.push({ p, done: false, job: undefined });
    this.handOut();
    const waiting = this.waiting();
    if (!this.workersOn()) for (const e of waiting) this.here(e);
    else if (waiting.length > SPARE) this.here(waiting[waiting.length - 1]!);
    await this.letAnswersIn();
    const out = this.taken();
    while (this.entries.length >= WINDOW) {
      await this.settleFirst();
      out.push(...this.taken());
    }
    return out;
  }

  /** Resolves to every piece not taken back yet, in order, once all are done. */
  async finish(): Promise<P[]> {
    try {
      const out = this.taken();
      while (this.entries.length > 0) {
        await this.settleFirst();
        out.push(...this.taken());
      }
      return out;
    } finally {
      this.abandon();
    }
  }

  /** The stream ended (finished or not): jobs not started are taken back, and answers that still come are dropped. */
  abandon(): void {
    if (this.ended) return;
    this.ended = true;
    for (const e of this.entries) e.job?.handle.claim();
    this.turns.close();
    this.alarm.ring();
  }

  /** The pieces done at the front, in order, no longer held. */
  private taken(): P[] {
    let n = 0;
    while (n < this.entries.length && this.entries[n]!.done) n++;
    return this.entries.splice(0, n).map((e) => e.p);
  }

  /** Pieces not done that no worker has, in order. */
  private waiting(): Entry<P>[] {
    return this.entries.filter((e) => !e.done && e.job === undefined);
  }

  private here(e: Entry<P>): void {
    this.clock.time(e.p.length, () => this.work.onThisThread(e.p));
    e.done = true;
  }

  /** A piece done here, then a turn for the answers (rule 2): the first piece's, maybe. */
  private async hereThenTurn(e: Entry<P>): Promise<void> {
    this.here(e);
    await this.letAnswersIn();
  }

  /** Rule 2: a turn of the event loop while jobs are out or a worker is starting, so that their messages come in. */
  private async letAnswersIn(): Promise<void> {
    if (this.inFlight > 0 || this.starting) await this.turns.tick();
  }

  /** Gives waiting pieces, oldest first, to workers with room. */
  private handOut(): void {
    if (this.ended) return;
    for (const e of this.waiting()) {
      const w = this.workerFor();
      if (w === undefined) return;
      this.give(w, e);
    }
  }

  /** Whether pieces may go to workers now (rule 5, and a stream that has any): else each is done here as it comes. */
  private workersOn(): boolean {
    return now() >= this.offUntil && workersWelcome() && this.workers().length > 0;
  }

  /** The worker for the next piece, or undefined: rule 5, then the one holding fewest with room. */
  private workerFor(): PoolWorker | undefined {
    const t = now();
    if (t < this.offUntil || !workersWelcome()) return undefined;
    const workers = this.workers();
    this.starting = workers.some((w) => !w.ready);
    if (this.judge !== undefined) {
      if (this.judge.judge.sharedCore()) {
        this.offUntil = t + OFF_MS;
        this.judge = undefined;
        return undefined;
      }
      if (t - this.judge.since > JUDGED_MS) this.judge = undefined;
    }
    let best: PoolWorker | undefined;
    for (const w of workers) {
      if (!w.idle || this.holdingOn(w) >= DEPTH) continue;
      if (best === undefined || this.holdingOn(w) < this.holdingOn(best)) best = w;
    }
    if (best !== undefined && this.judge === undefined) this.judge = { judge: new CoreJudge(workers.length, JUDGE_MS), since: t };
    return best;
  }

  private holdingOn(w: PoolWorker): number {
    let n = 0;
    for (const e of this.entries) if (e.job?.w === w) n++;
    return n;
  }

  private give(w: PoolWorker, e: Entry<P>): void {
    this.judge?.judge.jobGiven();
    const g: Given = { w, handle: this.work.toWorker(w, e.p), posted: now() };
    e.job = g;
    this.inFlight++;
    g.handle.done.then(
      (done) => {
        this.settled(e, g);
        this.answer(e, g, done);
        this.handOut();
      },
      () => this.settled(e, g),
    );
  }

  private settled(e: Entry<P>, g: Given): void {
    if (e.job === g) e.job = undefined;
    this.inFlight--;
    this.alarm.ring();
  }

  private answer(e: Entry<P>, g: Given, done: JobDone<unknown>): void {
    this.times.answered({ w: g.w, posted: g.posted, length: e.p.length }, !done.skipped);
    if (!done.skipped) this.judge?.judge.workerAnswered(g.w);
    if (done.skipped || e.done || this.ended) {
      done.discard();
      return;
    }
    try {
      this.work.fromWorker(e.p, done);
      e.done = true;
    } finally {
      done.release();
    }
  }

  /**
   * Until the first piece is done: a piece no worker has is done here
   * (the latest); else the job not started that would end last is taken
   * back and done here; else a late one is redone; else it waits for an
   * answer.
   */
  private async settleFirst(): Promise<void> {
    const first = this.entries[0]!;
    while (!first.done) {
      this.handOut();
      const waiting = this.waiting();
      if (waiting.length > 0) {
        await this.hereThenTurn(waiting[waiting.length - 1]!);
        continue;
      }
      const order = this.entries.filter((e) => !e.done);
      const times = this.times.expected(order, (e) => ({ w: e.job!.w, posted: e.job!.posted, length: e.p.length }), this.clock.rate);
      order.sort((a, b) => times.get(b)!.end - times.get(a)!.end);
      const claimed = order.find((e) => e.job!.handle.claim());
      if (claimed !== undefined) {
        await this.hereThenTurn(claimed);
        continue;
      }
      const t = now();
      let until = Infinity;
      const late = order.find((e) => {
        const { start, end } = times.get(e)!;
        const at = lateAt(start, end);
        until = Math.min(until, at);
        return t >= at;
      });
      if (late !== undefined) await this.hereThenTurn(late);
      else await this.alarm.wait(until);
    }
  }
}
