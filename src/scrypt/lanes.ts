/**
 * What the asynchronous scrypt calls share (scryptAsync in index.ts, and
 * fourfold/parallel's in parallel/scrypt.ts): the lanes of one call,
 * handed out to whoever runs them, with its progress and its first
 * failure, and a lane's ROMix on the calling thread in short turns with
 * the event loop free between them.
 */
import type { ScryptCall } from './args.js';
import type { RomixRun } from './engine.js';
import { slotBytes } from './layout.js';
import { engine } from './tiers.js';
import { scryptKernel } from './wasm.js';
import { sharedTicker, type Ticker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import { now } from '../runtime/host.js';
import { kernelCompiled } from '../runtime/kernels.js';

/** Iterations of a first step on this thread, before any was timed: well under a millisecond per BlockMix at any tier and r. */
const FIRST_STEP = 64;

/** Bytes of a lane's memory wiped per turn once it finished: a few milliseconds' work (memory.fill runs at gigabytes a second). */
const WIPE_STEP = 16 * 2 ** 20;

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
export class LaneQueue {
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

  /**
   * Lane `lane` has done `done` of its 2N iterations: progress reported
   * when it moved by 1/1000 (and never back). Throws, reporting nothing,
   * once the call stopped.
   */
  advance(lane: number, done: number): void {
    this.check();
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

/** Runs one lane on this thread in turns of about `turnMs`. */
async function laneHere(q: LaneQueue, lane: number, turns: Ticker, turnMs: number): Promise<void> {
  const { N, r } = q.c;
  const pace = new Pace();
  const run: RomixRun = engine().romix(q.block(lane), N, r);
  try {
    while (run.done < 2 * N) {
      const t0 = now();
      const before = run.done;
      run.step(pace.steps(turnMs));
      pace.add(run.done - before, now() - t0);
      q.advance(lane, run.done);
      await turns.tick();
      q.check();
    }
    run.finish(q.block(lane));
    while (!run.wipe(WIPE_STEP)) await turns.tick();
  } finally {
    run.abandon();
  }
}

/**
 * Runs lanes on this thread until none is left, `turnMs` at a time; waits
 * first for the kernel where it compiles in the background (a page's main
 * thread) rather than run on the js tier.
 */
export async function onThisThread(q: LaneQueue, turnMs: number): Promise<void> {
  await kernelCompiled(scryptKernel);
  const turns = sharedTicker(q.c.signal);
  try {
    // Its first piece in a turn of its own: calls made at once do not all start in one.
    await turns.tick();
    q.check();
    for (let lane = q.next(); lane !== undefined; lane = q.next()) await laneHere(q, lane, turns, turnMs);
  } finally {
    turns.close();
  }
}
