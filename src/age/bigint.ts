/**
 * BigInt arithmetic for the key types' public values (an SSH key's
 * Ed25519 point and RSA parameters, a tag recipient's P-256 point):
 * byte strings to and from BigInt, and modular powers. Not constant
 * time, so never for a secret; imported only by the lazy key-type modules.
 */

/** A big-endian byte string as a BigInt. */
export const bigOf = (bytes: Uint8Array): bigint => BigInt(`0x0${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`);

/** `n` (not negative) as big-endian bytes: `length` of them, or where none is given as few as hold it (one at least). */
export function bigBytes(n: bigint, length?: number): Uint8Array {
  const hex = n.toString(16);
  const digits = length === undefined ? hex.length + (hex.length % 2) : 2 * length;
  return Uint8Array.from(hex.padStart(digits, '0').match(/../g)!, (h) => Number.parseInt(h, 16));
}

/** base^exponent mod m (base reduced first, negative or not), by square and multiply. */
export function power(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  let b = ((base % m) + m) % m;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}
