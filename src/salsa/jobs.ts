/** The Salsa20 family's jobs for the pool's workers (parallel/worker.ts and worker-js.ts serve them). */
import type { SalsaEngine } from './engine.js';
import type { Poly1305Engine } from '../poly1305/engine.js';
import { aeadJobs, type AeadJobs, type PieceCrypt } from '../aead/jobs.js';
import type { Handlers } from '../pool/protocol.js';
import { xorJob, type XorJob } from '../pool/xor-job.js';

/** Pieces of the Salsa20 stream ciphers, and of secretbox's encryption and decryption (the last block padded as Poly1305 pads). */
export type SalsaJobs = { readonly 'salsa.xor': XorJob } & AeadJobs<'salsa'>;

/** The jobs on one tier's engines: its Salsa20, its secretbox piece (pieces.ts) and its Poly1305. */
export function salsaJobs(salsa: SalsaEngine, piece: PieceCrypt, poly: Poly1305Engine): Handlers<SalsaJobs> {
  const aead = aeadJobs(salsa.xor, piece, poly, false);
  return { 'salsa.xor': xorJob(salsa.xor), 'salsa.seal': aead.seal, 'salsa.open': aead.open };
}
