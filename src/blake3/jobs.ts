/** BLAKE3's job for the pool's workers (pool/worker.ts serves it). */
import { engine } from './mode.js';
import type { Handlers, JobType } from '../pool/protocol.js';

export type Blake3Jobs = {
  /**
   * params: key (the key words as 32 bytes), flags, counter (the subtree's
   * first chunk); input: a complete subtree (Blake3Engine.subtree); result:
   * its 32-byte chaining value.
   */
  readonly 'blake3.subtree': JobType<{ key: Uint8Array; flags: number; counter: number }, Uint8Array>;
};

export const blake3Jobs: Handlers<Blake3Jobs> = {
  'blake3.subtree': (tier, p, { input }) => {
    const cv = new Uint8Array(32);
    engine.of(tier).subtree(p.key, p.flags, input!, p.counter, cv);
    return cv;
  },
};
