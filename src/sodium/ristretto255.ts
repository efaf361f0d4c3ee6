/**
 * crypto_core_ristretto255_* (RFC 9496's group of prime order: validity,
 * addition, subtraction, the one-way map from 64 bytes, random elements;
 * the scalar arithmetic modulo L) and crypto_scalarmult_ristretto255, in
 * libsodium-wrappers' shape, on @noble/curves' ristretto255. An encoding
 * is valid when it decodes (RFC 9496 §4.3.1: canonical, nonnegative,
 * a square root); the identity encodes as 32 zero bytes.
 */
import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519.js';
import { bytesToNumberLE } from '@noble/curves/utils.js';
import { format, formatOf, type Out, type OutputFormat, sized } from './codecs.js';
import { combine, L } from './scalars.js';

type Element = InstanceType<typeof ristretto255.Point>;
const { Point } = ristretto255;

/** crypto_core_ristretto255: an element's encoding. */
export const crypto_core_ristretto255_BYTES: number = 32;
/** crypto_core_ristretto255: from_hash's input. */
export const crypto_core_ristretto255_HASHBYTES: number = 64;
/** crypto_core_ristretto255: a scalar. */
export const crypto_core_ristretto255_SCALARBYTES: number = 32;
/** crypto_core_ristretto255: scalar_reduce's input. */
export const crypto_core_ristretto255_NONREDUCEDSCALARBYTES: number = 64;
/** crypto_scalarmult_ristretto255: an element's encoding. */
export const crypto_scalarmult_ristretto255_BYTES: number = 32;
/** crypto_scalarmult_ristretto255: a scalar. */
export const crypto_scalarmult_ristretto255_SCALARBYTES: number = 32;

/** The element `bytes` encodes, or null where RFC 9496's decoding refuses it. */
function decode(bytes: Uint8Array): Element | null {
  try {
    return Point.fromBytes(bytes);
  } catch {
    return null;
  }
}

/** Whether `repr` is the canonical encoding of an element (the identity's included, as libsodium). */
export function crypto_core_ristretto255_is_valid_point(repr: Uint8Array, outputFormat?: OutputFormat | null): boolean {
  formatOf(outputFormat);
  return decode(sized(repr, 'repr', 32)) !== null;
}

/** p + q. */
export const crypto_core_ristretto255_add = <F extends OutputFormat | null = 'uint8array'>(p: Uint8Array, q: Uint8Array, outputFormat?: F): Out<F> =>
  combine(decode, p, q, outputFormat, false);
/** p - q. */
export const crypto_core_ristretto255_sub = <F extends OutputFormat | null = 'uint8array'>(p: Uint8Array, q: Uint8Array, outputFormat?: F): Out<F> =>
  combine(decode, p, q, outputFormat, true);

/** RFC 9496 §4.3.4's one-way map of 64 bytes to an element (libsodium's ristretto255_from_hash). */
export function crypto_core_ristretto255_from_hash<F extends OutputFormat | null = 'uint8array'>(r: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const derive = ristretto255_hasher.deriveToCurve as (bytes: Uint8Array) => Element;
  return format(derive(sized(r, 'r', 64)).toBytes(), outputFormat);
}

/** A random element: the map of 64 random bytes. */
export function crypto_core_ristretto255_random<F extends OutputFormat | null = 'uint8array'>(outputFormat?: F): Out<F> {
  return crypto_core_ristretto255_from_hash(crypto.getRandomValues(new Uint8Array(64)), outputFormat);
}

/** libsodium's scalar for scalarmult_ristretto255: the top bit cleared, then mod L (the group's order). */
const multiplier = (n: Uint8Array): bigint => (bytesToNumberLE(n) % 2n ** 255n) % L;

/** scalar x element, refused where it is the identity ("result is identity element", as libsodium, the zero scalar included). */
export function crypto_scalarmult_ristretto255<F extends OutputFormat | null = 'uint8array'>(
  scalar: Uint8Array,
  element: Uint8Array,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const t = multiplier(sized(scalar, 'scalar', 32));
  const e = decode(sized(element, 'element', 32));
  if (e === null || t === 0n || e.is0()) throw new Error('result is identity element');
  return format(e.multiply(t).toBytes(), outputFormat);
}

/** scalar x the generator, refused where that is the identity ("scalar is 0"). */
export function crypto_scalarmult_ristretto255_base<F extends OutputFormat | null = 'uint8array'>(scalar: Uint8Array, outputFormat?: F): Out<F> {
  formatOf(outputFormat);
  const t = multiplier(sized(scalar, 'scalar', 32));
  if (t === 0n) throw new Error('scalar is 0');
  return format(Point.BASE.multiply(t).toBytes(), outputFormat);
}

export {
  scalarAdd as crypto_core_ristretto255_scalar_add,
  scalarComplement as crypto_core_ristretto255_scalar_complement,
  scalarInvert as crypto_core_ristretto255_scalar_invert,
  scalarMul as crypto_core_ristretto255_scalar_mul,
  scalarNegate as crypto_core_ristretto255_scalar_negate,
  scalarRandom as crypto_core_ristretto255_scalar_random,
  scalarReduce as crypto_core_ristretto255_scalar_reduce,
  scalarSub as crypto_core_ristretto255_scalar_sub,
} from './scalars.js';
