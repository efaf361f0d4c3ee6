/**
 * The parts of fourfold/parallel's AEADs (ChaCha20-Poly1305 and
 * XChaCha20-Poly1305: parallel/chacha.ts; secretbox: parallel/salsa.ts)
 * that do not depend on the cipher: encrypting pieces and collecting
 * their ciphertexts' polynomials, and decrypting pieces.
 *
 * Decryption reads each ciphertext byte once: a piece is copied (into a
 * worker's slot, or the kernel's memory, or by the worker from shared
 * memory), and its polynomial and what it writes both come from that
 * copy, so the plaintext a call resolves with is the plaintext of the
 * bytes it authenticated, whatever the caller or another thread do to the
 * ciphertext meanwhile.
 *
 * - Into an output the call makes (openPieces): one pass. Nobody can read
 *   that output before the call resolves; the tag is checked after the
 *   pieces, and on a wrong one the output is zeroed and never returned.
 * - Into a caller's output (verifiedOpenPieces), which another task or
 *   thread can read while the call is pending: two passes, no byte of
 *   plaintext written before the tag is verified. The first copies the
 *   ciphertext into the output with the pieces' polynomials, the caller
 *   checks the tag, the second decrypts the output in place. In place
 *   (output and input the same bytes), the second pass reads the
 *   ciphertext again and decrypts a piece only if it still has its
 *   polynomial.
 */
import { type OpenJob, polynomialThenDecrypt, type PieceCrypt, type SealJob } from './jobs.js';
import type { PolynomialSum } from '../poly1305/combine.js';
import { appendParts, polynomialPieces, rOnly, wipeParts } from '../poly1305/pieces.js';
import { samePolynomial } from '../poly1305/polynomial.js';
import { engine as polyHere } from '../poly1305/tiers.js';
import { overlapping } from '../runtime/assert.js';
import { TAG_LENGTH } from '../runtime/aead.js';
import { equalBytes } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';
import type { PoolWorker } from '../pool/pool-worker.js';
import { xorPieces } from '../pool/stream-cipher.js';
import { transform, type LazyOutput, type Part } from '../pool/transform.js';

/** An AEAD's keystream and padding, as the pieces need them. */
export interface AeadCipher<F extends string> {
  /** The family's job prefix: its table offers AeadJobs<F>, `${family}.seal` and `${family}.open`. */
  readonly family: F;
  /** The keystream of the active tier. */
  readonly xor: () => KeystreamXor;
  /** A piece in one pass, on the active tier. */
  readonly crypt: () => PieceCrypt;
  /** Whether the ciphertext's last block is zero-padded (RFC 8439's AEAD) or padded as Poly1305 pads (secretbox). */
  readonly zeroPad: boolean;
}

/** Where an AEAD's pieces start: its key, nonce, the block of byte 0 of the pieces, and the one-time key. */
export interface AeadPieces<F extends string> {
  readonly cipher: AeadCipher<F>;
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  /** The keystream block of the pieces' first byte. */
  readonly counter: number;
  readonly oneTimeKey: Uint8Array;
}

const pieceParams = <F extends string>(a: AeadPieces<F>, start: number) => ({
  key: a.key.slice(),
  nonce: a.nonce.slice(),
  counter: a.counter + start / 64,
  polyKey: rOnly(a.oneTimeKey),
});

const pieceHere = <F extends string>(a: AeadPieces<F>, start: number) => ({
  key: a.key,
  nonce: a.nonce,
  counter: a.counter + start / 64,
  polyKey: a.oneTimeKey,
});

/**
 * The pieces of one pass: each encrypts (or, with `decrypt`, decrypts)
 * its part of `input` into `output` and returns its ciphertext's
 * polynomial, which is appended to `sum` in order.
 */
async function cryptPieces<F extends string>(
  a: AeadPieces<F>,
  decrypt: boolean,
  sum: PolynomialSum,
  input: Uint8Array,
  output: Uint8Array | LazyOutput,
  workers: readonly PoolWorker[],
): Promise<void> {
  const { cipher } = a;
  const parts = await transform<Record<string, SealJob | OpenJob>, string>(
    {
      op: `${cipher.family}.${decrypt ? 'open' : 'seal'}`,
      align: 64,
      // A decryption reads its input for the polynomial and for the plaintext: shared input is copied once first.
      readsTwice: decrypt,
      params: (p) => pieceParams(a, p.start),
      onThisThread: (i, o, p) => cipher.crypt()(pieceHere(a, p.start), cipher.zeroPad, decrypt, i, o!),
    },
    input,
    output,
    workers,
  );
  appendParts(sum, parts);
}

