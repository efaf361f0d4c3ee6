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
import { ASYNC_OPTIONS, compress, expand, forget, memoryOf, scryptCall, type ScryptAsyncOpts, type ScryptCall } from './args.js';
import type { RomixRun } from './engine.js';
import type { ScryptJobs } from './jobs.js';
import { slotBytes } from './layout.js';
import { engine } from './tiers.js';
import { scryptKernel } from './wasm.js';
import { thePool } from '../parallel/workers.js';
import { pool, type PoolWorker } from '../pool/pool.js';
import { ticker, type Ticker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { now } from '../runtime/host.js';
import { kernelCompiled } from '../runtime/kernels.js';

/** fourfold/parallel's scrypt options: scryptAsync's, and the workers a call may use. */
export interface ScryptParallelOpts extends ScryptAsyncOpts {
  /** Worker threads to use, at most (default: configure()'s, else the logical cores less one). 0 runs every lane on the calling thread. */
  workers?: number;
}

/** A worker's step: long enough that messages cost nothing, short enough for progress and a prompt stop. */
const STEP_MS = 25;
/** The calling thread's turn between two looks at the event loop (as scryptAsync's). */
const TURN_MS = 8;
/** Iterations of a first step, before any was timed: well under a millisecond per BlockMix at any tier and r. */
const FIRST_STEP = 64;

/** Numbers that name lanes in the workers, unique in this thread. */
let lanes = 0;

/** Iterations that take about `ms` at the speed seen so far. */
class Pace {
  private iterations = 0;
  private ms = 0;

  add(iterations: number, ms: number): void {
    this.iterations += iterations;
    this.ms += ms;
  }

  steps(ms: number): number {
    return this.ms > 0 ? Math.max(1, Math.floor((this.iterations / this.ms) * ms)) : FIRST_STEP;
  }
}

/** One call: its arguments, B, the lanes still to run, progress, and the first failure, which stops every holder. */
class LaneQueue {
  private readonly todo: number[];
  private readonly progress: number[];
  private reported = 0;
  stopped: { reason: unknown } | undefined;

  constructor(
    readonly c: ScryptCall,
    readonly B: Uint8Array,
  ) {
    this.todo = Array.from({ length: c.p }, (_, i) => i);
    this.progress = new Array<number>(c.p).fill(0);
  }

  next(): number | undefined {
    this.check();
    return this.todo.shift();
  }

  /** A lane whose holder was lost: back to the front, its progress undone. */
  retry(lane: number): void {
    this.progress[lane] = 0;
    this.todo.unshift(lane);
  }

  get left(): boolean {
    return this.todo.length > 0;
  }

  block(lane: number): Uint8Array {
    return this.B.subarray(lane * slotBytes(this.c.r), (lane + 1) * slotBytes(this.c.r));
  }

  /** Throws the reason the call stopped (a holder's failure, the signal), if it did. */
  check(): void {
    if (this.stopped !== undefined) throw this.stopped.reason;
    try {
      check.throwIfAborted(this.c.signal);
    } catch (reason) {
      this.stopped = { reason };
      throw reason;
    }
  }

  fail(reason: unknown): void {
    this.stopped ??= { reason };
  }

  /** Lane `lane` has done `done` of its 2N iterations: progress reported when it moved by 1/1000 (and never back). */
  advance(lane: number, done: number): void {
    this.progress[lane] = done;
    const { onProgress, N, p } = this.c;
    if (onProgress === undefined) return;
    const fraction = this.progress.reduce((a, b) => a + b, 0) / (2 * N * p);
    if (fraction < 1 && fraction - this.reported >= 0.001) {
      this.reported = fraction;
      try {
        onProgress(fraction);
      } catch (e) {
        this.fail(e);
        throw e;
      }
    }
  }
}

/** Runs lanes on worker `w` until none is left; resolves false when the worker was lost (its lane is queued again). */
async function onWorker(q: LaneQueue, w: PoolWorker): Promise<boolean> {
  if (!(await w.whenReady)) return false;
  const pace = new Pace();
  for (let lane = q.next(); lane !== undefined; lane = q.next()) {
    const id = lanes++;
    const { N, r } = q.c;
    const call = <K extends keyof ScryptJobs & string>(op: K, params: ScryptJobs[K]['params'], transfer: ArrayBuffer[] = []) =>
      w.call<ScryptJobs, K>(op, params, transfer);
    w.pin();
    let ended = false;
    const steps: Promise<unknown>[] = [];
    try {
      const block = q.block(lane).slice();
      await call('scrypt.begin', { lane: id, block, N, r }, [block.buffer]);
      let sent = 0;
      let done = 0;
      const sizes: number[] = [];
      let since = now();
      while (done < 2 * N) {
        while (sent < 2 * N && steps.length < 2) {
          const count = Math.min(pace.steps(STEP_MS), 2 * N - sent);
          sizes.push(count);
          sent += count;
          steps.push(call('scrypt.step', { lane: id, count }));
        }
        await steps.shift();
        const count = sizes.shift()!;
        const at = now();
        pace.add(count, at - since);
        since = at;
        done += count;
        q.advance(lane, done);
        q.check();
      }
      const out = await call('scrypt.end', { lane: id });
      ended = true;
      q.block(lane).set(out);
      out.fill(0);
    } catch {
      if (q.stopped !== undefined) throw q.stopped.reason;
      // Lost, or the job failed there: the lane starts again elsewhere.
      q.retry(lane);
      return false;
    } finally {
      // Steps still in flight run before the drop (a worker runs its jobs in order); their answers matter no more.
      for (const s of steps) s.catch(() => {});
      if (!ended) await call('scrypt.drop', { lane: id }).catch(() => {});
      w.unpin();
    }
  }
  return true;
}

/** Runs one lane on this thread in turns of about TURN_MS. */
async function laneHere(q: LaneQueue, lane: number, turns: Ticker): Promise<void> {
  const { N, r } = q.c;
  const pace = new Pace();
  const run: RomixRun = engine().romix(q.block(lane), N, r);
  try {
    while (run.done < 2 * N) {
      const t0 = now();
      const before = run.done;
      run.step(pace.steps(TURN_MS));
      pace.add(run.done - before, now() - t0);
      q.advance(lane, run.done);
      await turns.tick();
      q.check();
    }
    run.finish(q.block(lane));
  } finally {
    run.abandon();
  }
}

/** Runs lanes on this thread until none is left. */
async function onThisThread(q: LaneQueue): Promise<void> {
  await kernelCompiled(scryptKernel);
  const turns = ticker();
  try {
    for (let lane = q.next(); lane !== undefined; lane = q.next()) await laneHere(q, lane, turns);
  } finally {
    turns.close();
  }
}

/** The workers a call's lanes get: one for p = 1; for p > 1 as many as lanes but the one this thread takes; all within maxmem and the pool's size. */
function workersFor(c: ScryptCall, asked: number | undefined): PoolWorker[] {
  const perLane = memoryOf(c.N, c.r, 0, 1);
  const fit = Math.max(1, Math.floor((c.maxmem - memoryOf(c.N, c.r, c.p, 0)) / perLane));
  const here = c.p > 1 ? 1 : 0;
  const count = Math.min(asked ?? pool.size, c.p - here, fit - here);
  return count > 0 ? thePool().grow(count) : [];
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
    const holders: Promise<unknown>[] = workersFor(c, workers).map((w) =>
      onWorker(q, w).catch((e: unknown) => {
        q.fail(e);
      }),
    );
    if (holders.length === 0 || c.p > 1) holders.push(onThisThread(q).catch((e: unknown) => q.fail(e)));
    await Promise.all(holders);
    // Every worker was lost: what is left runs here.
    if (q.stopped === undefined && q.left) await onThisThread(q).catch((e: unknown) => q.fail(e));
    q.check();
    const key = compress(c, B);
    c.onProgress?.(1);
    return key;
  } finally {
    forget(c, B);
  }
}
