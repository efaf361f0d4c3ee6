/**
 * scrypt's jobs for the pool's workers (parallel/worker.ts and
 * worker-js.ts serve them): a lane's ROMix (engine.ts) held in one
 * worker and run there in steps, so that the caller can report progress
 * and stop it between two steps. Each run holds its lane's memory until
 * it ends or is dropped.
 */
import type { RomixRun, ScryptEngine } from './engine.js';
import type { Handlers, JobType } from '../pool/protocol.js';

export type ScryptJobs = {
  /** A lane's ROMix of `block` (B_i), held under the number its caller gave it. */
  readonly 'scrypt.begin': JobType<{ lane: number; block: Uint8Array; N: number; r: number }, undefined>;
  /** `count` more iterations of the lane's ROMix. */
  readonly 'scrypt.step': JobType<{ lane: number; count: number }, undefined>;
  /** The lane's result, B'_i, once every iteration ran; its memory is wiped and let go. */
  readonly 'scrypt.end': JobType<{ lane: number }, Uint8Array>;
  /** Wipes and forgets the lane without a result (the call stopped or failed). */
  readonly 'scrypt.drop': JobType<{ lane: number }, undefined>;
};

/** The jobs, with the runs they hold, on one tier's engine. */
export function scryptJobs(engine: ScryptEngine): Handlers<ScryptJobs> {
  /** The lanes held here, by their caller's number, with their block size. */
  const runs = new Map<number, { run: RomixRun; bytes: number }>();

  function held(lane: number): { run: RomixRun; bytes: number } {
    const entry = runs.get(lane);
    if (entry === undefined) throw new Error('scrypt: no such lane in this worker');
    return entry;
  }

  return {
    'scrypt.begin': (p) => {
      runs.set(p.lane, { run: engine.romix(p.block, p.N, p.r), bytes: p.block.length });
      return undefined;
    },
    'scrypt.step': (p) => {
      held(p.lane).run.step(p.count);
      return undefined;
    },
    'scrypt.end': (p) => {
      const { run, bytes } = held(p.lane);
      runs.delete(p.lane);
      const out = new Uint8Array(bytes);
      run.finish(out);
      return out;
    },
    'scrypt.drop': (p) => {
      runs.get(p.lane)?.run.abandon();
      runs.delete(p.lane);
      return undefined;
    },
  };
}