/** Encrypts `input` into `output` (64-byte pieces), and appends the ciphertext's polynomial to `sum`. */
export const sealPieces = <F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  input: Uint8Array,
  output: Uint8Array | LazyOutput,
  workers: readonly PoolWorker[],
): Promise<void> => cryptPieces(a, false, sum, input, output, workers);

/**
 * One pass: decrypts `input` into `output`, which the call made and nobody
 * else can read before it resolves, and appends the ciphertext's
 * polynomial to `sum`. The caller checks the tag afterwards (verifyTag).
 */
export const openPieces = <F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  input: Uint8Array,
  output: Uint8Array | LazyOutput,
  workers: readonly PoolWorker[],
): Promise<void> => cryptPieces(a, true, sum, input, output, workers);

/**
 * Checks `tag` against the tag of `sum`, whose polynomials are all in
 * (constant time): throws AuthenticationError when they differ.
 */
export function verifyTag(sum: PolynomialSum, tag: Uint8Array): void {
  const expected = new Uint8Array(TAG_LENGTH);
  sum.tagInto(expected);
  const ok = equalBytes(expected, 0, tag, 0, TAG_LENGTH);
  expected.fill(0);
  if (!ok) throw new AuthenticationError();
}

/**
 * Two passes, for an output someone may read while the call is pending.
 * The first computes the pieces' polynomials and copies the ciphertext
 * into `output`, each piece from one read of its bytes; `check` computes
 * the tag of the aad (appended to `sum` by the caller), those and the
 * length block, and throws AuthenticationError or returns. Only then does
 * the second decrypt `output` in place: until the tag is verified the
 * output holds ciphertext, and the plaintext comes from the very bytes
 * that were authenticated, whatever happens to `input` meanwhile. (Who
 * writes `output` while the call is pending gets what they wrote
 * decrypted, as they could write anything there after it.) In place
 * (`output` is `input`), see rereadOpenPieces. Rejects with
 * AuthenticationError when the tag is wrong; the caller zeroes `output`.
 */
export async function verifiedOpenPieces<F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  check: () => void,
  input: Uint8Array,
  output: Uint8Array,
  workers: () => readonly PoolWorker[],
): Promise<void> {
  if (overlapping(input, output)) return rereadOpenPieces(a, sum, check, input, output, workers);
  const { cipher } = a;
  const parts = await polynomialPieces(a.oneTimeKey, cipher.zeroPad, sum, input, workers(), output);
  try {
    check();
  } finally {
    wipeParts(parts);
  }
  const keystream = { op: `${cipher.family}.xor`, xor: cipher.xor, key: a.key, nonce: a.nonce, low: a.counter, high: 0, doubleRounds: DOUBLE_ROUNDS };
  await xorPieces(keystream, output, output, workers());
}

/**
 * Two passes in place, where the ciphertext is the output and no copy of
 * it can be kept: the first computes the pieces' polynomials and `check`
 * verifies the tag; the second decrypts each piece only if the ciphertext
 * it reads again (one read, into a slot or this thread's kernel memory)
 * has the polynomial the first pass found for it, so no byte of
 * unverified plaintext is ever written.
 */
async function rereadOpenPieces<F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  check: () => void,
  input: Uint8Array,
  output: Uint8Array,
  workers: () => readonly PoolWorker[],
): Promise<void> {
  const { cipher } = a;
  const parts = await polynomialPieces(a.oneTimeKey, cipher.zeroPad, sum, input, workers());
  try {
    check();
    const polynomials = new Map(parts.map((p) => [p.start, p.result!]));
    const expected = (p: Part): Uint8Array => polynomials.get(p.start)!;
    const second = await transform<Record<string, OpenJob>, string>(
      {
        op: `${cipher.family}.open`,
        align: 64,
        readsTwice: true,
        params: (p) => ({ ...pieceParams(a, p.start), expect: expected(p).slice() }),
        onThisThread: (i, o, p) => {
          const h = polynomialThenDecrypt(cipher.xor(), polyHere(), { ...pieceHere(a, p.start), expect: expected(p) }, cipher.zeroPad, i, o!);
          try {
            if (!samePolynomial(h, expected(p))) throw new AuthenticationError();
          } finally {
            h.fill(0);
          }
          return undefined;
        },
        accept: (p, h) => {
          if (!samePolynomial(h, expected(p))) throw new AuthenticationError();
        },
      },
      input,
      output,
      workers(),
      parts.map((p) => ({ start: p.start, length: p.length })),
    );
    wipeParts(second);
  } finally {
    wipeParts(parts);
  }
}
