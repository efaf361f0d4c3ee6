/** The ChaCha family's jobs for the pool's workers (parallel/worker.ts and worker-js.ts serve them). */
import type { ChachaEngine } from './engine.js';
import type { Poly1305Engine } from '../poly1305/engine.js';
import { aeadJobs, type AeadJobs, type PieceCrypt } from '../aead/jobs.js';
import type { Handlers } from '../pool/protocol.js';
import { xorJob, type XorJob } from '../pool/xor-job.js';

/** Pieces of the ChaCha stream ciphers, and of ChaCha20-Poly1305's encryption and decryption (RFC 8439 §2.8: the ciphertext zero-padded). */
export type ChachaJobs = { readonly 'chacha.xor': XorJob } & AeadJobs<'chacha'>;

/** The jobs on one tier's engines: its ChaCha, its AEAD piece (pieces.ts) and its Poly1305. */
export function chachaJobs(chacha: ChachaEngine, piece: PieceCrypt, poly: Poly1305Engine): Handlers<ChachaJobs> {
  const aead = aeadJobs(chacha.xor, piece, poly, true);
  return { 'chacha.xor': xorJob(chacha.xor), 'chacha.seal': aead.seal, 'chacha.open': aead.open };
}
