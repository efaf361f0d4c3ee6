/**
 * The ChaCha family in fourfold/parallel: the synchronous functions' call
 * shapes (index.ts), each resolving to the same bytes, with large inputs
 * shared between the pool's workers and the calling thread.
 *
 * The AEADs (RFC 8439 §2.8; XChaCha20-Poly1305 with a 24-byte nonce): the
 * one-time key is keystream block 0, computed here; pieces of 64-byte
 * blocks are encrypted from block 1 + their offset / 64 and each returns
 * its ciphertext's polynomial, which combine with those of the aad and
 * the length block into the tag (poly1305/combine.ts). Decryption checks
 * the tag over the whole ciphertext before it makes any plaintext.
 */
import { aadOf, CHACHA12, CHACHA20, CHACHA20_ORIG, CHACHA8, openArgs, sealArgs, XCHACHA20 } from './args.js';
import { chacha20poly1305 as syncChacha20poly1305, xchacha20poly1305 as syncXchacha20poly1305 } from './index.js';
import { engine } from './tiers.js';
import { appendHere, polynomialPieces, PolynomialSum, sealPieces, xorPieces, type AeadCipher } from '../parallel/aead.js';
import { type AeadMethods, type AeadParams, aeadParams, type ParallelAead, type ParallelAeadMethods, TAG_LENGTH } from '../runtime/aead.js';
import * as check from '../runtime/assert.js';
import { AuthenticationError } from '../runtime/errors.js';
import { equalBytes, lengthBlock } from '../runtime/bytes.js';
import { later, made, PARALLEL_MIN, partOf, team } from '../runtime/parallel.js';
import { parallelStreamCipher } from '../runtime/parallel-stream.js';
import type { StreamVariant } from '../runtime/stream-cipher.js';

const streamCipher = (variant: StreamVariant) => parallelStreamCipher(variant, 'chacha.xor', () => engine().xor);

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

const CIPHER: AeadCipher = { family: 'chacha', xor: () => engine().xor, zeroPad: true };

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

  /** Poly1305's key (RFC 8439 §2.6): the first 32 bytes of keystream block 0. */
  private oneTimeKey(): Uint8Array {
    const otk = new Uint8Array(32);
    engine().xor(this.key, this.nonce, 0, 0, 10, otk, otk);
    return otk;
  }

  /** The tag of a ciphertext of `length` bytes (its pieces' polynomials computed by `pieces`), into `tag()`. */
  private async tagOf(length: number, otk: Uint8Array, pieces: (sum: PolynomialSum) => Promise<void>, tag: () => Uint8Array): Promise<void> {
    const sum = new PolynomialSum(otk);
    try {
      if (this.aad.length > 0) appendHere(sum, otk, this.aad, true);
      await pieces(sum);
      appendHere(sum, otk, lengthBlock(this.aad.length, length), true);
      sum.tagInto(tag());
    } finally {
      sum.wipe();
    }
  }

  async encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const { input, output: out } = sealArgs(plaintext, output);
    const n = input.length;
    if (n < PARALLEL_MIN) return this.inline().encrypt(input, output);
    const target = out ?? later(n + TAG_LENGTH);
    const otk = this.oneTimeKey();
    try {
      const body = partOf(target, 0, n);
      await this.tagOf(n, otk, (sum) => sealPieces(CIPHER, this.key, this.nonce, 1, otk, sum, input, body, team(n)), () => made(target).subarray(n));
      return output ?? made(target);
    } finally {
      otk.fill(0);
    }
  }

  async decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const { body, tag, output: out } = openArgs(ciphertext, output);
    const n = body.length;
    if (n < PARALLEL_MIN) return this.inline().decrypt(ciphertext, output);
    const otk = this.oneTimeKey();
    const expected = new Uint8Array(TAG_LENGTH);
    try {
      await this.tagOf(n, otk, (sum) => polynomialPieces(otk, CIPHER.zeroPad, sum, body, team(n)), () => expected);
      if (!equalBytes(expected, 0, tag, 0, TAG_LENGTH)) {
        out?.fill(0);
        throw new AuthenticationError();
      }
      const target = out ?? later(n);
      await xorPieces(CIPHER, this.key, this.nonce, 1, body, target, team(n));
      return output ?? made(target);
    } finally {
      otk.fill(0);
      expected.fill(0);
    }
  }
}

/**
 * ChaCha20-Poly1305 (RFC 8439 §2.8) on all cores: a 32-byte key, a 12-byte
 * nonce never repeated under one key, optional associated data; encrypt
 * and decrypt resolve to the bytes of fourfold's chacha20poly1305.
 */
export const chacha20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => ParallelAead) & AeadParams = aeadParams(function chacha20poly1305(key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array): ParallelAeadMethods {
  return new ParallelChachaPoly1305(check.key(key, [32]), check.bytes(nonce, 'nonce', 12), aadOf(aad));
}, 12);

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
export const xchacha20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => ParallelAead) & AeadParams = aeadParams(function xchacha20poly1305(key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array): ParallelAeadMethods {
  return new ParallelChachaPoly1305(check.key(key, [32]), check.bytes(nonce, 'nonce', 24), aadOf(aad));
}, 24);
