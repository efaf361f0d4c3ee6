/**
 * A fourfold/parallel Argon2 call's segments (argon2.ts runs the call):
 * handed to a worker as jobs of several lanes where segments are short,
 * or filled on the calling thread in pieces of a few milliseconds, across
 * lanes, with the event loop free between them; and the call's progress
 * and signal, looked at as each piece or job ends.
 */
import type { Argon2Call } from '../argon2/args.js';
import { inPieces, ProgressReport, type Steps } from '../argon2/fill.js';
import type { Argon2Jobs, SharedFiller } from '../argon2/jobs.js';
import { SLICES, segmentWork } from '../argon2/layout.js';
import type { SharedBlocks } from './argon2-memory.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import type { Ticker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';

/** The calling thread's piece of a segment between two looks at the event loop: short, as the workers' answers wait for it. */
const TURN_MS = 4;
/**
 * Blocks of a worker's job, at least one segment: whole segments of
 * several lanes where they are short (thousands of lanes), so that a
 * slice is a few messages, not one per lane.
 */
const JOB_BLOCKS = 1024;
/**
 * Blocks of a job, at most (about ten milliseconds' work): a longer
 * segment goes in pieces, so that an aborted call waits for little (1
 * GiB's segments are 64 Ki blocks a lane at p = 4). Where one worker
 * fills every lane (p = 1), whole slices up to it go to a job, across
 * passes (nothing else writes the memory, so no slice waits for another
 * filler): OWASP's 19 MiB at t = 2 is three jobs, not eight.
 */
const MOST_JOB_BLOCKS = 16384;
/** Such jobs posted at once: one to run while the answer to the last comes back, and no more for an aborted call to wait for. */
const ALONE_JOBS_AHEAD = 2;
/**
 * A worker's jobs posted at once, at most: enough to keep it busy while
 * this thread is in a piece of its own, few enough that an aborted call
 * waits for little (the jobs a worker holds are finished first: they
 * write the shared memory the call then wipes).
 */
const JOBS_AHEAD = 8;

/** Numbers that name calls in the workers, unique in this thread. */
let calls = 0;

/** A worker lost or failing: the call starts again on this thread. */
export class WorkerLost extends Error {}

/**
 * The lanes filler `index` of `fillers` takes in a slice: every
 * fillers-th one. Given at once, a worker runs its segments back to back
 * without waiting for the calling thread, which may be busy with its own
 * in the meantime.
 */
export function lanesOf(p: number, index: number, fillers: number): number[] {
  const lanes: number[] = [];
  for (let lane = index; lane < p; lane += fillers) lanes.push(lane);
  return lanes;
}

/** One call in progress: its memory, fillers and progress. */
export class Run {
  readonly id = calls++;
  readonly progress: ProgressReport;
  private readonly first: number;

  constructor(
    readonly c: Argon2Call,
    readonly blocks: SharedBlocks,
  ) {
    this.progress = new ProgressReport(c);
    this.first = c.segmentLength - segmentWork(c, 0, 0);
  }

  /** The first block a segment computes and how many. */
  span(pass: number, slice: number): { from: number; count: number } {
    const from = pass === 0 && slice === 0 ? this.first : 0;
    return { from, count: this.c.segmentLength - from };
  }

  /** Counts `work` done (layout.ts totalWork's units), once the call's signal is looked at. */
  advance(work: number): void {
    check.throwIfAborted(this.c.signal);
    this.progress.add(work);
  }
}

/** A job of segments: those of `lanes` in `slices` slices from (pass, slice) on (jobs.ts), and the blocks it computes. */
interface SegmentsJob {
  pass: number;
  slice: number;
  lanes: number[];
  from: number;
  count: number;
  slices: number;
  work: number;
}

/**
 * Worker `w` runs `jobs` in order, `ahead` of them posted at a time: the
 * next is posted as one is answered, and none once one failed or the
 * call is aborted. A worker runs its jobs in the order they come, so a
 * job may read the blocks of the jobs before it. Settles once every job
 * posted is answered: none of them writes the memory after that.
 */
async function jobsOnWorker(run: Run, w: PoolWorker, jobs: SegmentsJob[], ahead: number): Promise<void> {
  let next = 0;
  let stopped = false;
  const post = async (): Promise<void> => {
    try {
      while (!stopped && next < jobs.length) {
        const { work, ...job } = jobs[next++]!;
        // Its lanes' blocks up to its last slice's from + count (a whole segment where a job takes several).
        const last = job.slice + job.slices - 1;
        run.blocks.reachSegment(job.pass + Math.floor(last / SLICES), last % SLICES, job.from + job.count, job.lanes);
        await w
          .call<Argon2Jobs, 'argon2.segments'>('argon2.segments', { call: run.id, ...job })
          .catch((e: unknown) => Promise.reject(new WorkerLost('argon2: a worker was lost mid-call', { cause: e })));
        run.advance(work);
      }
    } catch (e) {
      stopped = true;
      throw e;
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: ahead }, post));
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
}

