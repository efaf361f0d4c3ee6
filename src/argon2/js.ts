/**
 * The 'js' tier's Argon2 engine: the compression G (RFC 9106 §3.5,
 * js-compress.ts) and the reference indexing of §3.4, in plain JavaScript
 * for engines without WebAssembly SIMD. A 64-bit word is two 32-bit
 * halves, low then high, as the block's bytes hold it (little-endian), so
 * the memory is the same bytes as the kernel's.
 */
import type { Argon2Engine, Argon2Memory } from './engine.js';
import { referenceIndex, usesAddresses } from './indexing.js';
import type { Attach, SharedFiller } from './jobs.js';
import { compressBlock, WORDS } from './js-compress.js';
import { ADDRESSES_PER_BLOCK, type Argon2Type, BLOCK, LAYOUT, type Shape, TYPES } from './layout.js';
import { readLE32 } from '../runtime/bytes.js';
import { Written } from './written.js';

class JsMemory implements Argon2Memory {
  /** The blocks as 32-bit integers (js-compress.ts), or undefined once let go. */
  private m: Int32Array | undefined;
  /** The scratch block of the compression. */
  private readonly q = new Int32Array(WORDS);
  /** §3.4.1.2's input block Z, the zero block, and G(0, G(0, Z)): a block of pseudo-random values for the data-independent segments. */
  private readonly addressing = new Int32Array(3 * WORDS);
  /** What the call wrote, to be wiped: the columns reached (written.ts), in words. */
  private readonly written: Written;

  /** `blocks`: the blocks in memory shared with other threads (fourfold/parallel), whose owner wipes them; else a memory of its own. */
  constructor(
    private readonly s: Shape,
    private readonly type: Argon2Type,
    blocks?: Int32Array,
  ) {
    try {
      this.m = blocks ?? new Int32Array(s.blocks * WORDS);
      this.written = new Written(s, WORDS, 0, 0);
    } catch (cause) {
      throw new RangeError(`argon2: ${s.blocks * BLOCK} bytes of memory cannot be had here`, { cause });
    }
  }

  /** Zeroes the scratch blocks, not the memory (a shared memory's owner wipes that). */
  wipeScratch(): void {
    this.q.fill(0);
    this.addressing.fill(0);
  }

  setBlock(index: number, block: Uint8Array): void {
    const m = this.m!;
    this.written.reachBlock(index);
    for (let i = 0; i < WORDS; i++) m[index * WORDS + i] = readLE32(block, 4 * i);
  }

  xorBlock(index: number, into: Uint8Array): void {
    const m = this.m!;
    for (let i = 0; i < BLOCK; i++) into[i] ^= m[index * WORDS + (i >> 2)] >>> (8 * (i & 3));
  }

  /** The block of addresses for blocks 128k .. 128k + 127 of a segment, k = counter - 1 (§3.4.1.2). */
  private addresses(pass: number, slice: number, lane: number, counter: number): Int32Array {
    // constant-time: public a: pseudo-random values made from public counters only (RFC 9106 §3.4.1.2).
    const a = this.addressing;
    a.fill(0);
    const z = [pass, lane, slice, this.s.blocks, this.s.t, TYPES[this.type], counter];
    for (let i = 0; i < z.length; i++) a[2 * i] = z[i];
    compressBlock(a, WORDS, 0, 2 * WORDS, false, this.q);
    compressBlock(a, WORDS, 2 * WORDS, 2 * WORDS, false, this.q);
    return a.subarray(2 * WORDS);
  }

  fill(pass: number, slice: number, lane: number, from: number, count: number): void {
    const m = this.m!;
    const s = this.s;
    const independent = usesAddresses(this.type, pass, slice);
    const xor = pass > 0 && s.version === 0x13;
    this.written.reachSegment(pass, slice, from + count, [lane]);
    let addresses = independent ? this.addresses(pass, slice, lane, Math.floor(from / ADDRESSES_PER_BLOCK) + 1) : undefined;
    for (let i = from; i < from + count; i++) {
      if (addresses !== undefined && i % ADDRESSES_PER_BLOCK === 0 && i > from) addresses = this.addresses(pass, slice, lane, i / ADDRESSES_PER_BLOCK + 1);
      const column = slice * s.segmentLength + i;
      const current = lane * s.laneLength + column;
      const previous = column === 0 ? current + s.laneLength - 1 : current - 1;
      const k = i % ADDRESSES_PER_BLOCK;
      const j1 = (addresses !== undefined ? addresses[2 * k] : m[previous * WORDS]) >>> 0;
      const j2 = (addresses !== undefined ? addresses[2 * k + 1] : m[previous * WORDS + 1]) >>> 0;
      const reference = referenceIndex(s, pass, slice, lane, i, j1, j2);
      // constant-time exception (secret-index) for reference: argon2d and argon2id's later segments read the block their data names, by design (RFC 9106 §3.4).
      compressBlock(m, previous * WORDS, reference * WORDS, current * WORDS, xor, this.q);
    }
  }

  wipe(bytes: number): boolean {
    this.wipeScratch();
    const m = this.m;
    if (m === undefined) return true;
    if (!this.written.wipe(Math.ceil(bytes / 4), (from, count) => m.fill(0, from, from + count))) return false;
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
  return new JsMemory(p.shape, p.type, new Int32Array(p.memory.buffer, LAYOUT.BASE, p.shape.blocks * WORDS));
}
