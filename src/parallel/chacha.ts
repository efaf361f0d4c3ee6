/**
 * The ChaCha family in fourfold/parallel: the synchronous functions' call
 * shapes (chacha/index.ts), each resolving to the same bytes, with large inputs
 * shared between the pool's workers and the calling thread.
 *
 * The AEADs (RFC 8439 §2.8; XChaCha20-Poly1305 with a 24-byte nonce): the
 * one-time key is keystream block 0, computed here; pieces of 64-byte
 * blocks are encrypted (or decrypted) from block 1 + their offset / 64 and
 * each returns its ciphertext's polynomial, which combine with those of
 * the aad and the length block into the tag (poly1305/combine.ts).
 * Decryption releases no plaintext of bytes it did not authenticate
 * (aead/pieces.ts).
 */
import { chachaAead, CHACHA12, CHACHA20, CHACHA20_ORIG, CHACHA8, openArgs, sealArgs, XCHACHA20 } from '../chacha/args.js';
import { chacha20poly1305 as syncChacha20poly1305, xchacha20poly1305 as syncXchacha20poly1305 } from '../chacha/index.js';
import type { ChachaJobs } from '../chacha/jobs.js';
import { pieceHere } from '../chacha/pieces.js';
import { engine } from '../chacha/tiers.js';
import { openPieces, sealPieces, verifiedOpenPieces, verifyTag, type AeadCipher, type AeadPieces } from '../aead/pieces.js';
import { PolynomialSum } from '../poly1305/combine.js';
import { appendHere } from '../poly1305/pieces.js';
import { parallelStreamCipher } from '../pool/stream-cipher.js';
import { lazyOutput, outputOf, PARALLEL_MIN, partOf } from '../pool/transform.js';
import { workersFor } from './workers.js';
import { type AeadMethods, type AeadParams, aeadParams, type ParallelAead, type ParallelAeadMethods, TAG_LENGTH } from '../runtime/aead.js';
import { lengthBlock } from '../runtime/bytes.js';
import type { StreamVariant } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

const streamCipher = (variant: StreamVariant) => parallelStreamCipher<ChachaJobs>(variant, 'chacha.xor', () => engine().xor, workersFor);

/** ChaCha20 of RFC 8439 (12-byte nonce, 32-bit counter) on all cores: resolves to the bytes of fourfold's chacha20. */
export const chacha20 = streamCipher(CHACHA20);
/** ChaCha8 on all cores: resolves to the bytes of fourfold's chacha8. */
export const chacha8 = streamCipher(CHACHA8);
/** ChaCha12 on all cores: resolves to the bytes of fourfold's chacha12. */
export const chacha12 = streamCipher(CHACHA12);
/** The original ChaCha20 (8-byte nonce, 64-bit counter) on all cores: resolves to the bytes of fourfold's chacha20orig. */
export const chacha20orig = streamCipher(CHACHA20_ORIG);
/** XChaCha20 (24-byte nonce, 64-bit counter) on all cores: resolves to the bytes of fourfold's xchacha20. */
export const xchacha20 = streamCipher(XCHACHA20);

const CIPHER: AeadCipher<'chacha'> = { family: 'chacha', xor: () => engine().xor, crypt: pieceHere, zeroPad: true };

class ParallelChachaPoly1305 implements ParallelAeadMethods {
  private readonly key: Uint8Array;
  private readonly nonce: Uint8Array;
  private readonly aad: Uint8Array;

  constructor(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array) {
    // Copies: the caller may change its arrays while a call is pending.
    this.key = key.slice();
    this.nonce = nonce.slice();
    this.aad = aad.slice();
  }

  /** The synchronous AEAD, for inputs too small for workers: made only when one comes (it copies the key, nonce and aad again). */
  private inline(): AeadMethods {
    return (this.nonce.length === 24 ? syncXchacha20poly1305 : syncChacha20poly1305)(this.key, this.nonce, this.aad);
  }

  /** The pieces' keystream from block 1 on, and Poly1305's key (RFC 8439 §2.6): the first 32 bytes of keystream block 0. */
  private pieces(): AeadPieces<'chacha'> {
    const oneTimeKey = new Uint8Array(32);
    engine().xor(this.key, this.nonce, 0, 0, DOUBLE_ROUNDS, oneTimeKey, oneTimeKey);
    return { cipher: CIPHER, key: this.key, nonce: this.nonce, counter: 1, oneTimeKey };
  }

