/**
 * crypto_core_ed25519_* (points of Ed25519 as 32-byte encodings: validity,
 * addition, subtraction, Elligator 2 from 32 uniform bytes or a 64-byte
 * hash, random points; the scalar arithmetic modulo L) and
 * crypto_scalarmult_ed25519_* (with and without clamping), in
 * libsodium-wrappers' shape, on @noble/curves' Edwards arithmetic. Each
 * check is libsodium's: which encodings it decodes (ge25519_frombytes: y
 * below 2^255, taken mod p, as noble's ZIP 215 decoding), which it calls
 * valid (canonical, not of small order, in the prime subgroup).
 */
import { _map_to_curve_elligator2_curve25519, ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberBE, bytesToNumberLE } from '@noble/curves/utils.js';
import { format, formatOf, type Out, type OutputFormat, sized } from './codecs.js';
import { combine, L } from './scalars.js';

type Point = InstanceType<typeof ed25519.Point>;
const { Point } = ed25519;
const { Fp } = Point;

/** crypto_core_ed25519: a point's encoding. */
export const crypto_core_ed25519_BYTES: number = 32;
/** crypto_core_ed25519: from_uniform's input. */
export const crypto_core_ed25519_UNIFORMBYTES: number = 32;
/** crypto_core_ed25519: from_hash's input. */
export const crypto_core_ed25519_HASHBYTES: number = 64;
/** crypto_core_ed25519: a scalar. */
export const crypto_core_ed25519_SCALARBYTES: number = 32;
/** crypto_core_ed25519: scalar_reduce's input. */
export const crypto_core_ed25519_NONREDUCEDSCALARBYTES: number = 64;
/** crypto_scalarmult_ed25519: a point's encoding. */
export const crypto_scalarmult_ed25519_BYTES: number = 32;
/** crypto_scalarmult_ed25519: a scalar. */
export const crypto_scalarmult_ed25519_SCALARBYTES: number = 32;

/** A point as ge25519_frombytes decodes one (any y below 2^255, x = 0 with either sign), or null where it fails (no square root). */
function decode(bytes: Uint8Array): Point | null {
  try {
    return Point.fromBytes(bytes, true);
  } catch {
    return null;
  }
}

/** ge25519_is_canonical: y (the low 255 bits) below p. */
const canonicalY = (bytes: Uint8Array): boolean => bytesToNumberLE(bytes) % 2n ** 255n < Fp.ORDER;

/** crypto_core_ed25519_is_valid_point's test: canonical, decodable, not of small order, in the prime subgroup. */
function validPoint(bytes: Uint8Array): Point | null {
  const p = canonicalY(bytes) ? decode(bytes) : null;
  return p !== null && !p.isSmallOrder() && p.isTorsionFree() ? p : null;
}

/** Whether `repr` encodes a point of the prime subgroup other than the identity, canonically. */
export function crypto_core_ed25519_is_valid_point(repr: Uint8Array, outputFormat?: OutputFormat | null): boolean {
  formatOf(outputFormat);
  return validPoint(sized(repr, 'repr', 32)) !== null;
}

/** p + q, for any two points libsodium decodes. */
export const crypto_core_ed25519_add = <F extends OutputFormat | null = 'uint8array'>(p: Uint8Array, q: Uint8Array, outputFormat?: F): Out<F> =>
  combine(decode, p, q, outputFormat, false);
/** p - q, for any two points libsodium decodes. */
export const crypto_core_ed25519_sub = <F extends OutputFormat | null = 'uint8array'>(p: Uint8Array, q: Uint8Array, outputFormat?: F): Out<F> =>
  combine(decode, p, q, outputFormat, true);

/**
 * Elligator 2 (RFC 9380 §6.7.1) of the field element `u` to Ed25519 by
 * libsodium's map (ge25519_mont_to_ed): y = (u - 1) / (u + 1), x =
 * sqrt(-486664) u / v; a zero denominator gives 0, and y = 1 where (u + 1) v
 * is 0, as its inversions of 0 do. The cofactor is not cleared here.
 */
function elligator(u: bigint): { x: bigint; y: bigint } {
  const { xMn, xMd, yMn } = _map_to_curve_elligator2_curve25519(u);
  const mu = Fp.div(xMn, xMd);
  const inv = (n: bigint) => (Fp.is0(n) ? Fp.ZERO : Fp.inv(n));
  const d = inv(Fp.mul(Fp.add(mu, Fp.ONE), yMn));
  const x = Fp.mul(Fp.mul(Fp.mul(SQRT_AM2, mu), d), Fp.add(mu, Fp.ONE));
  const y = Fp.is0(d) ? Fp.ONE : Fp.mul(Fp.mul(d, yMn), Fp.sub(mu, Fp.ONE));
  return { x, y };
}
/** sqrt(-A - 2) = sqrt(-486664), the root RFC 9380 picks (even). */
const SQRT_AM2 = /*#__PURE__*/ (() => {
  const r = Fp.sqrt(Fp.neg(486664n));
  return Fp.isOdd?.(r) ? Fp.neg(r) : r;
})();

