/**
 * How a large call is shared between the pool's workers and the calling
 * thread: runPieces puts together the rules of docs/parallel.md's
 * scheduling contract, each kept by a unit of its own:
 *
 * 1. Equal cuts near the end: Partition (partition.ts).
 * 2. Short turns: HereClock and the Ticker (turns.ts).
 * 3. Answers first: InFlight.takeAnswered (in-flight.ts), below.
 * 4. No waiting on a worker the OS is not running: InFlight.straggler.
 * 5. No workers on a shared core: CoreJudge (contention.ts).
 * 6. Nothing writes the caller's memory after the call settles:
 *    InFlight's overdue writers and drain.
 * 7. Faults: InFlight.retry; an error on this thread (a detached input)
 *    stops the handing out (Completion), and the call rejects once drain
 *    has let every job it gave settle.
 * 8. Files, where workers read and write the bytes: runOnWorkers, the
 *    calling thread only handing out.
 */
import { CoreJudge, workersWelcome } from './contention.js';
import { Completion, InFlight, type PieceWork } from './in-flight.js';
import { Partition, type Piece, SMALLEST } from './partition.js';
import type { PoolWorker } from './pool-worker.js';
import { ALONE_MS, HERE_MS, HereClock, ticker, type Ticker } from './turns.js';
import { now } from '../runtime/host.js';

export { contention } from './contention.js';
export type { PieceWork } from './in-flight.js';
export type { Piece } from './partition.js';
export { turnSources } from './turns.js';

/** Hands `workers` that are idle pieces from the front; near the end a worker gets no more than is left unassigned, or this thread would wait for its queue. */
function handOut<P extends Piece>(workers: readonly PoolWorker[], partition: Partition<P>, jobs: InFlight<P>): void {
  for (const w of workers) {
    while (w.idle && !partition.empty && w.queued < partition.left) jobs.give(w, partition.fromFront());
  }
}

/** One call's pieces: cut, done here or given out, and finished; what runPieces and runOnWorkers share. */
class Call<P extends Piece> {
  readonly partition: Partition<P>;
  readonly clock = new HereClock();
  readonly done = new Completion<P>();
  readonly jobs: InFlight<P>;

  constructor(
    pieces: readonly P[],
    private readonly work: PieceWork<P>,
    readonly judge: CoreJudge,
  ) {
    this.partition = new Partition(pieces, work.split);
    this.jobs = new InFlight(work, this.done, this.clock, judge);
  }

  /** Whether anything is left: pieces to hand out or redo, or jobs in flight, and no error met here. */
  get open(): boolean {
    return this.done.failure === undefined && (!this.partition.empty || this.jobs.retry.length > 0 || this.jobs.unfinished);
  }

  /** Does `p` on this thread, timed, unless it is done. */
  here(p: P): void {
    this.done.finish(p, () => this.clock.time(p.length, () => this.work.onThisThread(p)));
  }

  /** Alone: no answer can come, so a longer turn (pieces from the back until ALONE_MS have passed). */
  alone(): void {
    const until = now() + ALONE_MS;
    do this.here(this.partition.fromBack(this.clock.piece(ALONE_MS)));
    while (!this.partition.empty && this.done.failure === undefined && now() < until);
  }

  /** The end (rule 6): every job given settled; the error met here, or the pieces as they were cut. */
  async finish(): Promise<P[]> {
    await this.jobs.drain();
    if (this.done.failure !== undefined) throw this.done.failure.error;
    return this.partition.pieces;
  }
}

/**
 * Does every piece, with `workers` (possibly empty: then all on this thread,
 * still in timed pieces with turns of the event loop between them).
 * Resolves, when all are done, to the pieces as they were cut, in input
 * order (for results that combine in order).
 */
