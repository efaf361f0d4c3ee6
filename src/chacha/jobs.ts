/** The ChaCha family's jobs for the pool's workers (parallel/jobs.ts). */
import { engine } from './tiers.js';
import { sealJob } from '../poly1305/polynomial.js';
import type { Tier } from '../runtime/kernels.js';
import { xorJob } from '../runtime/parallel-stream.js';
import type { JobHandler } from '../runtime/protocol.js';

const xorOf = (tier: Tier) => engine.of(tier).xor;

export const chachaJobs: Record<string, JobHandler> = {
  'chacha.xor': xorJob(xorOf),
  /** A piece of ChaCha20-Poly1305's encryption (RFC 8439 §2.8: the ciphertext zero-padded). */
  'chacha.seal': sealJob(xorOf, true),
};
