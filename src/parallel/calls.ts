/**
 * fourfold/parallel's exports, without the pool's Web Worker form: the
 * entry where the host has no workers (dist/edge/parallel.js, package.json's
 * workerd and edge-light conditions). index.ts, the default entry, adds
 * that form (web-workers.ts).
 */
export { ready, tier, type ReadyOptions, type Tier } from '../runtime/kernels.js';
export { AuthenticationError } from '../runtime/errors.js';
export type { ParallelAead } from '../runtime/aead.js';
export type { ParallelXorStream } from '../pool/stream-cipher.js';
export { WorkerLostError } from '../pool/job-handle.js';
export { configure, status, terminate, warm, type PoolOptions, type PoolStatus, type WarmOptions } from './control.js';
export { chacha8, chacha12, chacha20, chacha20orig, chacha20poly1305, xchacha20, xchacha20poly1305 } from './chacha.js';
export { poly1305 } from './poly1305.js';
export { salsa20, salsa208, salsa2012, secretbox, xsalsa20, xsalsa20poly1305, type ParallelSecretBoxApi } from './salsa.js';
export { blake3, type Blake3ParallelOpts } from './blake3.js';
export { scrypt, type ScryptParallelOpts } from './scrypt.js';
export { argon2d, argon2i, argon2id, type Argon2ParallelOpts } from './argon2.js';
export { argon2dHash, argon2idHash, argon2iHash, argon2Verify, needsRehash, type Argon2HashParallelOpts, type Argon2VerifyParallelOpts } from './argon2-phc.js';
/** Serpent's ECB, CBC and CTR modes on all cores: fourfold's serpent.ecb, cbc and ctr, resolving to the same bytes. */
export * as serpent from './serpent.js';
/** age files and streams on every core: fourfold/age's calls, resolving to the same bytes. */
export * as age from './age.js';
/** secretstream with encryptStream and decryptStream sealing and opening in a worker; the incremental initPush and initPull are fourfold's. */
export * as secretstream from './secretstream.js';
