/** The ChaCha family's jobs for the pool's workers (pool/worker.ts serves them). */
import { pieceOf } from './pieces.js';
import { engineOf } from './tiers.js';
import { aeadJobs, type AeadJobs } from '../poly1305/polynomial.js';
import type { Handlers } from '../pool/protocol.js';
import { xorJob, type XorJob } from '../pool/stream-cipher.js';
import type { Tier } from '../runtime/kernels.js';

const xorOf = (tier: Tier) => engineOf(tier).xor;

/** Pieces of the ChaCha stream ciphers, and of ChaCha20-Poly1305's encryption and decryption (RFC 8439 §2.8: the ciphertext zero-padded). */
export type ChachaJobs = { readonly 'chacha.xor': XorJob } & AeadJobs<'chacha'>;

const aead = aeadJobs(xorOf, pieceOf, true);

export const chachaJobs: Handlers<ChachaJobs> = {
  'chacha.xor': xorJob(xorOf),
  'chacha.seal': aead.seal,
  'chacha.open': aead.open,
};
