/**
 * Argon2's jobs for the pool's workers (parallel/worker.ts and
 * worker-js.ts serve them): segments of a call's memory, which the
 * calling thread shares with its workers (a shared WebAssembly.Memory).
 * A worker attaches to a call once, with a scratch of its own in the
 * memory's first page, fills the segments it is given (the calling
 * thread hands them out slice by slice, a slice reading only the slices
 * before it, several lanes' to a job where segments are short, several
 * slices' where one worker fills every lane) and
 * detaches at the end, wiping the scratch it holds apart from the memory.
 * The memory is the calling thread's, which wipes it whole, the scratches
 * in its first page included.
 */
import { type Argon2Type, type Shape, SLICES } from './layout.js';
import type { Handlers, JobType } from '../pool/protocol.js';

export interface Attach {
  /** The number the calling thread gave the call. */
  call: number;
  memory: WebAssembly.Memory;
  /** The shared kernel module (kernel.ts, shared), compiled or as bytes; a js worker needs none. */
  module?: WebAssembly.Module | Uint8Array;
  shape: Shape;
  type: Argon2Type;
  /** The scratch this worker uses, 1 to 7 (the calling thread has 0). */
  slot: number;
  /** The fill functions' variant (kernel.ts argon2Variants) the calling thread chose, if it has: else the filler times its calls and chooses. */
  variant?: number;
}

export type Argon2Jobs = {
  /** Holds a filler of the call's memory under its number. */
  readonly 'argon2.attach': JobType<Attach, undefined>;
  /**
   * Fills the segments of `lanes` in `slices` slices from (pass, slice) on,
   * slice after slice across passes, each lane in order: in the first
   * slice blocks from .. from + count - 1, in the later ones all (from +
   * count, a segment's length). Several slices come only where this
   * worker fills every lane.
   */
  readonly 'argon2.segments': JobType<{ call: number; pass: number; slice: number; lanes: number[]; from: number; count: number; slices: number }, undefined>;
  /** Wipes the filler's scratch and forgets the call; nothing if it is not held. */
  readonly 'argon2.detach': JobType<{ call: number }, undefined>;
};

/** What fills a call's segments in a worker (its tier's: simd.ts simdAttach, js.ts jsAttach). */
export interface SharedFiller {
  fill(pass: number, slice: number, lane: number, from: number, count: number): void;
  /** Zeroes the scratch the filler holds apart from the shared memory (the js tier's R, T and addresses); one in the memory is wiped with it, by its owner. */
  wipeScratch(): void;
}

/** The jobs, with the calls they are attached to, on one tier's filler. */
export function argon2Jobs(attach: (p: Attach) => SharedFiller): Handlers<Argon2Jobs> {
  const calls = new Map<number, SharedFiller>();
  return {
    'argon2.attach': (p) => {
      calls.set(p.call, attach(p));
      return undefined;
    },
    'argon2.segments': (p) => {
      const filler = calls.get(p.call);
      if (filler === undefined) throw new Error('argon2: the worker is not attached to the call');
      const segmentLength = p.from + p.count;
      for (let k = 0; k < p.slices; k++) {
        const at = p.slice + k;
        const [pass, slice] = [p.pass + Math.floor(at / SLICES), at % SLICES];
        for (const lane of p.lanes) filler.fill(pass, slice, lane, k === 0 ? p.from : 0, k === 0 ? p.count : segmentLength);
      }
      return undefined;
    },
    'argon2.detach': (p) => {
      calls.get(p.call)?.wipeScratch();
      calls.delete(p.call);
      return undefined;
    },
  };
}