  /** The sum of the aad's polynomial, to which the pieces' are appended. */
  private sum(oneTimeKey: Uint8Array): PolynomialSum {
    const sum = new PolynomialSum(oneTimeKey);
    if (this.aad.length > 0) appendHere(sum, oneTimeKey, this.aad, true);
    return sum;
  }

  /** The length block's polynomial (RFC 8439 §2.8), appended once the pieces' are in `sum`: then the tag follows. */
  private appendLengths(sum: PolynomialSum, oneTimeKey: Uint8Array, length: number): void {
    appendHere(sum, oneTimeKey, lengthBlock(this.aad.length, length), true);
  }

  async encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const { input, output: out } = sealArgs(plaintext, output);
    const n = input.length;
    if (n < PARALLEL_MIN) return this.inline().encrypt(input, output);
    const target = out ?? lazyOutput(n + TAG_LENGTH);
    const a = this.pieces();
    const sum = this.sum(a.oneTimeKey);
    try {
      await sealPieces(a, sum, input, partOf(target, 0, n), workersFor(n));
      this.appendLengths(sum, a.oneTimeKey, n);
      sum.tagInto(outputOf(target).subarray(n));
      return output ?? outputOf(target);
    } finally {
      sum.wipe();
      a.oneTimeKey.fill(0);
    }
  }

  /**
   * Into an output the call makes: one pass (aead/pieces.ts). Into
   * the caller's: two, no plaintext written before the tag is verified (it
   * holds the ciphertext until then). On a wrong tag the output is zeroed
   * and the call rejects.
   */
  async decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const { body, tag, output: out } = openArgs(ciphertext, output);
    const n = body.length;
    if (n < PARALLEL_MIN) return this.inline().decrypt(ciphertext, output);
    const a = this.pieces();
    const sum = this.sum(a.oneTimeKey);
    const verify = (): void => {
      this.appendLengths(sum, a.oneTimeKey, n);
      verifyTag(sum, tag);
    };
    try {
      if (out !== undefined) {
        await verifiedOpenPieces(a, sum, verify, body, out, () => workersFor(n)).catch((e: unknown) => {
          out.fill(0);
          throw e;
        });
        return output!;
      }
      const plaintext = lazyOutput(n);
      try {
        await openPieces(a, sum, body, plaintext, workersFor(n));
        verify();
        return plaintext();
      } catch (e) {
        plaintext().fill(0);
        throw e;
      }
    } finally {
      sum.wipe();
      a.oneTimeKey.fill(0);
    }
  }
}

/**
 * ChaCha20-Poly1305 (RFC 8439 §2.8) on all cores: a 32-byte key, a 12-byte
 * nonce never repeated under one key, optional associated data; encrypt
 * and decrypt resolve to the bytes of fourfold's chacha20poly1305.
 */
export const chacha20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => ParallelAead) & AeadParams = aeadParams(
  chachaAead('chacha20poly1305', 12, (key, nonce, aad): ParallelAeadMethods => new ParallelChachaPoly1305(key, nonce, aad)),
  12,
);

/**
 * XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3) on all cores: a
 * 32-byte key, a 24-byte random nonce, optional associated data; encrypt
 * and decrypt resolve to the bytes of fourfold's xchacha20poly1305. Large
 * inputs (2 MiB and more) are shared between the workers and the calling
 * thread; decryption verifies the whole tag before it makes any plaintext.
 *
 * @example
 * ```ts
 * import { xchacha20poly1305 } from 'fourfold/parallel';
 * const key = crypto.getRandomValues(new Uint8Array(32));
 * const nonce = crypto.getRandomValues(new Uint8Array(24));
 * const sealed = await xchacha20poly1305(key, nonce).encrypt(new Uint8Array(64 << 20));
 * const opened = await xchacha20poly1305(key, nonce).decrypt(sealed);
 * ```
 */
export const xchacha20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => ParallelAead) & AeadParams = aeadParams(
  chachaAead('xchacha20poly1305', 24, (key, nonce, aad): ParallelAeadMethods => new ParallelChachaPoly1305(key, nonce, aad)),
  24,
);
