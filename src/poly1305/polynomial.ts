/**
 * Poly1305 polynomials of pieces of a message (combine.ts puts them
 * together), and the jobs of fourfold/parallel built on them: a piece's
 * polynomial, and a piece of an AEAD's encryption or decryption with the
 * polynomial of its ciphertext.
 */
import type { Poly1305Engine } from './engine.js';
import { POLYNOMIAL_BYTES } from './field.js';
import { jsPoly1305 } from './js.js';
import { simdCopyPolynomial } from './simd.js';
import { chachaKernel } from '../chacha/wasm.js';
import { equalBytes, high32 } from '../runtime/bytes.js';
import { tierChoice } from '../runtime/kernels.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import type { Handler, JobType } from '../pool/protocol.js';

const ZEROS = new Uint8Array(16);

/** Bytes of a piece's polynomial (Poly1305State.polynomialInto). */
export { POLYNOMIAL_BYTES };

/**
 * The polynomial (Poly1305State.polynomialInto, 17 bytes) of `data` under
 * the r of `key` (32 bytes; s is not used). A partial last block is
 * padded with zeros and counted as a whole block when `zeroPad` (RFC 8439
 * §2.8: the AEAD pads its ciphertext so), else as Poly1305 pads it
 * (§2.5.1: a 1 byte, zeros, no 2^128 bit).
 */
export function polynomialOf(poly: Poly1305Engine, key: Uint8Array, data: Uint8Array, zeroPad: boolean): Uint8Array {
  const state = poly.create(key);
  state.update(data);
  const rest = data.length % 16;
  if (zeroPad && rest !== 0) state.update(ZEROS.subarray(rest));
  const out = new Uint8Array(POLYNOMIAL_BYTES);
  state.polynomialInto(out);
  return out;
}

/** Blocks a piece of `length` bytes counts for in a polynomial (the last one partial or padded). */
export const blocksOf = (length: number): number => Math.ceil(length / 16);

/** Whether two polynomials are equal, in constant time. */
export const samePolynomial = (a: Uint8Array, b: Uint8Array): boolean => equalBytes(a, 0, b, 0, POLYNOMIAL_BYTES);

/**
 * The polynomial of `input` (polynomialOf's) and `input` copied to
 * `output`, from one read of each byte on the simd tier; the js tier reads
 * twice (so its caller copies memory another thread may write first).
 */
export type CopyPolynomial = (key: Uint8Array, zeroPad: boolean, input: Uint8Array, output: Uint8Array) => Uint8Array;

/** The js tier's CopyPolynomial. */
export const jsCopyPolynomial: CopyPolynomial = (key, zeroPad, input, output) => {
  const h = polynomialOf(jsPoly1305, key, input, zeroPad);
  output.set(input);
  return h;
};

/** CopyPolynomial on this thread's tier: the simd tier once its kernel is instantiated, the js tier until then. */
export const copyPolynomialHere = /*#__PURE__*/ tierChoice<CopyPolynomial>(chachaKernel, jsCopyPolynomial, simdCopyPolynomial);

/**
 * A piece's polynomial. params: key (r || 16 zero bytes), zeroPad (1 or
 * 0), and copy (1: the piece's bytes also go to the job's output, a
 * decryption's first pass into a caller's output).
 */
export type PolynomialJob = JobType<{ key: Uint8Array; zeroPad: number; copy?: number }, Uint8Array>;

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
    xor(p.key, p.nonce, ...counterWords(p.counter), 10, input, output);
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
  if (samePolynomial(h, p.expect)) xor(p.key, p.nonce, ...counterWords(p.counter), 10, input, output);
  return h;
}

/**
 * Poly1305's one job, on one tier's engine and CopyPolynomial: a piece's
 * polynomial (and its copy; in a slot, input and output are the same bytes).
 */
export const polynomialJob =
  (poly: Poly1305Engine, copy: CopyPolynomial): Handler<PolynomialJob> =>
  (p, { input, output }) =>
    p.copy === 1 && output !== input ? copy(p.key, p.zeroPad === 1, input!, output!) : polynomialOf(poly, p.key, input!, p.zeroPad === 1);

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
