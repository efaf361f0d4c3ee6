/**
 * The Salsa20 family in fourfold/parallel: the synchronous functions' call
 * shapes (salsa/index.ts), each resolving to the same bytes, with large inputs
 * shared between the pool's workers and the calling thread.
 *
 * Secretbox ("Cryptography in NaCl" §9): keystream block 0 gives the
 * one-time key (its first 32 bytes) and encrypts the message's first 32
 * bytes (its last 32), here; the rest of the message, from byte 32, is cut
 * into pieces of 64-byte blocks encrypted from block 1 + their offset / 64,
 * each returning its ciphertext's polynomial, which combine into the tag
 * (poly1305/combine.ts). Decryption releases no plaintext of bytes it
 * did not authenticate (aead/pieces.ts). Pieces run in any order, so
 * an output that overlaps the input anywhere but in place is served from a
 * copy of the input (the synchronous function copies in one such case too).
 */
import { SALSA20, SALSA2012, SALSA208, XSALSA20 } from '../salsa/args.js';
import { xsalsa20poly1305 as syncXsalsa20poly1305 } from '../salsa/index.js';
import type { SalsaJobs } from '../salsa/jobs.js';
import { pieceHere } from '../salsa/pieces.js';
import { engine } from '../salsa/tiers.js';
import { openPieces, sealPieces, verifiedOpenPieces, verifyTag, type AeadCipher, type AeadPieces } from '../aead/pieces.js';
import { PolynomialSum } from '../poly1305/combine.js';
import { appendHere } from '../poly1305/pieces.js';
import { parallelStreamCipher } from '../pool/stream-cipher.js';
import { lazyOutput, outputOf, PARALLEL_MIN, partOf } from '../pool/transform.js';
import { workersFor } from './workers.js';
import { type AeadParams, aeadParams, type ParallelAead, type ParallelAeadMethods, TAG_LENGTH, tooShort } from '../runtime/aead.js';
import type { Bytes } from '../runtime/bytes.js';
import * as check from '../runtime/assert.js';
import type { StreamVariant } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

const streamCipher = (variant: StreamVariant) => parallelStreamCipher<SalsaJobs>(variant, 'salsa.xor', () => engine().xor, workersFor);

/** Salsa20 on all cores: resolves to the bytes of fourfold's salsa20. */
export const salsa20 = streamCipher(SALSA20);
/** Salsa20/12 on all cores: resolves to the bytes of fourfold's salsa2012. */
export const salsa2012 = streamCipher(SALSA2012);
/** Salsa20/8 on all cores: resolves to the bytes of fourfold's salsa208. */
export const salsa208 = streamCipher(SALSA208);
/** XSalsa20 on all cores: resolves to the bytes of fourfold's xsalsa20. */
export const xsalsa20 = streamCipher(XSALSA20);

const CIPHER: AeadCipher<'salsa'> = { family: 'salsa', xor: () => engine().xor, crypt: pieceHere, zeroPad: false };
/** The message bytes keystream block 0 encrypts, after the 32 of the one-time key. */
const HEAD = 32;

class ParallelSecretBox implements ParallelAeadMethods {
  private readonly key: Uint8Array;
  private readonly nonce: Uint8Array;

  constructor(key: Uint8Array, nonce: Uint8Array) {
    this.key = key.slice();
    this.nonce = nonce.slice();
  }

  /**
   * Keystream block 0 (the one-time key, then the keystream of the
   * message's first 32 bytes), and the pieces from the message's byte 32
   * on, whose keystream starts at block 1.
   */
  private pieces(): { block: Uint8Array; a: AeadPieces<'salsa'> } {
    const block = new Uint8Array(64);
    engine().xor(this.key, this.nonce, 0, 0, DOUBLE_ROUNDS, block, block);
    return { block, a: { cipher: CIPHER, key: this.key, nonce: this.nonce, counter: 1, oneTimeKey: block.subarray(0, 32) } };
  }

  /** tag || ciphertext, `plaintext.length + 16` bytes (in `output` when given). */
  async encrypt(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    let input = check.bytes(plaintext, 'plaintext');
    const n = input.length;
    const out = output === undefined ? undefined : check.output(output, n + TAG_LENGTH);
    if (n < PARALLEL_MIN) return syncXsalsa20poly1305(this.key, this.nonce).encrypt(input, output);
    const copied = out !== undefined && check.overlapping(input, out);
    if (copied) input = input.slice();
    const target = out ?? lazyOutput(n + TAG_LENGTH);
    const { block, a } = this.pieces();
    const sum = new PolynomialSum(a.oneTimeKey);
    // The ciphertext's first HEAD bytes, from block 0's keystream: written to the output with the tag, after the pieces.
    const head = new Uint8Array(HEAD);
    try {
      for (let i = 0; i < HEAD; i++) head[i] = input[i] ^ block[32 + i];
      appendHere(sum, a.oneTimeKey, head, false);
      await sealPieces(a, sum, input.subarray(HEAD), partOf(target, TAG_LENGTH + HEAD, TAG_LENGTH + n), workersFor(n));
      const sealed = outputOf(target);
      sealed.set(head, TAG_LENGTH);
      sum.tagInto(sealed.subarray(0, TAG_LENGTH));
      return output ?? sealed;
    } finally {
      sum.wipe();
      block.fill(0);
      head.fill(0);
      if (copied) input.fill(0);
    }
  }

