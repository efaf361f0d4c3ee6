/**
 * Poly1305 polynomials of pieces of a message (combine.ts puts them
 * together), and fourfold/parallel's job of a piece's polynomial. The
 * AEADs' pieces, built on them, are in src/aead/.
 */
import type { Poly1305Engine } from './engine.js';
import { POLYNOMIAL_BYTES } from './field.js';
import { jsPoly1305 } from './js.js';
import { simdCopyPolynomial } from './simd.js';
import { chachaKernel } from '../chachapoly/wasm.js';
import { equalBytes } from '../runtime/bytes.js';
import { tierChoice } from '../runtime/kernels.js';
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

/**
 * Poly1305's one job, on one tier's engine and CopyPolynomial: a piece's
 * polynomial (and its copy; in a slot, input and output are the same bytes).
 */
export const polynomialJob =
  (poly: Poly1305Engine, copy: CopyPolynomial): Handler<PolynomialJob> =>
  (p, { input, output }) =>
    p.copy === 1 && output !== input ? copy(p.key, p.zeroPad === 1, input!, output!) : polynomialOf(poly, p.key, input!, p.zeroPad === 1);
