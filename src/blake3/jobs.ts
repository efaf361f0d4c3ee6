/** BLAKE3's job for the pool's workers (parallel/worker.ts and worker-js.ts serve it). */
import type { Blake3Engine } from './engine.js';
import type { Handlers, JobType } from '../pool/protocol.js';

export type Blake3Jobs = {
  /**
   * params: key (the key words as 32 bytes), flags, counter (the subtree's
   * first chunk); input: a complete subtree (Blake3Engine.subtree); result:
   * its 32-byte chaining value.
   */
  readonly 'blake3.subtree': JobType<{ key: Uint8Array; flags: number; counter: number }, Uint8Array>;
};

/** The job on one tier's engine. */
export function blake3Jobs(blake3: Blake3Engine): Handlers<Blake3Jobs> {
  return {
    'blake3.subtree': (p, { input }) => {
      const cv = new Uint8Array(32);
      blake3.subtree(p.key, p.flags, input!, p.counter, cv);
      return cv;
    },
  };
}