  /**
   * The plaintext of tag || ciphertext (in `output` when given); rejects
   * with AuthenticationError on a wrong tag. Into an output the call
   * makes: one pass; into the caller's: two, no plaintext written before
   * the tag is verified (aead/pieces.ts).
   */
  async decrypt(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> {
    const input = check.bytes(ciphertext, 'ciphertext');
    if (input.length < TAG_LENGTH) throw tooShort(input.length);
    const n = input.length - TAG_LENGTH;
    const out = output === undefined ? undefined : check.output(output, n);
    if (n < PARALLEL_MIN) return syncXsalsa20poly1305(this.key, this.nonce).decrypt(input, output);
    const tag = input.slice(0, TAG_LENGTH);
    let body = input.subarray(TAG_LENGTH);
    const copied = out !== undefined && check.overlapping(body, out) && out.byteOffset !== body.byteOffset;
    if (copied) body = body.slice();
    const { block, a } = this.pieces();
    const sum = new PolynomialSum(a.oneTimeKey);
    // The first HEAD bytes of ciphertext, read once: authenticated and decrypted from this copy.
    const head = body.slice(0, HEAD);
    const verify = (): void => verifyTag(sum, tag);
    /** The plaintext's first HEAD bytes, from block 0's keystream, once the tag verified. */
    const headInto = (plain: Uint8Array): void => {
      for (let i = 0; i < HEAD; i++) plain[i] = head[i] ^ block[32 + i];
    };
    const target = out ?? lazyOutput(n);
    try {
      appendHere(sum, a.oneTimeKey, head, false);
      if (out !== undefined) {
        await verifiedOpenPieces(a, sum, verify, body.subarray(HEAD), out.subarray(HEAD), () => workersFor(n));
      } else {
        await openPieces(a, sum, body.subarray(HEAD), partOf(target, HEAD, n), workersFor(n));
        verify();
      }
      headInto(outputOf(target));
      return output ?? outputOf(target);
    } catch (e) {
      outputOf(target).fill(0);
      throw e;
    } finally {
      sum.wipe();
      block.fill(0);
      head.fill(0);
      if (copied) body.fill(0);
    }
  }
}

/** XSalsa20-Poly1305 (secretbox) on all cores: 32-byte key, 24-byte nonce; encrypt resolves to the 16-byte tag followed by the ciphertext, as fourfold's xsalsa20poly1305. */
// biome-ignore lint/suspicious/noShadow: the function is named as its constant, for stack traces; it is the same function.
export const xsalsa20poly1305: ((key: Uint8Array, nonce: Uint8Array, aad?: undefined) => ParallelAead) & AeadParams = aeadParams(function xsalsa20poly1305(
  key: Uint8Array,
  nonce: Uint8Array,
  aad?: undefined,
): ParallelAeadMethods {
  const k = check.key(key, [32]);
  const n = check.bytes(nonce, 'nonce', 24);
  if (aad !== undefined) throw new TypeError('xsalsa20poly1305 takes no associated data');
  return new ParallelSecretBox(k, n);
}, 24);

/** fourfold/parallel's secretbox: seal and open as SecretBoxApi's, resolving to the same bytes. */
export interface ParallelSecretBoxApi {
  /** Resolves to a new array: the 16-byte tag, then the ciphertext. */
  seal(plaintext: Uint8Array, output?: undefined): Promise<Bytes>;
  /** Seals into `output` (exactly `plaintext.length + 16` bytes) and resolves to it. */
  seal<T extends Uint8Array>(plaintext: Uint8Array, output: T): Promise<T>;
  /** Seals into `output` when one is given, else into a new array. */
  seal(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
  /** Resolves to the plaintext in a new array, or rejects with AuthenticationError before any plaintext is made. */
  open(ciphertext: Uint8Array, output?: undefined): Promise<Bytes>;
  /** Opens into `output` (exactly `ciphertext.length - 16` bytes) and resolves to it; on AuthenticationError `output` is zeroed. */
  open<T extends Uint8Array>(ciphertext: Uint8Array, output: T): Promise<T>;
  /** Opens into `output` when one is given, else into a new array. */
  open(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>;
}

/** NaCl's secretbox (XSalsa20-Poly1305) on all cores: 32-byte key, 24-byte nonce; seal and open resolve to the bytes of fourfold's secretbox. */
export function secretbox(key: Uint8Array, nonce: Uint8Array, aad?: undefined): ParallelSecretBoxApi {
  // Associated data given here is refused, as xsalsa20poly1305 refuses it: nothing would authenticate it.
  const box = xsalsa20poly1305(key, nonce, aad);
  const api: { seal(plaintext: Uint8Array, output?: Uint8Array): Promise<Uint8Array>; open(ciphertext: Uint8Array, output?: Uint8Array): Promise<Uint8Array> } =
    {
      seal: (plaintext, output) => box.encrypt(plaintext, output),
      open: (ciphertext, output) => box.decrypt(ciphertext, output),
    };
  // A new array over an ArrayBuffer, or the caller's own output: what ParallelSecretBoxApi's overloads say.
  return api as ParallelSecretBoxApi;
}
