/** The Salsa20 family's jobs for the pool's workers (pool/worker.ts serves them). */
import { pieceOf } from './pieces.js';
import { engineOf } from './tiers.js';
import { aeadJobs, type AeadJobs } from '../poly1305/polynomial.js';
import type { Handlers } from '../pool/protocol.js';
import { xorJob, type XorJob } from '../pool/stream-cipher.js';
import type { Tier } from '../runtime/kernels.js';

const xorOf = (tier: Tier) => engineOf(tier).xor;

/** Pieces of the Salsa20 stream ciphers, and of secretbox's encryption and decryption (the last block padded as Poly1305 pads). */
export type SalsaJobs = { readonly 'salsa.xor': XorJob } & AeadJobs<'salsa'>;

const aead = aeadJobs(xorOf, pieceOf, false);

export const salsaJobs: Handlers<SalsaJobs> = {
  'salsa.xor': xorJob(xorOf),
  'salsa.seal': aead.seal,
  'salsa.open': aead.open,
};
