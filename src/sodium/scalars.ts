/**
 * The scalar arithmetic of crypto_core_ed25519_scalar_* and
 * crypto_core_ristretto255_scalar_* (the same in libsodium), and both
 * groups' add and sub: integers
 * modulo L = 2^252 + 27742317777372353535851937790883648493, the order of
 * Ed25519's prime subgroup, as 32 little-endian bytes. Inputs need not be
 * reduced: libsodium reads the whole 256 (or 512) bits.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { format, formatOf, type Out, type OutputFormat, sized } from './codecs.js';

/** L, the prime subgroup's order. */
export const L: bigint = ed25519.Point.Fn.ORDER;

/** A 32-byte scalar's value, unreduced. */
export const scalarOf = (value: unknown, name: string, length = 32): bigint => bytesToNumberLE(sized(value, name, length));

/** `n` mod L as 32 little-endian bytes. */
export const scalarBytes = (n: bigint): Uint8Array => numberToBytesLE(((n % L) + L) % L, 32);

/** x^(L - 2) mod L: the inverse of a nonzero scalar, 0 for a multiple of L (as libsodium computes it). */
function invert(x: bigint): bigint {
  let result = 1n;
  let base = x % L;
  for (let e = L - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % L;
    base = (base * base) % L;
  }
  return result;
}

/** A random scalar in [1, L - 1], as libsodium draws one (252 random bits until one is below L and nonzero). */
function randomScalar(): bigint {
  const r = new Uint8Array(32);
  for (;;) {
    crypto.getRandomValues(r);
    r[31] &= 0x1f;
    const n = bytesToNumberLE(r);
    if (n > 0n && n < L) return n;
  }
}

/**
 * x + y as libsodium's scalar_add computes it before reducing: a 32-byte
 * sum whose carry out of bit 256 is dropped (sodium_add over 32 bytes),
 * which unreduced inputs can reach. Its scalar_sub is x + (-y mod L) the
 * same way.
 */
const add256 = (x: bigint, y: bigint): bigint => (x + y) % 2n ** 256n;

const out = <F>(n: bigint, outputFormat: F | undefined): Out<F> => format(scalarBytes(n), outputFormat);

/** A random nonzero scalar below L. */
export function scalarRandom<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return out(randomScalar(), outputFormat);
}

/** 1 / s mod L: "invalid reciprocate" for the all-zero scalar only; another multiple of L inverts to 0, as libsodium. */
export function scalarInvert<F extends OutputFormat | null = 'uint8array'>(s: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const x = scalarOf(s, 's');
  if (x === 0n) throw new Error('invalid reciprocate');
  return out(invert(x), outputFormat);
}

/** -s mod L. */
export function scalarNegate<F extends OutputFormat | null = 'uint8array'>(s: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return out(-scalarOf(s, 's'), outputFormat);
}

/** 1 - s mod L. */
export function scalarComplement<F extends OutputFormat | null = 'uint8array'>(s: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return out(1n - scalarOf(s, 's'), outputFormat);
}

/** x + y mod L, the carry out of 256 bits dropped first. */
export function scalarAdd<F extends OutputFormat | null = 'uint8array'>(x: Uint8Array, y: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return out(add256(scalarOf(x, 'x'), scalarOf(y, 'y')), outputFormat);
}

/** x - y mod L, as x + (-y mod L) with the carry out of 256 bits dropped. */
export function scalarSub<F extends OutputFormat | null = 'uint8array'>(x: Uint8Array, y: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const a = scalarOf(x, 'x');
  return out(add256(a, (L - (scalarOf(y, 'y') % L)) % L), outputFormat);
}

/** x y mod L. */
export function scalarMul<F extends OutputFormat | null = 'uint8array'>(x: Uint8Array, y: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return out(scalarOf(x, 'x') * scalarOf(y, 'y'), outputFormat);
}

/** A 64-byte sample mod L. */
export function scalarReduce<F extends OutputFormat | null = 'uint8array'>(sample: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return out(scalarOf(sample, 'sample', 64), outputFormat);
}

/**
 * p + q or p - q of two encodings `decode` reads (null: it refuses one),
 * "input is an invalid element" otherwise, as both groups' add and sub.
 */
export function combine<T extends { add(o: T): T; subtract(o: T): T; toBytes(): Uint8Array }, F>(
  decode: (bytes: Uint8Array) => T | null,
  p: Uint8Array,
  q: Uint8Array,
  outputFormat: F | undefined,
  subtract: boolean,
): Out<F> {
  formatOf(outputFormat);
  const a = decode(sized(p, 'p', 32));
  const b = decode(sized(q, 'q', 32));
  if (a === null || b === null) throw new Error('input is an invalid element');
  return format((subtract ? a.subtract(b) : a.add(b)).toBytes(), outputFormat);
}