export async function runPieces<P extends Piece>(pieces: readonly P[], workers: readonly PoolWorker[], work: PieceWork<P>): Promise<P[]> {
  const call = new Call(pieces, work, new CoreJudge(workers.length));
  const { partition, jobs, judge } = call;
  let handingOut = workers.length > 0 && workersWelcome();
  const turns = ticker();
  try {
    while (call.open) {
      if (handingOut && judge.sharedCore()) handingOut = false;
      if (handingOut) handOut(workers, partition, jobs);
      const ownTurn = jobs.takeAnswered() === 0 || !handingOut;
      if (!partition.empty && !handingOut && jobs.count === 0) call.alone();
      else if (!partition.empty) {
        if (ownTurn) call.here(partition.fromBack(Math.min(partition.left / 4, call.clock.piece(HERE_MS))));
      } else if (jobs.retry.length > 0) {
        // Whole: the pieces' list stays the input's partition.
        call.here(jobs.retry.pop()!);
      } else {
        const next = jobs.straggler();
        if (next !== undefined && 'p' in next) call.here(next.p);
        else if (next !== undefined) {
          await jobs.waitFor(next.until);
          continue;
        }
      }
      await turns.tick();
    }
  } finally {
    turns.close();
  }
  return call.finish();
}

/**
 * Does every piece on `workers`, the calling thread only handing them out
 * and waiting for answers in between, so that its event loop stays free
 * (rule 8): for calls whose workers read and write the bytes themselves
 * (age's file calls). The calling thread does pieces itself only where no
 * worker can: a lost worker's (rule 7), and all that is left once no
 * worker is alive or starting (then in the longer turns of a call alone).
 * `whileStarting`: for a caller with nothing else to do (the fourfold
 * command), this thread also does pieces from the back while no worker
 * has a job yet, as the workers start, instead of waiting for them.
 * Resolves, when all are done, to the pieces as they were cut.
 */
export async function runOnWorkers<P extends Piece>(
  pieces: readonly P[],
  workers: readonly PoolWorker[],
  work: PieceWork<P>,
  { whileStarting = false }: { whileStarting?: boolean } = {},
): Promise<P[]> {
  const call = new Call(pieces, work, new CoreJudge(workers.length));
  const { partition, jobs } = call;
  const starting = (): PoolWorker[] => workers.filter((w) => !w.ready && w.alive);
  const turns = ticker();
  try {
    while (call.open) {
      handOut(workers, partition, jobs);
      if (jobs.retry.length > 0) call.here(jobs.retry.pop()!);
      else if (!partition.empty && jobs.count === 0 && (whileStarting || starting().length === 0)) call.alone();
      else {
        // An answer, a worker ready, or a job writing the caller's memory turning overdue. The starts
        // are waited for (and keep the process alive) only as long as that wait: the next one ends it.
        const answer = jobs.waitFor(jobs.overdueAt());
        await Promise.race([answer, ...starting().map((w) => w.whenReady(answer))]);
        continue;
      }
      await turns.tick();
    }
  } finally {
    turns.close();
  }
  return call.finish();
}

/**
 * Does the pieces one after another, in input order, each on `worker`
 * when it is ready and has a free slot and otherwise on this thread (in
 * timed parts with turns of the event loop between them): for a mode
 * whose every piece needs the one before it (CBC encryption), which still
 * leaves the calling thread free while the worker works. Pieces a worker
 * failed are done here.
 */
export async function runChained<P extends Piece>(pieces: readonly P[], worker: PoolWorker | undefined, work: PieceWork<P>): Promise<void> {
  const clock = new HereClock();
  const turns = ticker();
  try {
    await inOrder(pieces, worker, work, clock, turns);
  } finally {
    turns.close();
  }
}

async function inOrder<P extends Piece>(
  pieces: readonly P[],
  worker: PoolWorker | undefined,
  work: PieceWork<P>,
  clock: HereClock,
  turns: Ticker,
): Promise<void> {
  for (const whole of pieces) {
    if (worker?.idle) {
      const job = work.toWorker(worker, whole);
      const given = await job.done.then(
        (done) => {
          try {
            if (!done.skipped) work.fromWorker(whole, done);
          } finally {
            done.release();
          }
          return !done.skipped;
        },
        async () => {
          // Its stop is awaited where it wrote the caller's memory: the piece is redone here.
          if (work.direct) await worker.stopped;
          return false;
        },
      );
      if (given) continue;
    }
    // No job is in flight here: the longer turns of a call alone.
    for (const p of work.split(whole, Math.max(SMALLEST, clock.piece(ALONE_MS)))) {
      clock.time(p.length, () => work.onThisThread(p));
      await turns.tick();
    }
  }
}
