/**
 * The 'js' tier's scrypt engine: ROMix (RFC 7914 §5), BlockMix (§4) and
 * Salsa20/8 (§3) on 32-bit words in plain JavaScript, for engines without
 * WebAssembly SIMD. The same slots as the kernel (layout.ts), in standard
 * word order: V in slots 0..N-1, X and its BlockMix in slots N and N + 1.
 */
import type { RomixRun, ScryptEngine } from './engine.js';
import { readLE32, writeLE32 } from '../runtime/bytes.js';

/**
 * BlockMix (§4) of the slot at word `src` (XORed with the slot at word `v`
 * when v >= 0) into the slot at word `dst`: X starts as the input's last
 * block (step 1); for each block B_i, X = Salsa20/8 (§3) of X xor B_i
 * (step 3), which goes to the first half of dst for even i and to the
 * second half for odd i (step 6). X stays in 16 locals from one block to
 * the next, and nothing is allocated.
 */
function blockMix(m: Int32Array, src: number, v: number, dst: number, r: number): void {
  const last = src + 32 * r - 16;
  const mixed = v >= 0;
  let x0 = m[last], x1 = m[last + 1], x2 = m[last + 2], x3 = m[last + 3];
  let x4 = m[last + 4], x5 = m[last + 5], x6 = m[last + 6], x7 = m[last + 7];
  let x8 = m[last + 8], x9 = m[last + 9], x10 = m[last + 10], x11 = m[last + 11];
  let x12 = m[last + 12], x13 = m[last + 13], x14 = m[last + 14], x15 = m[last + 15];
  if (mixed) {
    const z = last - src + v;
    x0 ^= m[z]; x1 ^= m[z + 1]; x2 ^= m[z + 2]; x3 ^= m[z + 3];
    x4 ^= m[z + 4]; x5 ^= m[z + 5]; x6 ^= m[z + 6]; x7 ^= m[z + 7];
    x8 ^= m[z + 8]; x9 ^= m[z + 9]; x10 ^= m[z + 10]; x11 ^= m[z + 11];
    x12 ^= m[z + 12]; x13 ^= m[z + 13]; x14 ^= m[z + 14]; x15 ^= m[z + 15];
  }
  for (let i = 0; i < 2 * r; i++) {
    const b = src + 16 * i;
    x0 ^= m[b]; x1 ^= m[b + 1]; x2 ^= m[b + 2]; x3 ^= m[b + 3];
    x4 ^= m[b + 4]; x5 ^= m[b + 5]; x6 ^= m[b + 6]; x7 ^= m[b + 7];
    x8 ^= m[b + 8]; x9 ^= m[b + 9]; x10 ^= m[b + 10]; x11 ^= m[b + 11];
    x12 ^= m[b + 12]; x13 ^= m[b + 13]; x14 ^= m[b + 14]; x15 ^= m[b + 15];
    if (mixed) {
      const z = v + 16 * i;
      x0 ^= m[z]; x1 ^= m[z + 1]; x2 ^= m[z + 2]; x3 ^= m[z + 3];
      x4 ^= m[z + 4]; x5 ^= m[z + 5]; x6 ^= m[z + 6]; x7 ^= m[z + 7];
      x8 ^= m[z + 8]; x9 ^= m[z + 9]; x10 ^= m[z + 10]; x11 ^= m[z + 11];
      x12 ^= m[z + 12]; x13 ^= m[z + 13]; x14 ^= m[z + 14]; x15 ^= m[z + 15];
    }
    const i0 = x0, i1 = x1, i2 = x2, i3 = x3, i4 = x4, i5 = x5, i6 = x6, i7 = x7;
    const i8 = x8, i9 = x9, i10 = x10, i11 = x11, i12 = x12, i13 = x13, i14 = x14, i15 = x15;
    let t: number;
    for (let round = 0; round < 4; round++) {
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
    x0 = (x0 + i0) | 0; x1 = (x1 + i1) | 0; x2 = (x2 + i2) | 0; x3 = (x3 + i3) | 0;
    x4 = (x4 + i4) | 0; x5 = (x5 + i5) | 0; x6 = (x6 + i6) | 0; x7 = (x7 + i7) | 0;
    x8 = (x8 + i8) | 0; x9 = (x9 + i9) | 0; x10 = (x10 + i10) | 0; x11 = (x11 + i11) | 0;
    x12 = (x12 + i12) | 0; x13 = (x13 + i13) | 0; x14 = (x14 + i14) | 0; x15 = (x15 + i15) | 0;
    const o = dst + (i & 1 ? 16 * r : 0) + 16 * (i >> 1);
    m[o] = x0; m[o + 1] = x1; m[o + 2] = x2; m[o + 3] = x3;
    m[o + 4] = x4; m[o + 5] = x5; m[o + 6] = x6; m[o + 7] = x7;
    m[o + 8] = x8; m[o + 9] = x9; m[o + 10] = x10; m[o + 11] = x11;
    m[o + 12] = x12; m[o + 13] = x13; m[o + 14] = x14; m[o + 15] = x15;
  }
}

class JsRun implements RomixRun {
  done = 0;
  /** The lane's slots, or undefined once let go. */
  private m: Int32Array | undefined;
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
    const { N, r, words } = this;
    const m = this.m!;
    for (; count > 0 && this.done < N; count--, this.done++) blockMix(m, this.done * words, -1, (this.done + 1) * words, r);
    for (; count > 0 && this.done < 2 * N; count--, this.done++) {
      const odd = (this.done - N) & 1;
      const src = (N + odd) * words;
      // constant-time exception (secret-index) for j: ROMix reads V_j at j = Integerify(X) mod N (RFC 7914 §5), data-dependent by design.
      const j = m[src + words - 16] & (N - 1);
      blockMix(m, src, j * words, (N + 1 - odd) * words, r);
    }
  }

  finish(out: Uint8Array): void {
    const m = this.m!;
    const at = this.N * this.words;
    for (let i = 0; i < this.words; i++) writeLE32(out, 4 * i, m[at + i]);
  }

  wipe(bytes: number): boolean {
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
