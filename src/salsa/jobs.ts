/** The Salsa20 family's jobs for the pool's workers (parallel/jobs.ts). */
import { engine } from './tiers.js';
import { sealJob } from '../poly1305/polynomial.js';
import type { Tier } from '../runtime/kernels.js';
import { xorJob } from '../runtime/parallel-stream.js';
import type { JobHandler } from '../runtime/protocol.js';

const xorOf = (tier: Tier) => engine.of(tier).xor;

export const salsaJobs: Record<string, JobHandler> = {
  'salsa.xor': xorJob(xorOf),
  /** A piece of secretbox's encryption (the ciphertext's last block padded as Poly1305 pads). */
  'salsa.seal': sealJob(xorOf, false),
};
