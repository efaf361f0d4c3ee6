/**
 * Byte-array helpers: little-endian 32-bit words at any alignment (the JS
 * tiers' loads and stores), 64-bit counters' halves, the AEADs' length
 * block, constant-time comparison, base64's bits without a table, and
 * zeroing.
 */
import { isSharedBuffer } from './brands.js';

/**
 * What a call returns when it allocates its result: a Uint8Array over a
 * plain ArrayBuffer, which is what Blob, Response and crypto.subtle take.
 * TypeScript 5.7 and later spell it Uint8Array<ArrayBuffer>; written as
 * what `slice()` returns, the declaration files also compile under
 * TypeScript 5.0 to 5.6, whose Uint8Array is not generic (it is then
 * plain Uint8Array).
 */
export type Bytes = ReturnType<Uint8Array['slice']>;

/** The word at `b[i..i+4]`, as a signed 32-bit integer (`>>> 0` for unsigned). */
export function readLE32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

/** Stores `w` at `b[i..i+4]` (Uint8Array stores keep the low 8 bits). */
export function writeLE32(b: Uint8Array, i: number, w: number): void {
  b[i] = w;
  b[i + 1] = w >>> 8;
  b[i + 2] = w >>> 16;
  b[i + 3] = w >>> 24;
}

/** The low 32 bits of a 64-bit counter: a number below 2^53, or a bigint below 2^64. */
export const low32 = (value: number | bigint): number => (typeof value === 'number' ? value >>> 0 : Number(value & 0xffffffffn));

/** Its high 32 bits. */
export const high32 = (value: number | bigint): number => (typeof value === 'number' ? Math.floor(value / 0x100000000) : Number(value >> 32n));

/**
 * The last Poly1305 block of RFC 8439 §2.8's AEAD (and of secretstream's
 * messages): two lengths as little-endian 64-bit words, into `into` (16
 * bytes). Lengths are below 2^53, so each high word is the quotient by 2^32.
 */
export function lengthBlock(first: number, second: number, into: Uint8Array = new Uint8Array(16)): Uint8Array {
  writeLE64(into, 0, first);
  writeLE64(into, 8, second);
  return into;
}

/**
 * A length (below 2^53) as a little-endian 64-bit word at b[i..i + 8]:
 * written in place, where a view of part of a short array would cost V8
 * moving that array off its heap.
 */
export function writeLE64(b: Uint8Array, i: number, length: number): void {
  writeLE32(b, i, length);
  writeLE32(b, i + 4, Math.floor(length / 0x100000000));
}

/** A length as a new 8-byte little-endian word (libsodium's original ChaCha20-Poly1305 tag takes each length so). */
export function le64(length: number): Uint8Array {
  const b = new Uint8Array(8);
  writeLE64(b, 0, length);
  return b;
}

/** No bytes: one shared zero-length array (nothing can be written to it). */
export const EMPTY: Bytes = new Uint8Array(0);

/** Whether every byte of `bytes` is zero (a shared secret from a low-order point), reading them all: no early exit. */
export function isZero(bytes: Uint8Array): boolean {
  let any = 0;
  for (let i = 0; i < bytes.length; i++) any |= bytes[i];
  return any === 0;
}

/** Constant-time comparison of `length` bytes: no early exit on the first difference. */
export function equalBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  // constant-time: public return: whether the bytes are equal is the verdict its callers act on and reveal (a tag verified or not).
  let diff = 0;
  for (let i = 0; i < length; i++) diff |= a[aStart + i] ^ b[bStart + i];
  return diff === 0;
}

/** All ones when lo <= c <= hi, else 0, without a branch (for character codes, far below 2^31). */
export const within = (c: number, lo: number, hi: number): number => ((lo - 1 - c) & (c - hi - 1)) >> 31;

/**
 * Decodes `chars` characters of `text` from `from` into `out` in base64's
 * bit order (RFC 4648 §4: 6 bits a character, the first the most
 * significant), each character's value given by `sextetOf`: its 6 bits, or
 * 64 and above for a character outside the alphabet, computed with masks.
 * Returns nonzero when a character was outside it or the last one's unused
 * bits are set (another spelling of the same bytes), after reading every
 * character: the PHC strings' B64 and bcrypt's alphabet, which carry
 * password hashes.
 */
export function decodeSextets(text: string, from: number, chars: number, out: Uint8Array, sextetOf: (c: number) => number): number {
  let bad = 0;
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = from; i < from + chars; i++) {
    const v = sextetOf(text.charCodeAt(i));
    bad |= v >> 6;
    acc = ((acc << 6) | (v & 63)) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = acc >> bits;
    }
  }
  return bad | (acc & ((1 << bits) - 1));
}

/** Whether `b` views a SharedArrayBuffer (of any realm). */
// constant-time: public return: whether memory is shared is a property of its buffer, not of the bytes in it.
export const isShared = (b: Uint8Array): boolean => isSharedBuffer(b.buffer);

const ZEROS = new Uint8Array(65536);
/** The parts, one after another, in a new array. */
export function joined(parts: readonly Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Zeroes b[0, n): a loop for the few elements short calls use (cheaper
 * than calling TypedArray.prototype.fill), else fill, except where `b`
 * views a SharedArrayBuffer: there fill takes V8's element-by-element path
 * (383 µs per MiB in Node 20), while copying from an array of zeros is a
 * plain memory copy (44 µs).
 */
export function zeroize(b: Uint8Array | Uint32Array, n = b.length): void {
  if (n <= 64) for (let i = 0; i < n; i++) b[i] = 0;
  else if (b instanceof Uint8Array && isShared(b)) for (let at = 0; at < n; at += ZEROS.length) b.set(ZEROS.subarray(0, Math.min(ZEROS.length, n - at)), at);
  else b.fill(0, 0, n);
}

/**
 * Where a decryption of `n` bytes writes plaintext before its tag is
 * verified: the caller's `out` when nobody else can read it during the
 * call, else a new array. Another thread can read a SharedArrayBuffer at
 * any moment, so it gets no byte before the tag verified (deliver()).
 */
export const unverifiedTarget = (out: Uint8Array | undefined, n: number): Uint8Array => (out !== undefined && !isShared(out) ? out : new Uint8Array(n));

/**
 * The verified plaintext in `target` (unverifiedTarget's) as the call
 * returns it: `out` when given (copied there from a private target, which
 * is then wiped), else `target`.
 */
export function deliver(target: Uint8Array, out: Uint8Array | undefined): Uint8Array {
  if (out === undefined || out === target) return target;
  out.set(target);
  zeroize(target);
  return out;
}

/**
 * Short buffers for objects that live a while (a hasher's pending
 * block): views carved from shared 64 KiB
 * ArrayBuffers, each handed out once. A new array of more than 64 bytes
 * is an ArrayBuffer of its own outside V8's heap, whose allocation and
 * sweeping cost more than a short hash; a slab is freed when the last
 * view into it is. The holder wipes what it wrote.
 */
const SLAB = 64 * 1024;
let slab = new ArrayBuffer(0);
let slabUsed = 0;
export function slabBytes(n: number): Bytes {
  if (n > SLAB / 16) return new Uint8Array(n);
  if (slabUsed + n > slab.byteLength) {
    slab = new ArrayBuffer(SLAB);
    slabUsed = 0;
  }
  const view = new Uint8Array(slab, slabUsed, n);
  slabUsed += n;
  return view;
}
