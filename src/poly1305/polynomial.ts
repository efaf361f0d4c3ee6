/**
 * Poly1305 polynomials of pieces of a message (combine.ts puts them
 * together), and the jobs of fourfold/parallel built on them: a piece's
 * polynomial, and a piece of an AEAD's encryption or decryption with the
 * polynomial of its ciphertext.
 */
import type { Poly1305Engine } from './engine.js';
import { engineOf } from './tiers.js';
import { equalBytes } from '../runtime/bytes.js';
import type { Tier } from '../runtime/kernels.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import type { Handler, JobType } from '../pool/protocol.js';

const ZEROS = new Uint8Array(16);

/** Bytes of a piece's polynomial (Poly1305State.polynomialInto). */
export const POLYNOMIAL_BYTES = 17;

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

/** A piece's polynomial. params: key (r || 16 zero bytes), zeroPad (1 or 0). */
export type PolynomialJob = JobType<{ key: Uint8Array; zeroPad: number }, Uint8Array>;

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

const words = (counter: number): [number, number] => [counter >>> 0, Math.floor(counter / 0x100000000)];

/**
 * A piece of an AEAD's encryption: XORs the keystream from block
 * `counter` into `input`, writing `output`, and returns the ciphertext's
 * polynomial (padded as polynomialOf's `zeroPad` says).
 */
export function encryptThenPolynomial(
  xor: KeystreamXor,
  poly: Poly1305Engine,
  p: PieceParams,
  zeroPad: boolean,
  input: Uint8Array,
  output: Uint8Array,
): Uint8Array {
  xor(p.key, p.nonce, ...words(p.counter), 10, input, output);
  return polynomialOf(poly, p.polyKey, output, zeroPad);
}

/**
 * A piece of an AEAD's decryption: the polynomial of the ciphertext
 * `input`, then its plaintext into `output`, unless `expect` is given and
 * differs (then nothing is written). `input` must be memory no other
 * thread writes: it is read twice.
 */
export function polynomialThenDecrypt(
  xor: KeystreamXor,
  poly: Poly1305Engine,
  p: PieceParams & { expect?: Uint8Array },
  zeroPad: boolean,
  input: Uint8Array,
  output: Uint8Array,
): Uint8Array {
  const h = polynomialOf(poly, p.polyKey, input, zeroPad);
  if (p.expect === undefined || samePolynomial(h, p.expect)) xor(p.key, p.nonce, ...words(p.counter), 10, input, output);
  return h;
}

/** Poly1305's one job: a piece's polynomial. */
export const polynomialJob: Handler<PolynomialJob> = (tier, p, { input }) => polynomialOf(engineOf(tier), p.key, input!, p.zeroPad === 1);

/** The jobs of an AEAD's pieces, on the keystream of `xorOf(tier)` (zeroPad as polynomialOf's). */
export function aeadJobs(xorOf: (tier: Tier) => KeystreamXor, zeroPad: boolean): { seal: Handler<SealJob>; open: Handler<OpenJob> } {
  return {
    seal: (tier, p, { input, output }) => encryptThenPolynomial(xorOf(tier), engineOf(tier), p, zeroPad, input!, output!),
    open: (tier, p, { input, output }) => polynomialThenDecrypt(xorOf(tier), engineOf(tier), p, zeroPad, input!, output!),
  };
}
