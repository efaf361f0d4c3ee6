/**
 * The parts of fourfold/parallel's AEADs (ChaCha20-Poly1305 and
 * XChaCha20-Poly1305: chacha/parallel.ts; secretbox: salsa/parallel.ts)
 * that do not depend on the cipher: encrypting pieces and collecting
 * their polynomials, the polynomials of pieces of ciphertext alone, and
 * decrypting pieces. Decryption is two passes: the tag is computed over
 * the whole ciphertext and checked first, and only then is any plaintext
 * made, so none is ever written before the tag verified.
 */
import { PolynomialSum } from '../poly1305/combine.js';
import { blocksOf, encryptThenPolynomial, polynomialOf } from '../poly1305/polynomial.js';
import { engine as polyHere } from '../poly1305/tiers.js';
import { transform, type LaterOutput, type Part } from '../runtime/parallel.js';
import { counterAfter } from '../runtime/parallel-stream.js';
import type { PoolWorker } from '../runtime/pool.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';

/** An AEAD's keystream and polynomial, as the pieces need them. */
export interface AeadCipher {
  /** The family's job prefix: jobs `${family}.seal` and `${family}.xor`. */
  readonly family: string;
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

/** Appends the pieces' polynomials to `sum`, in order, and wipes them. */
export function appendParts(sum: PolynomialSum, parts: readonly Part[]): void {
  for (const p of parts) {
    sum.append(p.result!, blocksOf(p.length));
    p.result!.fill(0);
  }
}

/** The polynomial of `data` on this thread (an aad, a length block), appended to `sum`. */
export function appendHere(sum: PolynomialSum, oneTimeKey: Uint8Array, data: Uint8Array, zeroPad: boolean): void {
  const h = polynomialOf(polyHere(), oneTimeKey, data, zeroPad);
  sum.append(h, blocksOf(data.length));
  h.fill(0);
}

/**
 * Encrypts `input` into `output` with the keystream from block `counter`
 * on (64-byte pieces), and appends the ciphertext's polynomial to `sum`.
 */
export async function sealPieces(
  c: AeadCipher,
  key: Uint8Array,
  nonce: Uint8Array,
  counter: number,
  oneTimeKey: Uint8Array,
  sum: PolynomialSum,
  input: Uint8Array,
  output: Uint8Array | LaterOutput,
  workers: readonly PoolWorker[],
): Promise<void> {
  const parts = await transform(
    {
      op: `${c.family}.seal`,
      align: 64,
      params: (start) => ({ key: key.slice(), nonce: nonce.slice(), counter: counter + start / 64, polyKey: rOnly(oneTimeKey) }),
      here: (i, o, start) => encryptThenPolynomial(c.xor(), polyHere(), key, nonce, counter + start / 64, oneTimeKey, c.zeroPad, i, o!),
    },
    input,
    output,
    workers,
  );
  appendParts(sum, parts);
}

/**
 * Appends the polynomial of `data` to `sum` (under the r of `oneTimeKey`,
 * padded as polynomialOf's `zeroPad` says): an AEAD decryption's first
 * pass, and Poly1305 itself.
 */
export async function polynomialPieces(oneTimeKey: Uint8Array, zeroPad: boolean, sum: PolynomialSum, data: Uint8Array, workers: readonly PoolWorker[]): Promise<void> {
  const parts = await transform(
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
  appendParts(sum, parts);
}

/** Decrypts `input` into `output` with the keystream from block `counter` on: decryption's second pass, once the tag verified. */
export async function xorPieces(
  c: AeadCipher,
  key: Uint8Array,
  nonce: Uint8Array,
  counter: number,
  input: Uint8Array,
  output: Uint8Array | LaterOutput,
  workers: readonly PoolWorker[],
): Promise<void> {
  const at = (start: number) => counterAfter(counter, 0, start / 64);
  await transform(
    {
      op: `${c.family}.xor`,
      align: 64,
      params: (start) => ({ key: key.slice(), nonce: nonce.slice(), doubleRounds: 10, ...at(start) }),
      here(i, o, start) {
        const { counterLow, counterHigh } = at(start);
        c.xor()(key, nonce, counterLow, counterHigh, 10, i, o);
        return undefined;
      },
    },
    input,
    output,
    workers,
  );
}

export { PolynomialSum };
