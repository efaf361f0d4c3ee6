/**
 * The 'js' tier's Argon2 engine: the compression G (RFC 9106 §3.5) with
 * BLAKE2b's round turned BlaMka (§3.6), and the reference indexing of
 * §3.4, in plain JavaScript for engines without WebAssembly SIMD. A 64-bit
 * word is two 32-bit halves, low then high, as the block's bytes hold it
 * (little-endian), so the memory is the same bytes as the kernel's.
 */
import type { Argon2Engine, Argon2Memory } from './engine.js';
import { mulHigh, referenceIndex, usesAddresses } from './indexing.js';
import type { Attach, SharedFiller } from './jobs.js';
import { ADDRESSES_PER_BLOCK, type Argon2Type, BLOCK, LAYOUT, type Shape, TYPES } from './layout.js';
import { readLE32 } from '../runtime/bytes.js';

/** 32-bit words of a block. */
const WORDS = BLOCK / 4;

/** 2^-32: a product by it is exact, where a division of a secret would be a divider's variable time. */
const INV32 = 2 ** -32;

/**
 * q[x] = q[x] + q[y] + 2 * lo(q[x]) * lo(q[y]) mod 2^64 (§3.6's fBlaMka),
 * for the 64-bit words x and y: the product's low half by Math.imul, its
 * high half by mulHigh (indexing.ts).
 */
function blamka(q: Uint32Array, x: number, y: number): void {
  const xl = q[2 * x],
    xh = q[2 * x + 1],
    yl = q[2 * y],
    yh = q[2 * y + 1];
  const pl = Math.imul(xl, yl) >>> 0;
  const ph = mulHigh(xl, yl);
  const low = xl + yl + ((pl << 1) >>> 0);
  q[2 * x] = low;
  q[2 * x + 1] = xh + yh + ((ph << 1) | (pl >>> 31)) + ((low * INV32) | 0);
}

/** q[d] = (q[d] ^ q[a]) >>> bits, a rotation of the 64-bit word by 16, 24, 32 or 63. */
function xorRotate(q: Uint32Array, d: number, a: number, bits: number): void {
  const lo = q[2 * d] ^ q[2 * a],
    hi = q[2 * d + 1] ^ q[2 * a + 1];
  if (bits === 32) {
    q[2 * d] = hi;
    q[2 * d + 1] = lo;
  } else if (bits === 63) {
    q[2 * d] = (lo << 1) | (hi >>> 31);
    q[2 * d + 1] = (hi << 1) | (lo >>> 31);
  } else {
    q[2 * d] = (lo >>> bits) | (hi << (32 - bits));
    q[2 * d + 1] = (hi >>> bits) | (lo << (32 - bits));
  }
}

/** GB (§3.6) on the 64-bit words a, b, c, d of q. */
function gb(q: Uint32Array, a: number, b: number, c: number, d: number): void {
  blamka(q, a, b);
  xorRotate(q, d, a, 32);
  blamka(q, c, d);
  xorRotate(q, b, c, 24);
  blamka(q, a, b);
  xorRotate(q, d, a, 16);
  blamka(q, c, d);
  xorRotate(q, b, c, 63);
}

/** P (§3.6) on the 16 words v[0..15] of q: GB on the columns of their 4x4 matrix, then on its diagonals. */
function permute(q: Uint32Array, v: readonly number[]): void {
  // constant-time: public v: word positions of a row or a column (ROWS, COLUMNS), the same for every call.
  gb(q, v[0], v[4], v[8], v[12]);
  gb(q, v[1], v[5], v[9], v[13]);
  gb(q, v[2], v[6], v[10], v[14]);
  gb(q, v[3], v[7], v[11], v[15]);
  gb(q, v[0], v[5], v[10], v[15]);
  gb(q, v[1], v[6], v[11], v[12]);
  gb(q, v[2], v[7], v[8], v[13]);
  gb(q, v[3], v[4], v[9], v[14]);
}

/** The 64-bit words of each row of the block as an 8x8 matrix of 16-byte registers (§3.5: Q from R), then of each column (Z from Q). */
// constant-time: public ROWS, COLUMNS: word positions in a block, the same for every call.
const ROWS = Array.from({ length: 8 }, (_row, i) => Array.from({ length: 16 }, (_word, w) => 16 * i + w));
const COLUMNS = Array.from({ length: 8 }, (_column, i) => Array.from({ length: 16 }, (_word, w) => 2 * i + 16 * (w >> 1) + (w & 1)));

/**
 * out = G(X, Y) (§3.5), XORed into what out holds when `xor` (§3.2 step 6
 * from version 0x13: a later pass's block). x, y and out are word offsets
 * in `m`; r and q are scratch blocks.
 */
function compress(m: Uint32Array, x: number, y: number, out: number, xor: boolean, r: Uint32Array, q: Uint32Array): void {
  for (let i = 0; i < WORDS; i++) r[i] = m[x + i] ^ m[y + i];
  q.set(r);
  for (const row of ROWS) permute(q, row);
  for (const column of COLUMNS) permute(q, column);
  if (xor) for (let i = 0; i < WORDS; i++) m[out + i] ^= q[i] ^ r[i];
  else for (let i = 0; i < WORDS; i++) m[out + i] = q[i] ^ r[i];
}

