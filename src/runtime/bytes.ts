/** Byte-array helpers: little-endian 32-bit words at any alignment (the JS tiers' loads and stores), 64-bit counters' halves, and zeroing. */

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

const ZEROS = new Uint8Array(65536);
/**
 * Zeroes `b`, also where it views a SharedArrayBuffer: there
 * TypedArray.prototype.fill takes V8's element-by-element path (383 µs
 * per MiB in Node 20), while copying from an array of zeros is a plain
 * memory copy (44 µs).
 */
export function zeroize(b: Uint8Array): void {
  for (let at = 0; at < b.length; at += ZEROS.length) b.set(ZEROS.subarray(0, Math.min(ZEROS.length, b.length - at)), at);
}
