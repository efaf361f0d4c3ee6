/** Serpent's jobs for the pool's workers (parallel/jobs.ts). */
import type { SerpentEngine } from './engine.js';
import { jsSerpent } from './js.js';
import { simdSerpent } from './simd.js';
import type { Tier } from '../runtime/kernels.js';
import type { JobHandler } from '../runtime/protocol.js';

const engine = (tier: Tier): SerpentEngine => (tier === 'js' ? jsSerpent : simdSerpent);

export const serpentJobs: Record<string, JobHandler> = {
  /** params: key, iv (the piece's first counter block): SerpentEngine.ctr. */
  'serpent.ctr': (tier, p, input, output) => {
    engine(tier).ctr(p.key as Uint8Array, p.iv as Uint8Array, input!, output);
    return undefined;
  },
  /** params: key, iv (CBC: the block before the piece; ECB: undefined): SerpentEngine.encrypt of whole blocks. */
  'serpent.encrypt': (tier, p, input, output) => {
    engine(tier).encrypt(p.key as Uint8Array, p.iv as Uint8Array | undefined, input!, undefined, output);
    return undefined;
  },
  /** params: key, iv (CBC: the ciphertext block before the piece; ECB: undefined): SerpentEngine.decrypt. */
  'serpent.decrypt': (tier, p, input, output) => {
    engine(tier).decrypt(p.key as Uint8Array, p.iv as Uint8Array | undefined, input!, output);
    return undefined;
  },
};