/** The point (x, y) times the cofactor 8, encoded. */
const cleared = (x: bigint, y: bigint): Uint8Array => Point.fromAffine({ x, y }).clearCofactor().toBytes();

/** Elligator 2 of `u`, x's sign set to `sign`, the cofactor cleared: libsodium's two maps to the curve. */
function mapped<F>(u: bigint, sign: number, outputFormat: F | undefined): Out<F> {
  const { x, y } = elligator(Fp.create(u));
  return format(cleared(Number(x & 1n) === sign ? x : Fp.neg(x), y), outputFormat);
}

/** libsodium's ge25519_from_uniform: Elligator 2 of the low 255 bits (little-endian), x's sign the top bit, the cofactor cleared. */
export function crypto_core_ed25519_from_uniform<F extends OutputFormat | null = 'uint8array'>(r: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const bytes = sized(r, 'r', 32);
  return mapped(bytesToNumberLE(bytes) % 2n ** 255n, bytes[31] >> 7, outputFormat);
}

/**
 * libsodium's ge25519_from_hash: the low 511 bits big-endian mod p, x's
 * sign the top bit (of the first byte), Elligator 2, the cofactor cleared.
 * Not RFC 9380's map: that one takes x's sign from the map, not the input.
 */
export function crypto_core_ed25519_from_hash<F extends OutputFormat | null = 'uint8array'>(r: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const bytes = sized(r, 'r', 64);
  return mapped(bytesToNumberBE(bytes) % 2n ** 511n, bytes[0] >> 7, outputFormat);
}

/** A random point of the prime subgroup: crypto_core_ed25519_from_uniform of 32 random bytes. */
export function crypto_core_ed25519_random<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> {
  return crypto_core_ed25519_from_uniform(crypto.getRandomValues(new Uint8Array(32)), outputFormat);
}

/** libsodium's scalar for scalarmult_ed25519: clamped (or not), the top bit cleared, then taken mod L as the point is in the subgroup. */
function multiplier(n: Uint8Array, clamp: boolean): bigint {
  const t = n.slice();
  if (clamp) {
    t[0] &= 248;
    t[31] |= 64;
  }
  t[31] &= 127;
  return bytesToNumberLE(t) % L;
}

/** t P, refused (as libsodium) where the result is the identity or the scalar all zeros. */
function times<F>(n: Uint8Array, p: Point, clamp: boolean, message: string, outputFormat: F | undefined): Out<F> {
  const t = multiplier(n, clamp);
  if (t === 0n || n.every((b) => b === 0)) throw new Error(message);
  return format(p.multiply(t).toBytes(), outputFormat);
}

function scalarmult<F>(n: Uint8Array, p: Uint8Array, clamp: boolean, outputFormat: F | undefined): Out<F> {
  formatOf(outputFormat);
  const scalar = sized(n, 'n', 32);
  const point = validPoint(sized(p, 'p', 32));
  if (point === null) throw new Error('invalid point or scalar is 0');
  return times(scalar, point, clamp, 'invalid point or scalar is 0', outputFormat);
}

/** n P for a valid point P, n clamped as X25519's. */
export const crypto_scalarmult_ed25519 = <F extends OutputFormat | null = 'uint8array'>(n: Uint8Array, p: Uint8Array, outputFormat?: F): Out<F> =>
  scalarmult(n, p, true, outputFormat);
/** n P for a valid point P, n as it is (its top bit cleared). */
export const crypto_scalarmult_ed25519_noclamp = <F extends OutputFormat | null = 'uint8array'>(n: Uint8Array, p: Uint8Array, outputFormat?: F): Out<F> =>
  scalarmult(n, p, false, outputFormat);
/** n B, n clamped. */
export function crypto_scalarmult_ed25519_base<F extends OutputFormat | null = 'uint8array'>(scalar: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return times(sized(scalar, 'scalar', 32), Point.BASE, true, 'scalar is 0', outputFormat);
}
/** n B, n as it is (its top bit cleared). */
export function crypto_scalarmult_ed25519_base_noclamp<F extends OutputFormat | null = 'uint8array'>(scalar: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  return times(sized(scalar, 'scalar', 32), Point.BASE, false, 'scalar is 0', outputFormat);
}

export {
  scalarAdd as crypto_core_ed25519_scalar_add,
  scalarComplement as crypto_core_ed25519_scalar_complement,
  scalarInvert as crypto_core_ed25519_scalar_invert,
  scalarMul as crypto_core_ed25519_scalar_mul,
  scalarNegate as crypto_core_ed25519_scalar_negate,
  scalarRandom as crypto_core_ed25519_scalar_random,
  scalarReduce as crypto_core_ed25519_scalar_reduce,
  scalarSub as crypto_core_ed25519_scalar_sub,
} from './scalars.js';
