/** BLAKE3's job for the pool's workers (parallel/jobs.ts). */
import { engine } from './mode.js';
import type { JobHandler } from '../runtime/protocol.js';

export const blake3Jobs: Record<string, JobHandler> = {
  /**
   * params: key (the key words as 32 bytes), flags, counter (the subtree's
   * first chunk); input: a complete subtree (protocol of blake3/engine.ts
   * subtree); result: its 32-byte chaining value.
   */
  'blake3.subtree': (tier, p, input) => {
    const cv = new Uint8Array(32);
    engine.of(tier).subtree(p.key as Uint8Array, p.flags as number, input!, p.counter as number, cv);
    return cv;
  },
};
