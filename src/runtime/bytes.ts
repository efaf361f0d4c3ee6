/** Little-endian 32-bit words in byte arrays, at any alignment (the JS tiers' loads and stores). */

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
