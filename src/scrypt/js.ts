/**
 * The 'js' tier's scrypt engine: ROMix (RFC 7914 §5), BlockMix (§4) and
 * Salsa20/8 (§3) on 32-bit words in plain JavaScript, for engines without
 * WebAssembly SIMD. The same slots as the kernel (layout.ts), in standard
 * word order: V in slots 0..N-1, X and its BlockMix in slots N and N + 1.
 */
import type { RomixRun, ScryptEngine } from './engine.js';
import { readLE32, writeLE32 } from '../runtime/bytes.js';

/**
 * Salsa20/8 of the 16 words `x[at..]` XORed with `y[yAt..]` (and with
 * `z[zAt..]` when z is given), into `x[at..]` and `out[outAt..]`: one step
 * of BlockMix, X = Salsa(X xor B_i), with X kept in x.
 */
function salsa8Xor(x: Int32Array, y: Int32Array, yAt: number, z: Int32Array | undefined, zAt: number, out: Int32Array, outAt: number): void {
  let x0 = x[0] ^ y[yAt], x1 = x[1] ^ y[yAt + 1], x2 = x[2] ^ y[yAt + 2], x3 = x[3] ^ y[yAt + 3];
  let x4 = x[4] ^ y[yAt + 4], x5 = x[5] ^ y[yAt + 5], x6 = x[6] ^ y[yAt + 6], x7 = x[7] ^ y[yAt + 7];
  let x8 = x[8] ^ y[yAt + 8], x9 = x[9] ^ y[yAt + 9], x10 = x[10] ^ y[yAt + 10], x11 = x[11] ^ y[yAt + 11];
  let x12 = x[12] ^ y[yAt + 12], x13 = x[13] ^ y[yAt + 13], x14 = x[14] ^ y[yAt + 14], x15 = x[15] ^ y[yAt + 15];
  if (z !== undefined) {
    x0 ^= z[zAt]; x1 ^= z[zAt + 1]; x2 ^= z[zAt + 2]; x3 ^= z[zAt + 3];
    x4 ^= z[zAt + 4]; x5 ^= z[zAt + 5]; x6 ^= z[zAt + 6]; x7 ^= z[zAt + 7];
    x8 ^= z[zAt + 8]; x9 ^= z[zAt + 9]; x10 ^= z[zAt + 10]; x11 ^= z[zAt + 11];
    x12 ^= z[zAt + 12]; x13 ^= z[zAt + 13]; x14 ^= z[zAt + 14]; x15 ^= z[zAt + 15];
  }
  const i0 = x0, i1 = x1, i2 = x2, i3 = x3, i4 = x4, i5 = x5, i6 = x6, i7 = x7;
  const i8 = x8, i9 = x9, i10 = x10, i11 = x11, i12 = x12, i13 = x13, i14 = x14, i15 = x15;
  let t: number;
  for (let i = 0; i < 4; i++) {
    // Column round: quarter rounds on (0, 4, 8, 12), (5, 9, 13, 1), (10, 14, 2, 6), (15, 3, 7, 11).
    t = x0 + x12; x4 ^= (t << 7) | (t >>> 25); t = x4 + x0; x8 ^= (t << 9) | (t >>> 23);
    t = x8 + x4; x12 ^= (t << 13) | (t >>> 19); t = x12 + x8; x0 ^= (t << 18) | (t >>> 14);
    t = x5 + x1; x9 ^= (t << 7) | (t >>> 25); t = x9 + x5; x13 ^= (t << 9) | (t >>> 23);
    t = x13 + x9; x1 ^= (t << 13) | (t >>> 19); t = x1 + x13; x5 ^= (t << 18) | (t >>> 14);
    t = x10 + x6; x14 ^= (t << 7) | (t >>> 25); t = x14 + x10; x2 ^= (t << 9) | (t >>> 23);
    t = x2 + x14; x6 ^= (t << 13) | (t >>> 19); t = x6 + x2; x10 ^= (t << 18) | (t >>> 14);
    t = x15 + x11; x3 ^= (t << 7) | (t >>> 25); t = x3 + x15; x7 ^= (t << 9) | (t >>> 23);
    t = x7 + x3; x11 ^= (t << 13) | (t >>> 19); t = x11 + x7; x15 ^= (t << 18) | (t >>> 14);
    // Row round: quarter rounds on (0, 1, 2, 3), (5, 6, 7, 4), (10, 11, 8, 9), (15, 12, 13, 14).
    t = x0 + x3; x1 ^= (t << 7) | (t >>> 25); t = x1 + x0; x2 ^= (t << 9) | (t >>> 23);
    t = x2 + x1; x3 ^= (t << 13) | (t >>> 19); t = x3 + x2; x0 ^= (t << 18) | (t >>> 14);
    t = x5 + x4; x6 ^= (t << 7) | (t >>> 25); t = x6 + x5; x7 ^= (t << 9) | (t >>> 23);
    t = x7 + x6; x4 ^= (t << 13) | (t >>> 19); t = x4 + x7; x5 ^= (t << 18) | (t >>> 14);
    t = x10 + x9; x11 ^= (t << 7) | (t >>> 25); t = x11 + x10; x8 ^= (t << 9) | (t >>> 23);
    t = x8 + x11; x9 ^= (t << 13) | (t >>> 19); t = x9 + x8; x10 ^= (t << 18) | (t >>> 14);
    t = x15 + x14; x12 ^= (t << 7) | (t >>> 25); t = x12 + x15; x13 ^= (t << 9) | (t >>> 23);
    t = x13 + x12; x14 ^= (t << 13) | (t >>> 19); t = x14 + x13; x15 ^= (t << 18) | (t >>> 14);
  }
  out[outAt] = x[0] = (x0 + i0) | 0;
  out[outAt + 1] = x[1] = (x1 + i1) | 0;
  out[outAt + 2] = x[2] = (x2 + i2) | 0;
  out[outAt + 3] = x[3] = (x3 + i3) | 0;
  out[outAt + 4] = x[4] = (x4 + i4) | 0;
  out[outAt + 5] = x[5] = (x5 + i5) | 0;
  out[outAt + 6] = x[6] = (x6 + i6) | 0;
  out[outAt + 7] = x[7] = (x7 + i7) | 0;
  out[outAt + 8] = x[8] = (x8 + i8) | 0;
  out[outAt + 9] = x[9] = (x9 + i9) | 0;
  out[outAt + 10] = x[10] = (x10 + i10) | 0;
  out[outAt + 11] = x[11] = (x11 + i11) | 0;
  out[outAt + 12] = x[12] = (x12 + i12) | 0;
  out[outAt + 13] = x[13] = (x13 + i13) | 0;
  out[outAt + 14] = x[14] = (x14 + i14) | 0;
  out[outAt + 15] = x[15] = (x15 + i15) | 0;
}

