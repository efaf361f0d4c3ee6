/**
 * fourfold/parallel's scrypt: the same bytes as fourfold's, with the p
 * lanes' ROMix (RFC 7914 §6 step 2) on the pool's workers. Lanes are
 * independent, so each runs whole in one worker, in steps of about
 * STEP_MS with two in flight (the worker never waits for the next),
 * between which the call reports progress and can stop. p = 1 runs on one
 * worker, the calling thread free; for p > 1 the calling thread takes
 * lanes too, in short turns, as scryptAsync runs them. Lanes in progress at
 * once are bounded by maxmem, as each holds 128 * r * (N + 2) bytes.
 *
 * A worker lost or failing mid-lane costs time, never bytes: its lane
 * starts again from B_i, which the call keeps, on another worker or here.
 */
import { ASYNC_OPTIONS, compress, expand, forget, memoryOf, scryptCall, type ScryptAsyncOpts, type ScryptCall } from '../scrypt/args.js';
import { readStep, type ScryptJobs } from '../scrypt/jobs.js';
import { LaneQueue, onThisThread } from '../scrypt/lanes.js';
import { poolWithScripts } from './workers.js';
import { pool } from '../pool/pool.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';

/** fourfold/parallel's scrypt options: scryptAsync's, and the workers a call may use. */
export interface ScryptParallelOpts extends ScryptAsyncOpts {
  /** Worker threads to use, at most (default: configure()'s, else the logical cores less one). 0 runs every lane on the calling thread. */
  workers?: number;
}

/**
 * A worker's step: long enough that its messages cost nothing and that
 * the next step is queued before it ends (the calling thread answers
 * between its own turns), short enough for progress and a prompt stop.
 */
const STEP_MS = 25;
/** The calling thread's turn between two looks at the event loop: short, as the workers' answers wait for it. */
const TURN_MS = 4;

/** Numbers that name lanes in the workers, unique in this thread. */
let lanes = 0;

/** Lane `lane` on worker `w`: begin and two steps posted at once, a step posted for each answered, until the one that ends it. */
async function laneOnWorker(q: LaneQueue, w: PoolWorker, lane: number): Promise<void> {
  const id = lanes++;
  const { N, r } = q.c;
  /** Posts a job; a failure is read where the job is awaited, and one nobody awaits any more (a call that stopped) is dropped. */
  const post = <K extends keyof ScryptJobs & string>(op: K, params: ScryptJobs[K]['params'], transfer: ArrayBuffer[] = []) => {
    const job = w.callJob<ScryptJobs, K>(op, params, transfer);
    job.result.catch(() => {});
    return job;
  };
  const step = () => post('scrypt.step', { lane: id, ms: STEP_MS });
  const steps: ReturnType<typeof step>[] = [];
  let ended = false;
  w.pin();
  try {
    const block = q.block(lane).slice();
    // A begin that fails (no memory there) leaves no lane for the steps, which then say so.
    void post('scrypt.begin', { lane: id, block, N, r }, [block.buffer]);
    steps.push(step(), step());
    for (;;) {
      const answer = readStep(await steps.shift()!.result);
      if (!answer.held) throw new Error('scrypt: the worker no longer holds the lane');
      if (answer.result !== undefined) {
        ended = true;
        q.block(lane).set(answer.result);
        answer.result.fill(0);
      }
      q.advance(lane, answer.done);
      if (ended) return;
      steps.push(step());
    }
  } finally {
    // The step posted ahead of the last is not waited for: its answer (the lane is gone) keeps nothing alive.
    for (const s of steps) s.letGo();
    // Steps still in flight run before the drop (a worker runs its jobs in order).
    if (!ended) await w.call<ScryptJobs, 'scrypt.drop'>('scrypt.drop', { lane: id }).catch(() => {});
    w.unpin();
  }
}

/** Runs lanes on worker `w` until none is left; resolves false when the worker was lost (its lane is queued again). */
async function onWorker(q: LaneQueue, w: PoolWorker): Promise<boolean> {
  if (!(await w.whenReady())) return false;
  for (let lane = q.next(); lane !== undefined; lane = q.next()) {
    try {
      await laneOnWorker(q, w, lane);
    } catch {
      if (q.stopped !== undefined) throw q.stopped.reason;
      // Lost, or a job failed there: the lane starts again elsewhere.
      q.retry(lane);
      return false;
    }
  }
  return true;
}

/** The workers a call's lanes get: one for p = 1; for p > 1 as many as lanes but the one this thread takes; all within maxmem and the pool's size. */
function laneWorkers(c: ScryptCall, asked: number | undefined): PoolWorker[] {
  const perLane = memoryOf(c.N, c.r, 0, 1);
  const fit = Math.max(1, Math.floor((c.maxmem - memoryOf(c.N, c.r, c.p, 0)) / perLane));
  const here = c.p > 1 ? 1 : 0;
  const count = Math.min(asked ?? pool.size, c.p - here, fit - here);
  return count > 0 ? poolWithScripts().grow(count) : [];
}

/**
 * scrypt (the same bytes as fourfold's scrypt and scryptAsync, with the
 * same options, and `workers`), with the lanes' work on the pool's
 * workers: p = 1 leaves the calling thread free, and p lanes run on up to
 * p cores. Where no worker can start, the lanes run on the calling thread
 * in short turns.
 *
 * @example
 * ```ts
 * import { scrypt } from 'fourfold/parallel';
 * const key = await scrypt(password, salt, { N: 2 ** 17, p: 4 }); // four lanes on four cores
 * ```
 */
export async function scrypt(password: string | Uint8Array, salt: string | Uint8Array, opts: ScryptParallelOpts): Promise<Bytes> {
  const c = scryptCall(password, salt, opts, [...ASYNC_OPTIONS, 'workers']);
  const asked = (opts as ScryptParallelOpts).workers;
  const workers = asked === undefined ? undefined : check.count(asked, 'workers');
  let B: Uint8Array | undefined;
  try {
    check.throwIfAborted(c.signal);
    B = expand(c);
    const q = new LaneQueue(c, B);
    const holders: Promise<unknown>[] = laneWorkers(c, workers).map((w) =>
      onWorker(q, w).catch((e: unknown) => {
        q.fail(e);
      }),
    );
    if (holders.length === 0 || c.p > 1) holders.push(onThisThread(q, TURN_MS).catch((e: unknown) => q.fail(e)));
    await Promise.all(holders);
    // Every worker was lost: what is left runs here.
    if (q.stopped === undefined && q.left) await onThisThread(q, TURN_MS).catch((e: unknown) => q.fail(e));
    q.check();
    const key = compress(c, B);
    c.onProgress?.(1);
    return key;
  } finally {
    forget(c, B);
  }
}
