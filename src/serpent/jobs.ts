/** Serpent's jobs for the pool's workers (parallel/jobs.ts). */
import { engine } from './tiers.js';
import type { JobHandler } from '../runtime/protocol.js';

export const serpentJobs: Record<string, JobHandler> = {
  /** params: key, iv (the piece's first counter block): SerpentEngine.ctr. */
  'serpent.ctr': (tier, p, input, output) => {
    engine.of(tier).ctr(p.key as Uint8Array, p.iv as Uint8Array, input!, output);
    return undefined;
  },
  /** params: key, iv (CBC: the block before the piece; ECB: undefined): SerpentEngine.encrypt of whole blocks. */
  'serpent.encrypt': (tier, p, input, output) => {
    engine.of(tier).encrypt(p.key as Uint8Array, p.iv as Uint8Array | undefined, input!, undefined, output);
    return undefined;
  },
  /** params: key, iv (CBC: the ciphertext block before the piece; ECB: undefined): SerpentEngine.decrypt. */
  'serpent.decrypt': (tier, p, input, output) => {
    engine.of(tier).decrypt(p.key as Uint8Array, p.iv as Uint8Array | undefined, input!, output);
    return undefined;
  },
};
