/**
 * The workers' side of the stream ciphers' pieces (stream-cipher.ts is the
 * calling side): XOR the keystream from a piece's own block counter. Apart
 * from stream-cipher.ts so that a worker's script does not reach the pool.
 */
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import type { Handler, JobType } from './protocol.js';

/** A piece of keystream XOR: the block counter of its first block as two 32-bit words. */
export type XorJob = JobType<{ key: Uint8Array; nonce: Uint8Array; counterLow: number; counterHigh: number; doubleRounds: number }, undefined>;

/** The job of a piece of a stream cipher, on the keystream `xor` (one tier's). */
export function xorJob(xor: KeystreamXor): Handler<XorJob> {
  return (p, { input, output }) => {
    xor(p.key, p.nonce, p.counterLow, p.counterHigh, p.doubleRounds, input!, output);
    return undefined;
  };
}
