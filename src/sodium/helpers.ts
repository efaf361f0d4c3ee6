/**
 * libsodium-wrappers' helpers for fourfold/sodium: comparisons and
 * arithmetic on little-endian numbers in constant time (memcmp, compare,
 * is_zero, increment, add), ISO/IEC 7816-4 padding (pad, unpad) and
 * memzero. The constant-time lint covers this file.
 */

function uint8(value: unknown, what: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`Only Uint8Array instances can ${what}`);
  return value;
}

function sameLength(a: Uint8Array, b: Uint8Array): void {
  if (a.length !== b.length) throw new TypeError('Only instances of identical length can be compared');
}

/** Whether `b1` and `b2` (of one length) hold the same bytes, in constant time. */
export function memcmp(b1: Uint8Array, b2: Uint8Array): boolean {
  const a = uint8(b1, 'be compared');
  const b = uint8(b2, 'be compared');
  sameLength(a, b);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  // constant-time: public return: equality is the verdict the caller asked for.
  return diff === 0;
}

/** -1, 0 or 1 as `b1` is below, equal to or above `b2`, both little-endian numbers of one length, in constant time. */
export function compare(b1: Uint8Array, b2: Uint8Array): number {
  const a = uint8(b1, 'be compared');
  const b = uint8(b2, 'be compared');
  sameLength(a, b);
  // From the most significant byte down, gt and eq as masks (sodium_compare's order).
  let gt = 0;
  let eq = 1;
  for (let i = a.length - 1; i >= 0; i--) {
    gt |= ((b[i] - a[i]) >> 8) & eq;
    eq &= ((a[i] ^ b[i]) - 1) >> 8;
  }
  return gt + gt + eq - 1;
}

/** Whether every byte of `bytes` is zero, reading them all. */
export function is_zero(bytes: Uint8Array): boolean {
  const b = uint8(bytes, 'be checked');
  let any = 0;
  for (let i = 0; i < b.length; i++) any |= b[i];
  // constant-time: public return: the verdict the caller asked for.
  return any === 0;
}

/** Adds 1 to `bytes`, a little-endian number, in place, in constant time (a nonce counter). */
export function increment(bytes: Uint8Array): void {
  const b = uint8(bytes, 'be incremented');
  let carry = 1;
  for (let i = 0; i < b.length; i++) {
    carry += b[i];
    b[i] = carry;
    carry >>= 8;
  }
}

/** Adds `b` to `a`, little-endian numbers of one length, into `a`, modulo 2^(8 * length) (libsodium's `add`). */
function addLittleEndian(a: Uint8Array, b: Uint8Array): void {
  const x = uint8(a, 'be added');
  const y = uint8(b, 'be added');
  if (x.length !== y.length) throw new TypeError('Arguments must have the same length');
  let carry = 0;
  for (let i = 0; i < x.length; i++) {
    carry += x[i] + y[i];
    x[i] = carry;
    carry >>= 8;
  }
}

/** Zeroes `bytes`. */
export function memzero(bytes: Uint8Array): void {
  uint8(bytes, 'be wiped').fill(0);
}

/**
 * The block size as libsodium-wrappers reads it (a number's signed 32 bits, so 2^31 and above is no
 * size); above 0. A bigint is a TypeError there, as JavaScript's `| 0` throws.
 */
function blockSize(blocksize: unknown): number {
  if (typeof blocksize === 'bigint') throw new TypeError('blocksize must be a number');
  const size = Number(blocksize) | 0;
  if (size <= 0) throw new Error('block size must be > 0');
  return size;
}

/** `buf` padded to a multiple of `blocksize` (ISO/IEC 7816-4: 0x80, then zeros; always at least one byte). */
export function pad(buf: Uint8Array, blocksize: number): Uint8Array {
  if (!(buf instanceof Uint8Array)) throw new TypeError('buffer must be a Uint8Array');
  const size = blockSize(blocksize);
  const out = new Uint8Array(buf.length + size - (buf.length % size));
  out.set(buf);
  out[buf.length] = 0x80;
  return out;
}

/**
 * `buf` without its ISO/IEC 7816-4 padding: the last `blocksize` bytes
 * read in constant time, from the end, for zeros and then 0x80 (libsodium's `unpad`).
 */
function unpadIso(buf: Uint8Array, blocksize: number): Uint8Array {
  if (!(buf instanceof Uint8Array)) throw new TypeError('buffer must be a Uint8Array');
  const size = blockSize(blocksize);
  if (buf.length < size) throw new Error('unsupported/invalid padding');
  // seen: all ones until the first nonzero byte from the end; found: whether that byte is 0x80.
  let seen = -1;
  let found = 0;
  let padLength = 0;
  for (let i = 0; i < size; i++) {
    const c = buf[buf.length - 1 - i];
    const barrier = seen & (((c ^ 0x80) - 1) >> 8);
    padLength |= i & barrier;
    found |= barrier & 1;
    seen &= (c - 1) >> 8;
  }
  // constant-time: public found, padLength: whether the padding is valid, and its length, which the result's length shows.
  if (found === 0) throw new Error('unsupported/invalid padding');
  return buf.slice(0, buf.length - 1 - padLength);
}

// libsodium's names, which other files of src/ give other meanings to.
export { addLittleEndian as add, unpadIso as unpad };
