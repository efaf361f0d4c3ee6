/**
 * Poly1305 polynomials of pieces of a message (combine.ts puts them
 * together): the Poly1305 part of fourfold/parallel's jobs.
 */
import type { Poly1305Engine } from './engine.js';
import { engine } from './tiers.js';
import type { Tier } from '../runtime/kernels.js';
import type { JobHandler } from '../runtime/protocol.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';

const ZEROS = new Uint8Array(16);

/**
 * The polynomial (Poly1305State.polynomialInto, 17 bytes) of `data` under
 * the r of `key` (32 bytes; s is not used). A partial last block is
 * padded with zeros and counted as a whole block when `zeroPad` (RFC 8439
 * §2.8: the AEAD pads its ciphertext so), else as Poly1305 pads it
 * (§2.5.1: a 1 byte, zeros, no 2^128 bit).
 */
export function polynomialOf(engine: Poly1305Engine, key: Uint8Array, data: Uint8Array, zeroPad: boolean): Uint8Array {
  const state = engine.create(key);
  state.update(data);
  const rest = data.length % 16;
  if (zeroPad && rest !== 0) state.update(ZEROS.subarray(rest));
  const out = new Uint8Array(17);
  state.polynomialInto(out);
  return out;
}

/** Blocks a piece of `length` bytes counts for in a polynomial (the last one partial or padded). */
export const blocksOf = (length: number): number => Math.ceil(length / 16);

/**
 * A piece of an AEAD's encryption: XORs the keystream from block
 * `counter` into `input`, writing `output`, and returns the ciphertext's
 * polynomial (padded as polynomialOf's `zeroPad` says).
 */
export function encryptThenPolynomial(
  xor: KeystreamXor,
  poly: Poly1305Engine,
  key: Uint8Array,
  nonce: Uint8Array,
  counter: number,
  polyKey: Uint8Array,
  zeroPad: boolean,
  input: Uint8Array,
  output: Uint8Array,
): Uint8Array {
  xor(key, nonce, counter >>> 0, Math.floor(counter / 0x100000000), 10, input, output);
  return polynomialOf(poly, polyKey, output, zeroPad);
}

/**
 * The job of a piece of an AEAD's encryption, for the keystream of
 * `xorOf(tier)`. params: key, nonce, counter (the piece's first block),
 * polyKey (r || zeros); result: the ciphertext's polynomial.
 */
export function sealJob(xorOf: (tier: Tier) => KeystreamXor, zeroPad: boolean): JobHandler {
  return (tier, p, input, output) =>
    encryptThenPolynomial(xorOf(tier), engine.of(tier), p.key as Uint8Array, p.nonce as Uint8Array, p.counter as number, p.polyKey as Uint8Array, zeroPad, input!, output!);
}
