/**
 * The jobs of an AEAD's pieces in fourfold/parallel (ChaCha20-Poly1305,
 * XChaCha20-Poly1305, secretbox): a piece of the encryption or decryption
 * with the Poly1305 polynomial of its ciphertext (poly1305/polynomial.ts),
 * on any of the families' keystreams.
 */
import type { Poly1305Engine } from '../poly1305/engine.js';
import { polynomialOf, samePolynomial } from '../poly1305/polynomial.js';
import type { Handler, JobType } from '../pool/protocol.js';
import { high32 } from '../runtime/bytes.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** A piece of an AEAD: key, nonce, counter (its first block), polyKey (r || zeros); the result is its ciphertext's polynomial. */
export interface PieceParams {
  key: Uint8Array;
  nonce: Uint8Array;
  counter: number;
  polyKey: Uint8Array;
}

/** A piece of an AEAD's encryption: the plaintext in, the ciphertext out. */
export type SealJob = JobType<PieceParams, Uint8Array>;

/**
 * A piece of an AEAD's decryption: the ciphertext in, the plaintext out.
 * With `expect` (the piece's polynomial from a first pass), the plaintext
 * is written only if the ciphertext read has that polynomial.
 */
export type OpenJob = JobType<PieceParams & { expect?: Uint8Array }, Uint8Array>;

/** The AEAD jobs a family with keystream job prefix F offers: `${F}.seal` and `${F}.open`. */
export type AeadJobs<F extends string> = { readonly [K in `${F}.seal`]: SealJob } & { readonly [K in `${F}.open`]: OpenJob };

/** A piece's first keystream block as the engines take it: low and high 32-bit words. */
const counterWords = (counter: number): [number, number] => [counter >>> 0, high32(counter)];

/**
 * A piece of an AEAD in one pass over its bytes: XORs the keystream from
 * block `p.counter` into `input`, writing `output`, and returns the
 * polynomial of the ciphertext (`input` when `decrypt`, else `output`),
 * padded as polynomialOf's `zeroPad` says. On the simd tier each slice is
 * encrypted and absorbed while in cache (one-pass.ts), and a decryption
 * reads each byte of `input` once.
 */
export type PieceCrypt = (p: PieceParams, zeroPad: boolean, decrypt: boolean, input: Uint8Array, output: Uint8Array) => Uint8Array;

/**
 * The same from a keystream and a Poly1305 engine, in two passes over the
 * piece: the js tier's (whose cost is not memory). `input` must be memory
 * no other thread writes when decrypting: it is read twice.
 */
export const twoPasses =
  (xor: KeystreamXor, poly: Poly1305Engine): PieceCrypt =>
  (p, zeroPad, decrypt, input, output) => {
    const h = decrypt ? polynomialOf(poly, p.polyKey, input, zeroPad) : undefined;
    xor(p.key, p.nonce, ...counterWords(p.counter), DOUBLE_ROUNDS, input, output);
    return h ?? polynomialOf(poly, p.polyKey, output, zeroPad);
  };

/**
 * A piece of an AEAD's decryption checked against `expect` (its
 * polynomial from a first pass): the polynomial of the ciphertext
 * `input`, then its plaintext into `output` only if the two are equal, so
 * no plaintext of other bytes is ever written. `input` must be memory no
 * other thread writes: it is read twice.
 */
export function polynomialThenDecrypt(
  xor: KeystreamXor,
  poly: Poly1305Engine,
  p: PieceParams & { expect: Uint8Array },
  zeroPad: boolean,
  input: Uint8Array,
  output: Uint8Array,
): Uint8Array {
  const h = polynomialOf(poly, p.polyKey, input, zeroPad);
  if (samePolynomial(h, p.expect)) xor(p.key, p.nonce, ...counterWords(p.counter), DOUBLE_ROUNDS, input, output);
  return h;
}

/**
 * The jobs of an AEAD's pieces on one tier's engines: in one pass
 * (`crypt`), or for a piece with `expect` in two, on the keystream `xor`
 * (zeroPad as polynomialOf's).
 */
export function aeadJobs(xor: KeystreamXor, crypt: PieceCrypt, poly: Poly1305Engine, zeroPad: boolean): { seal: Handler<SealJob>; open: Handler<OpenJob> } {
  return {
    seal: (p, { input, output }) => crypt(p, zeroPad, false, input!, output!),
    open: (p, { input, output }) => {
      const { expect } = p;
      if (expect === undefined) return crypt(p, zeroPad, true, input!, output!);
      return polynomialThenDecrypt(xor, poly, { ...p, expect }, zeroPad, input!, output!);
    },
  };
}