/**
 * Worker `w` fills segments (pass, slice, lane) of `lanes`, in jobs of
 * JOB_BLOCKS to MOST_JOB_BLOCKS: several lanes where segments are short,
 * a lane's segment in pieces, in order, where it is long.
 */
export async function lanesOnWorker(run: Run, w: PoolWorker, pass: number, slice: number, lanes: number[]): Promise<void> {
  const { from, count } = run.span(pass, slice);
  if (count === 0) return;
  const jobs: SegmentsJob[] = [];
  if (count > MOST_JOB_BLOCKS) {
    for (const lane of lanes) {
      for (let at = from; at < from + count; at += MOST_JOB_BLOCKS) {
        const piece = Math.min(MOST_JOB_BLOCKS, from + count - at);
        jobs.push({ pass, slice, lanes: [lane], from: at, count: piece, slices: 1, work: piece });
      }
    }
  } else {
    const perJob = Math.max(1, Math.floor(JOB_BLOCKS / count));
    for (let at = 0; at < lanes.length; at += perJob) {
      const mine = lanes.slice(at, at + perJob);
      jobs.push({ pass, slice, lanes: mine, from, count, slices: 1, work: count * mine.length });
    }
  }
  await jobsOnWorker(run, w, jobs, JOBS_AHEAD);
}

/**
 * Worker `w` fills every segment of the call, alone (p = 1: no other
 * filler, so no slice waits for another): jobs of up to MOST_JOB_BLOCKS,
 * whole slices joined and longer ones cut, ALONE_JOBS_AHEAD posted at
 * once.
 */
export async function callOnWorker(run: Run, w: PoolWorker): Promise<void> {
  const { c } = run;
  const lanes = lanesOf(c.p, 0, 1);
  const most = Math.max(1, Math.floor(MOST_JOB_BLOCKS / c.p));
  const jobs: SegmentsJob[] = [];
  // The last job, while it ends at its slice's end: the next slice may join it whole (jobs.ts: `slices`).
  let open: SegmentsJob | undefined;
  for (let pass = 0; pass < c.t; pass++) {
    for (let slice = 0; slice < SLICES; slice++) {
      let { from, count } = run.span(pass, slice);
      if (open !== undefined && from === 0 && open.work + count * c.p <= MOST_JOB_BLOCKS) {
        open.slices++;
        open.work += count * c.p;
        continue;
      }
      open = undefined;
      while (count > 0) {
        const piece = Math.min(count, most);
        const job: SegmentsJob = { pass, slice, lanes, from, count: piece, slices: 1, work: piece * c.p };
        jobs.push(job);
        if (piece === count) open = job;
        from += piece;
        count -= piece;
      }
    }
  }
  await jobsOnWorker(run, w, jobs, ALONE_JOBS_AHEAD);
}

/** The segments (pass, slice, lane) of `lanes`, filled on this thread in pieces of any size, across lanes. */
class SegmentsHere implements Steps {
  private at = 0;
  private index: number;
  private readonly end: number;

  constructor(
    private readonly blocks: SharedBlocks,
    private readonly filler: SharedFiller,
    private readonly pass: number,
    private readonly slice: number,
    private readonly lanes: number[],
    private readonly from: number,
    count: number,
  ) {
    this.index = from;
    this.end = from + count;
    // A slice with nothing to compute (segments of two blocks, the first slice of the first pass).
    if (count === 0) this.at = lanes.length;
  }

  get finished(): boolean {
    return this.at === this.lanes.length;
  }

  step(work: number): number {
    let blocks = Math.max(1, Math.round(work));
    let done = 0;
    while (blocks > 0 && !this.finished) {
      const n = Math.min(blocks, this.end - this.index);
      const lane = this.lanes[this.at]!;
      this.blocks.reachSegment(this.pass, this.slice, this.index + n, [lane]);
      this.filler.fill(this.pass, this.slice, lane, this.index, n);
      this.index += n;
      done += n;
      blocks -= n;
      if (this.index === this.end) {
        this.at++;
        this.index = this.from;
      }
    }
    return done;
  }
}

/** This thread fills segments (pass, slice, lane) of `lanes`, in pieces of about TURN_MS with the event loop free between them. */
export async function lanesHere(run: Run, filler: SharedFiller, pass: number, slice: number, lanes: number[], turns: Ticker): Promise<void> {
  const { from, count } = run.span(pass, slice);
  await stepsHere(run, new SegmentsHere(run.blocks, filler, pass, slice, lanes, from, count), turns);
}

/** Work of this thread alone (the lanes' first blocks, the tag's XOR of their last), in pieces of about TURN_MS with the event loop free between them. */
export async function stepsHere(run: Run, steps: Steps, turns: Ticker): Promise<void> {
  await inPieces(steps, TURN_MS, async (work) => {
    await turns.tick();
    run.advance(work);
  });
}