class JsMemory implements Argon2Memory {
  /** The blocks, or undefined once let go. */
  private m: Uint32Array | undefined;
  private readonly r = new Uint32Array(WORDS);
  private readonly q = new Uint32Array(WORDS);
  /** §3.4.1.2's input block Z, the zero block, and G(0, G(0, Z)): a block of pseudo-random values for the data-independent segments. */
  private readonly addressing = new Uint32Array(3 * WORDS);
  /** Words from here on are still to be wiped. */
  private wiped = 0;
  /**
   * Words from here on were never written: a call stopped early (its
   * lanes' first blocks under way) wipes what it wrote, not every page of
   * a memory it barely touched, whose first touch costs seconds a GiB.
   */
  private reached = 0;

  /** `blocks`: the blocks in memory shared with other threads (fourfold/parallel), whose owner wipes them; else a memory of its own. */
  constructor(
    private readonly s: Shape,
    private readonly type: Argon2Type,
    blocks?: Uint32Array,
  ) {
    try {
      this.m = blocks ?? new Uint32Array(s.blocks * WORDS);
    } catch (cause) {
      throw new RangeError(`argon2: ${s.blocks * BLOCK} bytes of memory cannot be had here`, { cause });
    }
  }

  /** Zeroes the scratch blocks, not the memory (a shared memory's owner wipes that). */
  wipeScratch(): void {
    this.r.fill(0);
    this.q.fill(0);
    this.addressing.fill(0);
  }

  setBlock(index: number, block: Uint8Array): void {
    const m = this.m!;
    this.reach(index + 1);
    for (let i = 0; i < WORDS; i++) m[index * WORDS + i] = readLE32(block, 4 * i);
  }

  /** Blocks from `blocks` on are still unwritten, if they were (said before the blocks below are written: a write that throws is wiped too). */
  private reach(blocks: number): void {
    this.reached = Math.max(this.reached, blocks * WORDS);
  }

  xorBlock(index: number, into: Uint8Array): void {
    const m = this.m!;
    for (let i = 0; i < BLOCK; i++) into[i] ^= m[index * WORDS + (i >> 2)] >>> (8 * (i & 3));
  }

  /** The block of addresses for blocks 128k .. 128k + 127 of a segment, k = counter - 1 (§3.4.1.2). */
  private addresses(pass: number, slice: number, lane: number, counter: number): Uint32Array {
    // constant-time: public a: pseudo-random values made from public counters only (RFC 9106 §3.4.1.2).
    const a = this.addressing;
    a.fill(0);
    const z = [pass, lane, slice, this.s.blocks, this.s.t, TYPES[this.type], counter];
    for (let i = 0; i < z.length; i++) a[2 * i] = z[i];
    const { r, q } = this;
    compress(a, WORDS, 0, 2 * WORDS, false, r, q);
    compress(a, WORDS, 2 * WORDS, 2 * WORDS, false, r, q);
    return a.subarray(2 * WORDS);
  }

  fill(pass: number, slice: number, lane: number, from: number, count: number): void {
    const m = this.m!;
    const s = this.s;
    const independent = usesAddresses(this.type, pass, slice);
    const xor = pass > 0 && s.version === 0x13;
    this.reach(lane * s.laneLength + slice * s.segmentLength + from + count);
    let addresses = independent ? this.addresses(pass, slice, lane, Math.floor(from / ADDRESSES_PER_BLOCK) + 1) : undefined;
    for (let i = from; i < from + count; i++) {
      if (addresses !== undefined && i % ADDRESSES_PER_BLOCK === 0 && i > from) addresses = this.addresses(pass, slice, lane, i / ADDRESSES_PER_BLOCK + 1);
      const column = slice * s.segmentLength + i;
      const current = lane * s.laneLength + column;
      const previous = column === 0 ? current + s.laneLength - 1 : current - 1;
      const k = i % ADDRESSES_PER_BLOCK;
      const j1 = addresses !== undefined ? addresses[2 * k] : m[previous * WORDS];
      const j2 = addresses !== undefined ? addresses[2 * k + 1] : m[previous * WORDS + 1];
      const reference = referenceIndex(s, pass, slice, lane, i, j1, j2);
      // constant-time exception (secret-index) for reference: argon2d and argon2id's later segments read the block their data names, by design (RFC 9106 §3.4).
      compress(m, previous * WORDS, reference * WORDS, current * WORDS, xor, this.r, this.q);
    }
  }

  wipe(bytes: number): boolean {
    this.wipeScratch();
    const m = this.m;
    if (m === undefined) return true;
    const end = Math.min(this.reached, this.wiped + Math.ceil(bytes / 4));
    m.fill(0, this.wiped, end);
    this.wiped = end;
    if (end < this.reached) return false;
    this.m = undefined;
    return true;
  }

  abandon(): void {
    this.wipe(Number.POSITIVE_INFINITY);
  }
}

export const jsArgon2: Argon2Engine = {
  open: (shape, type) => new JsMemory(shape, type),
};

/** A filler of the blocks in a memory shared with other threads (fourfold/parallel's js tier), from LAYOUT.BASE as the kernel's. */
export function jsAttach(p: Attach): SharedFiller {
  return new JsMemory(p.shape, p.type, new Uint32Array(p.memory.buffer, LAYOUT.BASE, p.shape.blocks * WORDS));
}
