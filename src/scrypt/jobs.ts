/**
 * scrypt's jobs for the pool's workers (parallel/worker.ts and
 * worker-js.ts serve them): a lane's ROMix (engine.ts) held in one
 * worker and run there in steps of a given time, so that the caller can
 * report progress and stop it between two steps. The worker times its
 * steps itself: the caller's clock would count the time its answers wait
 * for the caller's event loop. A caller posts a lane's begin and first
 * steps at once (a worker runs its jobs in order), and the step that
 * finishes the lane answers with its result, so the worker never waits
 * for the caller between the jobs of a lane. A lane holds its memory
 * until its last step or its drop.
 */
import type { RomixRun, ScryptEngine } from './engine.js';
import type { Handlers, JobType } from '../pool/protocol.js';
import { now } from '../runtime/host.js';

/** Bytes of a step's answer before the result: the lane's iterations done so far, a little-endian float64 (a job answers with bytes). */
const DONE_BYTES = 8;

/** What a step answers: nothing held (the lane ended or was dropped), the iterations done so far, or those and the lane's result. */
export type StepAnswer = { held: false } | { held: true; done: number; result?: Uint8Array };

export function readStep(answer: Uint8Array): StepAnswer {
  if (answer.length === 0) return { held: false };
  const done = new DataView(answer.buffer, answer.byteOffset, DONE_BYTES).getFloat64(0, true);
  return answer.length > DONE_BYTES ? { held: true, done, result: answer.subarray(DONE_BYTES) } : { held: true, done };
}

export type ScryptJobs = {
  /** A lane's ROMix of `block` (B_i), held under the number its caller gave it. */
  readonly 'scrypt.begin': JobType<{ lane: number; block: Uint8Array; N: number; r: number }, undefined>;
  /**
   * The lane's ROMix for about `ms` milliseconds or to its end (readStep
   * reads the answer). The step that ends it answers with its result too,
   * after which the lane's memory is wiped and it is no longer held.
   */
  readonly 'scrypt.step': JobType<{ lane: number; ms: number }, Uint8Array>;
  /** Wipes and forgets the lane without a result (the call stopped or failed); nothing if it is not held. */
  readonly 'scrypt.drop': JobType<{ lane: number }, undefined>;
};

/** A held lane: its run, its block's bytes, its 2N iterations, and the iterations a timed piece of a step takes (doubled until it lasts a millisecond). */
interface Held {
  readonly run: RomixRun;
  readonly bytes: number;
  readonly total: number;
  piece: number;
}

/** The jobs, with the lanes they hold, on one tier's engine. */
export function scryptJobs(engine: ScryptEngine): Handlers<ScryptJobs> {
  /** The lanes held here, by their caller's number. */
  const runs = new Map<number, Held>();

  /** Runs `lane` for about `ms`; true once it has done every iteration. */
  function run(lane: Held, ms: number): boolean {
    const until = now() + ms;
    while (lane.run.done < lane.total) {
      const t0 = now();
      lane.run.step(lane.piece);
      const t1 = now();
      if (t1 - t0 < 1) lane.piece *= 2;
      if (t1 >= until) break;
    }
    return lane.run.done === lane.total;
  }

  return {
    'scrypt.begin': (p) => {
      runs.set(p.lane, { run: engine.romix(p.block, p.N, p.r), bytes: p.block.length, total: 2 * p.N, piece: 16 });
      return undefined;
    },
    'scrypt.step': (p) => {
      const lane = runs.get(p.lane);
      if (lane === undefined) return new Uint8Array(0);
      const ended = run(lane, p.ms);
      const answer = new Uint8Array(DONE_BYTES + (ended ? lane.bytes : 0));
      new DataView(answer.buffer).setFloat64(0, lane.run.done, true);
      if (ended) {
        runs.delete(p.lane);
        lane.run.finish(answer.subarray(DONE_BYTES));
        lane.run.abandon();
      }
      return answer;
    },
    'scrypt.drop': (p) => {
      runs.get(p.lane)?.run.abandon();
      runs.delete(p.lane);
      return undefined;
    },
  };
}
