/** Serpent's jobs for the pool's workers (pool/worker.ts serves them). */
import { engine } from './tiers.js';
import type { Handlers, JobType } from '../pool/protocol.js';

/** A piece of whole blocks: key, and iv (CTR: the piece's first counter block; CBC: the ciphertext block before the piece; ECB: none). */
export type BlockJob = JobType<{ key: Uint8Array; iv: Uint8Array | undefined }, undefined>;

export type SerpentJobs = {
  /** SerpentEngine.ctr. */
  readonly 'serpent.ctr': BlockJob;
  /** SerpentEngine.encrypt of whole blocks. */
  readonly 'serpent.encrypt': BlockJob;
  /** SerpentEngine.decrypt. */
  readonly 'serpent.decrypt': BlockJob;
};

export const serpentJobs: Handlers<SerpentJobs> = {
  'serpent.ctr': (tier, p, { input, output }) => void engine.of(tier).ctr(p.key, p.iv!, input!, output),
  'serpent.encrypt': (tier, p, { input, output }) => void engine.of(tier).encrypt(p.key, p.iv, input!, undefined, output),
  'serpent.decrypt': (tier, p, { input, output }) => void engine.of(tier).decrypt(p.key, p.iv, input!, output),
};
