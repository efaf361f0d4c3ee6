/**
 * age's jobs for the pool's workers (parallel/worker.ts and worker-js.ts
 * serve them): sealing and opening a run of payload chunks (payload.ts)
 * under a payload key the job carries, which the worker wipes after it.
 */
import { CHUNK, failureReason, openRun, plainLength, SEALED_CHUNK, sealedLength, sealRun, TAG } from './payload.js';
import type { ChachaEngine } from '../chacha/engine.js';
import type { Handlers, JobType } from '../pool/protocol.js';

/** Bytes after an open job's plaintext: how many chunks verified (all of them, or those before the one that failed), and why that one failed. */
export const OPEN_TRAILER = 8;

export type AgeJobs = {
  /** The run `plain` sealed (chunks from `counter`; the last the payload's final one when `final`). */
  readonly 'age.seal': JobType<{ key: Uint8Array; counter: number; final: boolean; plain: Uint8Array }, Uint8Array>;
  /**
   * The run `sealed` opened: its plaintext, then OPEN_TRAILER bytes (two
   * little-endian 32-bit words: the chunks that verified, and why the next
   * did not, payload.ts REASON). Past what it may release (payload.ts
   * openOrFail: those chunks, and the next where it opens under the other
   * final flag), the plaintext is zeros.
   */
  readonly 'age.open': JobType<{ key: Uint8Array; counter: number; final: boolean; sealed: Uint8Array }, Uint8Array>;
};

/** The jobs on one tier's ChaCha engine. */
export function ageJobs(engine: ChachaEngine): Handlers<AgeJobs> {
  return {
    'age.seal': (p) => {
      const out = new Uint8Array(sealedLength(p.plain.length));
      sealRun(engine, p.key, { counter: p.counter, final: p.final }, p.plain, out);
      return out;
    },
    'age.open': (p) => {
      const n = plainLength(p.sealed.length);
      const answer = new Uint8Array(n + OPEN_TRAILER);
      const run = { counter: p.counter, final: p.final };
      const good = openRun(engine, p.key, run, p.sealed, answer.subarray(0, n));
      const chunks = Math.ceil(p.sealed.length / SEALED_CHUNK);
      const view = new DataView(answer.buffer, n, OPEN_TRAILER);
      view.setUint32(0, good, true);
      if (good < chunks) {
        answer.fill(0, good * CHUNK, n);
        const failed = p.sealed.subarray(good * SEALED_CHUNK, (good + 1) * SEALED_CHUNK);
        const into = answer.subarray(good * CHUNK, good * CHUNK + Math.max(0, failed.length - TAG));
        view.setUint32(4, failureReason(engine, p.key, p.counter + good, p.final && good === chunks - 1, failed, into), true);
      }
      return answer;
    },
  };
}
