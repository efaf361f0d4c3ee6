/**
 * What a tier ('simd' or 'js') provides for Argon2: a memory of m' blocks
 * (layout.ts) and the filling of one segment of it (RFC 9106 §3.2 step 5
 * and §3.4), in steps, so that a caller can report progress, let other
 * work in between and stop. H0, H' and the first blocks are the same on
 * both tiers (args.ts); so is the order of segments (fill.ts).
 */
import type { Argon2Type } from './args.js';
import type { Shape } from './layout.js';

export interface Argon2Engine {
  /**
   * A memory of `shape.blocks` blocks for a call of `type`; a size the
   * engine cannot allocate throws a RangeError. It holds them until wiped.
   */
  open(shape: Shape, type: Argon2Type): Argon2Memory;
}

export interface Argon2Memory {
  /** Writes block `index` (1024 bytes), one of the first two of a lane. */
  setBlock(index: number, block: Uint8Array): void;
  /** XORs block `index` into `into` (1024 bytes): the lanes' last blocks, for the tag. */
  xorBlock(index: number, into: Uint8Array): void;
  /**
   * Computes blocks `from` .. `from + count - 1` of the segment (pass,
   * slice, lane), in order: §3.4's reference block for each, then its
   * compression (§3.5). Every segment it reads is complete.
   */
  fill(pass: number, slice: number, lane: number, from: number, count: number): void;
  /**
   * Wipes up to `bytes` more of the memory, and lets go of it once all is
   * wiped: true then. A gigabyte takes a tenth of a second to wipe, so an
   * asynchronous caller wipes a piece per turn.
   */
  wipe(bytes: number): boolean;
  /** Wipes what is left and lets go of the memory; safe to call twice. */
  abandon(): void;
}
