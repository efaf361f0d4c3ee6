/**
 * Pieces that come one after another (a stream's), each independent of
 * the others, done on the pool's workers and the calling thread as they
 * come and taken back in order: the scheduling contract of
 * docs/parallel.md for input that arrives a piece at a time, where
 * runPieces (schedule.ts) has a call's whole input at once. The jobs in
 * flight are a call's (in-flight.ts InFlight: rules 3, 4, 6 and 7), and
 * so are the calling thread's clock, its turns and the judgement of a
 * shared core; what is this file's own is how a stream hands out:
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
 *   calling thread does a piece no worker has, else what InFlight's
 *   straggler names (a job taken back before its worker started it, or
 *   one running late).
 * - Rule 5: a shared core (contention.ts, judged over STREAM_JUDGE_MS) leaves
 *   the workers out for OFF_MS, then a new judgement tries them again.
 * - Rule 7: a piece whose worker failed, died or was terminated waits for
 *   a worker again, or is done on the calling thread.
 * Workers write only their slots or arrays of their own that they move
 * back, never the caller's memory, so rule 6 has nothing to wait for.
 */
import { CoreJudge, workersWelcome } from './contention.js';
import { Completion, InFlight, type PieceWork } from './in-flight.js';
import type { Piece } from './partition.js';
import type { PoolWorker } from './pool-worker.js';
import { HereClock, ticker } from './turns.js';
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
const STREAM_JUDGE_MS = 50;

export class InOrder<P extends Piece> {
  /** Pieces added and not taken back, in order. */
  private readonly entries: P[] = [];
  private readonly clock = new HereClock();
  private readonly turns = ticker();
  private readonly done = new Completion<P>();
  private readonly jobs: InFlight<P>;
  private judge: { judge: CoreJudge; since: number } | undefined;
  private offUntil = 0;
  /** Whether a worker is still starting: its ready message comes in a turn of the event loop too. */
  private starting = false;
  private ended = false;

  /** `workers`: the workers a piece may go to now (none: every piece here). */
  constructor(
    private readonly work: StreamWork<P>,
    private readonly workers: () => readonly PoolWorker[],
  ) {
    // The judgement of the moment (each lasts JUDGED_MS) hears of the jobs given and answered.
    const judged = {
      jobGiven: () => this.judge?.judge.jobGiven(),
      workerAnswered: (w: PoolWorker) => this.judge?.judge.workerAnswered(w),
    };
    this.jobs = new InFlight({ ...work, split: (p) => [p], direct: false }, this.done, this.clock, judged, (p) => this.settled(p));
  }

  /** Starts `p`; resolves to the pieces now done at the front, in order, once fewer than WINDOW are left. */
  async add(p: P): Promise<P[]> {
    this.entries.push(p);
    this.handOut();
    const waiting = this.waiting();
    if (!this.workersOn()) for (const q of waiting) this.here(q);
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

  /**
   * The stream ended (finished or not): jobs not started are taken back,
   * answers that still come are dropped (InFlight drops them once the call
   * failed), and an add() still pending rejects rather than give back
   * pieces nobody did.
   */
  abandon(): void {
    if (this.ended) return;
    this.ended = true;
    this.done.failure ??= { error: new Error('fourfold: the stream ended') };
    this.jobs.takeBack();
    this.turns.close();
  }

  /** The pieces done at the front, in order, no longer held; or the error a piece met. */
  private taken(): P[] {
    if (this.done.failure !== undefined) throw this.done.failure.error;
    let n = 0;
    while (n < this.entries.length && this.done.finished.has(this.entries[n]!)) n++;
    const out = this.entries.splice(0, n);
    // A piece redone here may still be with a worker: it stays done until that job settles.
    for (const p of out) if (!this.jobs.holds(p)) this.done.finished.delete(p);
    return out;
  }

  /**
   * A job settled: a piece already taken back is forgotten, a failed job's
   * piece waits with the others (waiting(): not InFlight's retry, which is
   * a call's), and the worker gets the next.
   */
  private settled(p: P): void {
    if (!this.entries.includes(p)) this.done.finished.delete(p);
    this.jobs.retry.length = 0;
    this.handOut();
  }

  /** Pieces not done that no worker has, in order. */
  private waiting(): P[] {
    return this.entries.filter((p) => !this.done.finished.has(p) && !this.jobs.holds(p));
  }

  private here(p: P): void {
    this.done.finish(p, () => this.clock.time(p.length, () => this.work.onThisThread(p)));
    if (this.done.failure !== undefined) throw this.done.failure.error;
  }

  /** A piece done here, then a turn for the answers (rule 2): the first piece's, maybe. */
  private async hereThenTurn(p: P): Promise<void> {
    this.here(p);
    await this.letAnswersIn();
  }

  /** Rule 2: a turn of the event loop while jobs are out or a worker is starting, so that their messages come in. */
  private async letAnswersIn(): Promise<void> {
    if (this.jobs.count > 0 || this.starting) await this.turns.tick();
  }

  /** Gives waiting pieces, oldest first, to workers with room; none once the stream ended or a piece failed. */
  private handOut(): void {
    if (this.ended || this.done.failure !== undefined) return;
    for (const p of this.waiting()) {
      const w = this.workerFor();
      if (w === undefined) return;
      this.jobs.give(w, p);
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
      if (!w.idle || this.jobs.on(w) >= DEPTH) continue;
      if (best === undefined || this.jobs.on(w) < this.jobs.on(best)) best = w;
    }
    if (best !== undefined && this.judge === undefined) this.judge = { judge: new CoreJudge(workers.length, STREAM_JUDGE_MS), since: t };
    return best;
  }

  /**
   * Until the first piece is done: a piece no worker has is done here
   * (the latest); else what InFlight's straggler names (rule 4); else it
   * waits for an answer.
   */
  private async settleFirst(): Promise<void> {
    const first = this.entries[0]!;
    while (!this.done.finished.has(first)) {
      if (this.done.failure !== undefined) throw this.done.failure.error;
      this.handOut();
      const waiting = this.waiting();
      if (waiting.length > 0) {
        await this.hereThenTurn(waiting[waiting.length - 1]!);
        continue;
      }
      const next = this.jobs.straggler();
      if (next === undefined) throw new Error('fourfold: a stream piece is neither done, waiting nor with a worker');
      if ('p' in next) await this.hereThenTurn(next.p);
      else await this.jobs.waitFor(next.until);
    }
  }
}
