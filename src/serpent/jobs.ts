/** Serpent's jobs for the pool's workers (parallel/worker.ts and worker-js.ts serve them). */
import type { SerpentEngine } from './engine.js';
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

/** The jobs on one tier's engine. */
export function serpentJobs(serpent: SerpentEngine): Handlers<SerpentJobs> {
  return {
    'serpent.ctr': (p, { input, output }) => void serpent.ctr(p.key, p.iv!, input!, output),
    'serpent.encrypt': (p, { input, output }) => void serpent.encrypt(p.key, p.iv, input!, undefined, output),
    'serpent.decrypt': (p, { input, output }) => void serpent.decrypt(p.key, p.iv, input!, output),
  };
}
