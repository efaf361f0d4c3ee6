/**
 * The parts of fourfold/parallel's AEADs (ChaCha20-Poly1305 and
 * XChaCha20-Poly1305: chacha/parallel.ts; secretbox: salsa/parallel.ts)
 * that do not depend on the cipher: encrypting pieces and collecting
 * their ciphertexts' polynomials, and decrypting pieces.
 *
 * Decryption reads each ciphertext byte once: a piece is copied (into a
 * worker's slot, or by the worker from shared memory), and its polynomial
 * and plaintext both come from that copy, so the plaintext a call
 * resolves with is the plaintext of the bytes it authenticated, whatever
 * the caller or another thread do to the ciphertext meanwhile.
 *
 * - Into an output the call makes (openPieces): one pass. Nobody can read
 *   that output before the call resolves; the tag is checked after the
 *   pieces, and on a wrong one the output is zeroed and never returned.
 * - Into a caller's output (verifiedOpenPieces), which another task or
 *   thread can read while the call is pending: two passes. The first
 *   computes the pieces' polynomials (no plaintext), the caller checks the
 *   tag; the second decrypts the same pieces, each written only if the
 *   ciphertext it read has the polynomial the first pass found for it, so
 *   no byte of unverified plaintext is ever written.
 */
import { PolynomialSum } from './combine.js';
import {
  blocksOf,
  polynomialOf,
  polynomialThenDecrypt,
  encryptThenPolynomial,
  samePolynomial,
  type OpenJob,
  type PolynomialJob,
  type SealJob,
} from './polynomial.js';
import { engine as polyHere } from './tiers.js';
import { AuthenticationError } from '../runtime/errors.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import type { PoolWorker } from '../pool/pool.js';
import { transform, type LaterOutput, type Part } from '../pool/transform.js';

/** An AEAD's keystream and padding, as the pieces need them. */
export interface AeadCipher<F extends string> {
  /** The family's job prefix: its table offers AeadJobs<F>, `${family}.seal` and `${family}.open`. */
  readonly family: F;
  /** The keystream of the active tier. */
  readonly xor: () => KeystreamXor;
  /** Whether the ciphertext's last block is zero-padded (RFC 8439's AEAD) or padded as Poly1305 pads (secretbox). */
  readonly zeroPad: boolean;
}

/** The first 16 bytes of a Poly1305 key and 16 zero bytes: what a piece's polynomial needs (r), without s. */
const rOnly = (oneTimeKey: Uint8Array): Uint8Array => {
  const k = new Uint8Array(32);
  k.set(oneTimeKey.subarray(0, 16));
  return k;
};

/** Wipes the pieces' results (polynomials). */
export function wipeParts(parts: readonly Part[]): void {
  for (const p of parts) p.result?.fill(0);
}

/** Appends the pieces' polynomials to `sum`, in order, and wipes them. */
export function appendParts(sum: PolynomialSum, parts: readonly Part[]): void {
  for (const p of parts) sum.append(p.result!, blocksOf(p.length));
  wipeParts(parts);
}

/** The polynomial of `data` on this thread (an aad, a length block), appended to `sum`. */
export function appendHere(sum: PolynomialSum, oneTimeKey: Uint8Array, data: Uint8Array, zeroPad: boolean): void {
  const h = polynomialOf(polyHere(), oneTimeKey, data, zeroPad);
  sum.append(h, blocksOf(data.length));
  h.fill(0);
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

/** Encrypts `input` into `output` (64-byte pieces), and appends the ciphertext's polynomial to `sum`. */
export async function sealPieces<F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  input: Uint8Array,
  output: Uint8Array | LaterOutput,
  workers: readonly PoolWorker[],
): Promise<void> {
  const { cipher } = a;
  const parts = await transform<Record<string, SealJob>, string>(
    {
      op: `${cipher.family}.seal`,
      align: 64,
      params: (p) => pieceParams(a, p.start),
      here: (i, o, p) => encryptThenPolynomial(cipher.xor(), polyHere(), pieceHere(a, p.start), cipher.zeroPad, i, o!),
    },
    input,
    output,
    workers,
  );
  appendParts(sum, parts);
}

/**
 * Appends the polynomial of `data` to `sum` (under the r of `oneTimeKey`,
 * padded as polynomialOf's `zeroPad` says), and resolves to the pieces
 * with their polynomials, kept for a second pass to check against (the
 * caller wipes them: wipeParts).
 */
export async function polynomialPieces(
  oneTimeKey: Uint8Array,
  zeroPad: boolean,
  sum: PolynomialSum,
  data: Uint8Array,
  workers: readonly PoolWorker[],
): Promise<Part[]> {
  const parts = await transform<{ 'poly1305.polynomial': PolynomialJob }, 'poly1305.polynomial'>(
    {
      op: 'poly1305.polynomial',
      align: 64,
      params: () => ({ key: rOnly(oneTimeKey), zeroPad: zeroPad ? 1 : 0 }),
      here: (i) => polynomialOf(polyHere(), oneTimeKey, i, zeroPad),
    },
    data,
    undefined,
    workers,
  );
  for (const p of parts) sum.append(p.result!, blocksOf(p.length));
  return parts;
}

/**
 * One pass: decrypts `input` into `output`, which the call made and nobody
 * else can read before it resolves, and appends the ciphertext's
 * polynomial to `sum`. The caller checks the tag afterwards.
 */
export async function openPieces<F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  input: Uint8Array,
  output: Uint8Array | LaterOutput,
  workers: readonly PoolWorker[],
): Promise<void> {
  const { cipher } = a;
  const parts = await transform<Record<string, OpenJob>, string>(
    {
      op: `${cipher.family}.open`,
      align: 64,
      readsTwice: true,
      params: (p) => pieceParams(a, p.start),
      here: (i, o, p) => polynomialThenDecrypt(cipher.xor(), polyHere(), pieceHere(a, p.start), cipher.zeroPad, i, o!),
    },
    input,
    output,
    workers,
  );
  appendParts(sum, parts);
}

/**
 * Two passes, for an output someone may read while the call is pending:
 * the tag of the aad (appended to `sum` by the caller), `input` and the
 * length block is computed and checked by `check` (it throws
 * AuthenticationError, or returns to let decryption go on); then each
 * piece is decrypted into `output` only if the ciphertext it reads again
 * has the polynomial the first pass found. Rejects with
 * AuthenticationError when either check fails.
 */
export async function verifiedOpenPieces<F extends string>(
  a: AeadPieces<F>,
  sum: PolynomialSum,
  check: () => void,
  input: Uint8Array,
  output: Uint8Array,
  team: () => readonly PoolWorker[],
): Promise<void> {
  const { cipher } = a;
  const parts = await polynomialPieces(a.oneTimeKey, cipher.zeroPad, sum, input, team());
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
        here: (i, o, p) => {
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
      team(),
      parts.map((p) => ({ start: p.start, length: p.length })),
    );
    wipeParts(second);
  } finally {
    wipeParts(parts);
  }
}

export { PolynomialSum };
