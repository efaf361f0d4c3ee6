/**
 * Serpent in fourfold/parallel: ecb, cbc and ctr with the synchronous
 * call shapes (serpent/index.ts), each resolving to the same bytes. CTR and ECB
 * cut the message into pieces of whole blocks that run anywhere (CTR's
 * counter block of a piece is the IV plus its offset in blocks); CBC
 * decryption too, each piece starting from the ciphertext block before it.
 * CBC encryption is serial by definition (SP 800-38A §6.2: every block
 * takes the previous ciphertext block): it runs on one worker, piece
 * after piece, so the calling thread stays free.
 */
import { BLOCK_BYTES, type BlockModeOptions, decryptArgs, encryptArgs, ivOf, keyOf, paddingOption, unpad } from '../serpent/args.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { pool } from '../pool/pool.js';
import { lazyOutput, outputOf, PARALLEL_MIN, transform, type Transform } from '../pool/transform.js';
import { workersFor } from './workers.js';
import { ctr as syncCtr, ecb as syncEcb, cbc as syncCbc, type Cipher } from '../serpent/index.js';
import type { SerpentJobs } from '../serpent/jobs.js';
import { engine } from '../serpent/tiers.js';

export { PaddingError, type BlockModeOptions } from '../serpent/args.js';

/** A Serpent cipher of fourfold/parallel: Cipher's methods, resolving to what the synchronous ones return. */
export interface ParallelCipher {
  /** Resolves to the ciphertext in a new array. */
  encrypt(data: Uint8Array, output?: undefined): Promise<Bytes>;
  /** Encrypts into `output` (exactly the ciphertext's length) and resolves to it. */
  encrypt<T extends Uint8Array>(data: Uint8Array, output: T): Promise<T>;
  /** Encrypts into `output` when one is given, else into a new array. */
  encrypt(data: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
  /** Resolves to the plaintext in a new array; with padding, rejects with PaddingError on a padding that is not PKCS#7's. */
  decrypt(data: Uint8Array, output?: undefined): Promise<Bytes>;
  /** Decrypts into `output` (exactly the ciphertext's length) and resolves to the plaintext: `output`, or with padding the view of its first bytes. */
  decrypt(data: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
}

/** What the classes behind ParallelCipher have. */
interface ParallelCipherMethods {
  encrypt(data: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
  decrypt(data: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
}

/** The CTR counter block `blocks` after `iv`: a 128-bit big-endian sum, wrapping (SP 800-38A §B.1). */
function counterBlock(iv: Uint8Array, blocks: number): Uint8Array {
  const out = iv.slice();
  let carry = blocks;
  for (let i = 15; i >= 0 && carry > 0; i--) {
    const sum = out[i] + (carry % 256);
    out[i] = sum & 255;
    carry = Math.floor(carry / 256) + (sum >> 8);
  }
  return out;
}

type Op = keyof SerpentJobs;

/** A Serpent transform of whole blocks: job `op`, with the IV each piece starts from (`ivAt`, undefined for ECB). */
function blockTransform<K extends Op>(
  op: K,
  key: Uint8Array,
  ivAt: (start: number) => Uint8Array | undefined,
  onThisThread: Transform<SerpentJobs, K>['onThisThread'],
): Transform<SerpentJobs, K> {
  return { op, align: BLOCK_BYTES, params: (p) => ({ key: key.slice(), iv: ivAt(p.start) }), onThisThread };
}

class Ctr implements ParallelCipherMethods {
  constructor(
    private readonly key: Uint8Array,
    private readonly iv: Uint8Array,
  ) {}

  encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    return this.xor(plaintext, 'plaintext', output);
  }

  decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    return this.xor(ciphertext, 'ciphertext', output);
  }

  private async xor(data: Uint8Array, name: string, output: Uint8Array | undefined): Promise<Uint8Array> {
    const input = check.bytes(data, name);
    const n = input.length;
    const out = output === undefined ? undefined : check.output(output, n);
    if (out !== undefined) check.noPartialOverlap(input, out);
    if (n < PARALLEL_MIN) return syncCtr(this.key, this.iv).encrypt(input, output);
    const target = out ?? lazyOutput(n);
    const ivAt = (start: number) => counterBlock(this.iv, start / BLOCK_BYTES);
    await transform(
      blockTransform('serpent.ctr', this.key, ivAt, (i, o, p) => void engine().ctr(this.key, ivAt(p.start)!, i, o)),
      input,
      target,
      workersFor(n),
    );
    return output ?? outputOf(target);
  }
}

class BlockMode implements ParallelCipherMethods {
  constructor(
    private readonly key: Uint8Array,
    private readonly iv: Uint8Array | undefined,
    private readonly padding: boolean,
  ) {}

  /** The synchronous cipher, for inputs too small for workers. */
  private inline(): Cipher {
    const opts = { disablePadding: !this.padding };
    return this.iv === undefined ? syncEcb(this.key, opts) : syncCbc(this.key, this.iv, opts);
  }

  async encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const a = encryptArgs(plaintext, output, this.padding);
    const whole = a.body.length;
    try {
      if (whole < PARALLEL_MIN) return this.inline().encrypt(plaintext, output);
      const target = a.output ?? new Uint8Array(whole + (a.final === undefined ? 0 : BLOCK_BYTES));
      const body = target.subarray(0, whole);
      const chained = this.iv !== undefined;
      // CBC: each piece continues from the ciphertext block before it, written by then (serial).
      const ivAt = (start: number) => (!chained ? undefined : start === 0 ? this.iv!.slice() : body.slice(start - BLOCK_BYTES, start));
      await transform(
        {
          ...blockTransform('serpent.encrypt', this.key, ivAt, (i, o, p) => void engine().encrypt(this.key, ivAt(p.start), i, undefined, o)),
          serial: chained,
        },
        a.body,
        body,
        chained ? workersFor(whole, Math.min(1, pool.size)) : workersFor(whole),
      );
      if (a.final !== undefined) engine().encrypt(this.key, ivAt(whole), a.final, undefined, target.subarray(whole));
      return output ?? target;
    } finally {
      a.final?.fill(0);
    }
  }

  async decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const a = decryptArgs(ciphertext, output, this.padding);
    const input = a.input;
    const n = input.length;
    if (n < PARALLEL_MIN) return this.inline().decrypt(input, output);
    const target = a.output ?? new Uint8Array(n);
    // CBC: a piece starts from the ciphertext block before it, kept before any output can
    // overwrite it (in place, the piece before may be written first).
    const kept = new Map<number, Uint8Array>();
    const ivAt = (start: number): Uint8Array | undefined =>
      this.iv === undefined ? undefined : start === 0 ? this.iv.slice() : (kept.get(start)?.slice() ?? input.slice(start - BLOCK_BYTES, start));
    try {
      await transform(
        {
          ...blockTransform('serpent.decrypt', this.key, ivAt, (i, o, p) => void engine().decrypt(this.key, ivAt(p.start), i, o)),
          onStart: (_, end) => {
            if (this.iv !== undefined && end < n && !kept.has(end)) kept.set(end, input.slice(end - BLOCK_BYTES, end));
          },
        },
        input,
        target,
        workersFor(n),
      );
    } finally {
      for (const block of kept.values()) block.fill(0);
    }
    return unpad(output !== undefined && !this.padding ? output : target, this.padding);
  }
}

/** Serpent-ECB (SP 800-38A §6.1) on all cores, as fourfold's serpent.ecb. */
export function ecb(key: Uint8Array, opts?: BlockModeOptions): ParallelCipher {
  return new BlockMode(keyOf(key), undefined, paddingOption(opts)) as ParallelCipher;
}

/** Serpent-CBC (SP 800-38A §6.2) on all cores, as fourfold's serpent.cbc (decryption in parallel; encryption is serial by nature). */
export function cbc(key: Uint8Array, iv: Uint8Array, opts?: BlockModeOptions): ParallelCipher {
  return new BlockMode(keyOf(key), ivOf(iv), paddingOption(opts)) as ParallelCipher;
}

/** Serpent-CTR (SP 800-38A §6.5) on all cores, as fourfold's serpent.ctr. */
export function ctr(key: Uint8Array, iv: Uint8Array): ParallelCipher {
  return new Ctr(keyOf(key), ivOf(iv)) as ParallelCipher;
}