/**
 * BlockMix (§4) of the slot at word `src` (XORed with the slot at word `v`
 * when v >= 0) into the slot at word `dst`: X starts as the input's last
 * block (step 1); Y_i = Salsa(X xor B_i) goes to the first half of dst for
 * even i and to the second half for odd i (step 6).
 */
function blockMix(m: Int32Array, x: Int32Array, src: number, v: number, dst: number, r: number): void {
  const last = 32 * r - 16;
  x.set(m.subarray(src + last, src + last + 16));
  if (v >= 0) for (let i = 0; i < 16; i++) x[i] ^= m[v + last + i];
  const z = v >= 0 ? m : undefined;
  for (let i = 0; i < 2 * r; i++) {
    const out = dst + (i & 1 ? 16 * r : 0) + 16 * (i >> 1);
    salsa8Xor(x, m, src + 16 * i, z, v + 16 * i, m, out);
  }
}

class JsRun implements RomixRun {
  done = 0;
  /** The lane's slots, or undefined once let go. */
  private m: Int32Array | undefined;
  /** X, the BlockMix chain's block. */
  private readonly x = new Int32Array(16);
  private readonly words: number;
  /** Words from here on are still to be wiped. */
  private wiped = 0;

  constructor(
    block: Uint8Array,
    private readonly N: number,
    private readonly r: number,
  ) {
    this.words = 32 * r;
    try {
      this.m = new Int32Array((N + 2) * this.words);
    } catch (cause) {
      throw new RangeError(`scrypt: ${(N + 2) * 128 * r} bytes of memory cannot be had here`, { cause });
    }
    for (let i = 0; i < this.words; i++) this.m[i] = readLE32(block, 4 * i);
  }

  step(count: number): void {
    const { N, r, words, x } = this;
    const m = this.m!;
    for (; count > 0 && this.done < N; count--, this.done++) blockMix(m, x, this.done * words, -1, (this.done + 1) * words, r);
    for (; count > 0 && this.done < 2 * N; count--, this.done++) {
      const odd = (this.done - N) & 1;
      const src = (N + odd) * words;
      // constant-time exception (secret-index) for j: ROMix reads V_j at j = Integerify(X) mod N (RFC 7914 §5), data-dependent by design.
      const j = m[src + words - 16] & (N - 1);
      blockMix(m, x, src, j * words, (N + 1 - odd) * words, r);
    }
  }

  finish(out: Uint8Array): void {
    const m = this.m!;
    const at = this.N * this.words;
    for (let i = 0; i < this.words; i++) writeLE32(out, 4 * i, m[at + i]);
  }

  wipe(bytes: number): boolean {
    this.x.fill(0);
    const m = this.m;
    if (m === undefined) return true;
    const end = Math.min(m.length, this.wiped + Math.ceil(bytes / 4));
    m.fill(0, this.wiped, end);
    this.wiped = end;
    if (end < m.length) return false;
    this.m = undefined;
    return true;
  }

  abandon(): void {
    this.wipe(Number.POSITIVE_INFINITY);
  }
}

export const jsScrypt: ScryptEngine = {
  romix: (block, N, r) => new JsRun(block, N, r),
};
