/**
 * The stream ciphers of fourfold/parallel (ChaCha's and Salsa20's
 * families): the synchronous function's checks and bytes, the keystream
 * cut into pieces of whole 64-byte blocks, each piece XORed from its own
 * block counter (a keystream block depends on nothing but the key, the
 * nonce and its counter).
 */
import type { Bytes } from '../runtime/bytes.js';
import { streamArgs, type KeystreamXor, type StreamVariant } from '../runtime/stream-cipher.js';
import type { JobTable, OpsOf } from './protocol.js';
import type { XorJob } from './xor-job.js';
import type { PoolWorker } from './pool-worker.js';
import { lazyOutput, outputOf, PARALLEL_MIN, transform, type LazyOutput } from './transform.js';

/**
 * A stream cipher of fourfold/parallel: XorStream's arguments, resolving
 * to the bytes the synchronous function returns. `data` must not change
 * until the Promise settles.
 */
export interface ParallelXorStream {
  /** Resolves to a new array of `data.length` bytes. */
  (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: undefined, counter?: number | bigint): Promise<Bytes>;
  /** Writes `output` (exactly `data.length` bytes; it may be `data` itself) and resolves to it. */
  <T extends Uint8Array>(key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output: T, counter?: number | bigint): Promise<T>;
  /** Writes `output` when one is given, else a new array, and resolves to it. */
  (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint): Promise<Uint8Array>;
}

/** The counter words `blocks` after (low, high): a 64-bit sum, carrying from the low word into the high one. */
export function counterAfter(low: number, high: number, blocks: number): { counterLow: number; counterHigh: number } {
  const sum = low + blocks;
  return { counterLow: sum >>> 0, counterHigh: (high + Math.floor(sum / 0x100000000)) >>> 0 };
}

/**
 * The parallel function of a stream cipher whose workers run job `op` of
 * its family's table T ('chacha.xor', 'salsa.xor'), with the workers
 * `workersFor` gives for an input of so many bytes.
 */
export function parallelStreamCipher<T extends JobTable>(
  variant: StreamVariant,
  op: OpsOf<T, XorJob>,
  xor: () => KeystreamXor,
  workersFor: (bytes: number) => readonly PoolWorker[],
): ParallelXorStream {
  const { doubleRounds } = variant;
  const cipher = async (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter: number | bigint = 0): Promise<Uint8Array> => {
    const a = streamArgs(variant, key, nonce, data, output, counter);
    const n = a.input.length;
    if (n < PARALLEL_MIN) {
      const result = xor()(a.key, a.nonce, a.low, a.high, doubleRounds, a.input, a.output);
      // The caller's own output object, as the synchronous function returns it (a.output is a plain view of it).
      return output ?? result;
    }
    // Our copies: the caller may wipe or reuse its arrays once the promise is pending.
    const k = a.key.slice();
    const iv = a.nonce.slice();
    const out = a.output ?? lazyOutput(n);
    try {
      await xorPieces({ op, xor, key: k, nonce: iv, low: a.low, high: a.high, doubleRounds }, a.input, out, workersFor(n));
      return output ?? outputOf(out);
    } finally {
      k.fill(0);
    }
  };
  // A new array over an ArrayBuffer, or the caller's own output: what ParallelXorStream's overloads say.
  return cipher as ParallelXorStream;
}

/** A keystream as the pieces run it: job `op` on the workers, `xor` (the active tier's) on this thread. */
export interface Keystream {
  readonly op: string;
  readonly xor: () => KeystreamXor;
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  /** The block counter of the first byte, as two 32-bit words. */
  readonly low: number;
  readonly high: number;
  readonly doubleRounds: number;
}

/**
 * XORs keystream `k` into `input`, writing `output` (which may be `input`),
 * in pieces of whole 64-byte blocks, each from its own counter, on
 * `workers` and this thread. `k.key` and `k.nonce` must not change until
 * it settles.
 */
export async function xorPieces(k: Keystream, input: Uint8Array, output: Uint8Array | LazyOutput, workers: readonly PoolWorker[]): Promise<void> {
  const { key, nonce, doubleRounds } = k;
  const at = (start: number) => counterAfter(k.low, k.high, start / 64);
  await transform<Record<string, XorJob>, string>(
    {
      op: k.op,
      align: 64,
      params: (p) => ({ key: key.slice(), nonce: nonce.slice(), doubleRounds, ...at(p.start) }),
      onThisThread(i, o, p) {
        const { counterLow, counterHigh } = at(p.start);
        k.xor()(key, nonce, counterLow, counterHigh, doubleRounds, i, o);
        return undefined;
      },
    },
    input,
    output,
    workers,
  );
}
