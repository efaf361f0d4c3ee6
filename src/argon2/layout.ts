/**
 * The shape of an Argon2 memory (RFC 9106 §3.2 step 4): m' = 4p * floor(m
 * / 4p) blocks of 1 KiB in p lanes of q = m' / p columns, each lane cut
 * into four segments of q / 4 blocks (the slices, between which lanes
 * synchronise). Block (lane l, column j) is block l * q + j of the memory,
 * lane after lane, on every tier: in the kernel's memory, from
 * LAYOUT.BASE, after the scratch of the compression (kernel.ts).
 */

/** Argon2's three variants and their type numbers y (RFC 9106 §3.1). */
export const TYPES = { argon2d: 0, argon2i: 1, argon2id: 2 } as const;
/** A variant's name: 'argon2d', 'argon2i' or 'argon2id'. */
export type Argon2Type = keyof typeof TYPES;

/** Bytes of a block: 128 64-bit words (§3.2). */
export const BLOCK = 1024;

/** Slices a pass is cut into: the lanes synchronise at the end of each (§3.4). */
export const SLICES = 4;

/** A block of addresses holds this many pseudo-random values (§3.4.1.2: 128 64-bit words). */
export const ADDRESSES_PER_BLOCK = 128;

export interface Shape {
  /** Lanes p. */
  readonly p: number;
  /** Passes t. */
  readonly t: number;
  /** 0x10 or 0x13: from 0x13 on, a block of a later pass is XORed into, not overwritten (§3.2 step 6). */
  readonly version: number;
  /** Blocks m' in all. */
  readonly blocks: number;
  /** Columns q of a lane. */
  readonly laneLength: number;
  /** Blocks of a segment, q / 4. */
  readonly segmentLength: number;
}

export function shapeOf(m: number, p: number, t: number, version: number): Shape {
  const blocks = 4 * p * Math.floor(m / (4 * p));
  const laneLength = blocks / p;
  return { p, t, version, blocks, laneLength, segmentLength: laneLength / SLICES };
}

/** The segments of a call in the order a single thread fills them: pass, then slice, then lane. */
export const segmentCount = (s: Shape): number => s.t * SLICES * s.p;

/** Blocks computed in a segment: all of it, but the first two of each lane in the first slice of the first pass (§3.2 step 3 made them). */
export const segmentWork = (s: Shape, pass: number, slice: number): number => s.segmentLength - (pass === 0 && slice === 0 ? 2 : 0);

/**
 * A lane's first block counted in blocks' compressions, by its rounds: H'
 * (§3.3) is 31 BLAKE2b compressions of 12 rounds, where G (§3.5) is 16
 * rounds of the same kind.
 */
export const FIRST_BLOCK_WORK = 24;

/** Work in all, in blocks' compressions (what progress counts): the lanes' first blocks, the blocks computed, and the XOR of each lane's last block for the tag (one each). */
export const totalWork = (s: Shape): number => 2 * s.p * FIRST_BLOCK_WORK + s.t * s.blocks - 2 * s.p + s.p;

/** The scratch page's addresses, and where the blocks begin. */
export const LAYOUT = {
  /** R = X xor Y of the compression (folded with the old block from version 0x13's second pass). */
  R: 0,
  /** Q = P of R's rows, then P of its columns. */
  T: 1024,
  /** The block of addresses: G(0, G(0, Z)) (§3.4.1.2). */
  ADDRESSES: 2048,
  /** Z: the pass, lane, slice, m', t, type and counter, then zeros. */
  INPUT: 3072,
  /** A block of zeros, never written. */
  ZERO: 4096,
  /** G(0, Z), on the way to the addresses. */
  HALF: 5120,
  /** Where touchNext's loads go. */
  SINK: 6144,
  /** Bytes of one caller's scratch: callers that share a memory (fourfold/parallel's workers) each use their own. */
  SCRATCH: 8192,
  /** The m' blocks, after the first page's eight scratches. */
  BASE: 65536,
} as const;
