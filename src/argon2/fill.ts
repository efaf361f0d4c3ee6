/**
 * An Argon2 call from start to tag on one thread (RFC 9106 §3.2): the
 * first two blocks of each lane from H0, the segments filled in order
 * (pass, then slice, then lane: each slice's segments need only the slices
 * before it), in steps of any size, and the tag from the lanes' last
 * blocks. fourfold/parallel's argon2 fills the lanes of a slice at once
 * instead, with the same ends.
 */
import { type Argon2Call, firstBlock, initialHash, tag } from './args.js';
import type { Argon2Engine, Argon2Memory } from './engine.js';
import { BLOCK, SLICES, segmentWork, totalWork } from './layout.js';
import type { Bytes } from '../runtime/bytes.js';
import { zeroize } from '../runtime/bytes.js';

/** A memory of the call's shape on `engine`, its first two blocks of each lane written (§3.2 steps 2-4). */
export function openMemory(c: Argon2Call, engine: Argon2Engine): Argon2Memory {
  const memory = engine.open(c, c.type);
  const h0 = initialHash(c);
  try {
    for (let lane = 0; lane < c.p; lane++) {
      for (const column of [0, 1] as const) {
        const block = firstBlock(h0, lane, column);
        memory.setBlock(lane * c.laneLength + column, block);
        zeroize(block);
      }
    }
  } catch (e) {
    memory.abandon();
    throw e;
  } finally {
    zeroize(h0);
  }
  return memory;
}

/** The tag (§3.2 steps 7-8) of a filled memory. */
export function finalTag(c: Argon2Call, memory: Argon2Memory): Bytes {
  const last = new Uint8Array(BLOCK);
  try {
    for (let lane = 0; lane < c.p; lane++) memory.xorBlock(lane * c.laneLength + c.laneLength - 1, last);
    return tag(c, last);
  } finally {
    zeroize(last);
  }
}

/** Where a fill stands: the segment (pass, slice, lane) and the next block of it. */
export class Fill {
  pass = 0;
  slice = 0;
  lane = 0;
  /** The next block's index in its segment. */
  index = 2;
  /** Blocks computed so far, of `total`. */
  done = 0;
  readonly total: number;

  constructor(
    private readonly c: Argon2Call,
    private readonly memory: Argon2Memory,
  ) {
    this.total = totalWork(c);
  }

  get finished(): boolean {
    return this.pass === this.c.t;
  }

  /** Computes up to `blocks` more blocks (at least one segment's piece), in order. */
  step(blocks: number): void {
    const c = this.c;
    while (blocks > 0 && !this.finished) {
      const n = Math.min(blocks, c.segmentLength - this.index);
      if (n > 0) this.memory.fill(this.pass, this.slice, this.lane, this.index, n);
      this.index += n;
      this.done += n;
      blocks -= n;
      if (this.index === c.segmentLength) this.nextSegment();
    }
  }

  /** The next segment; in the first slice of the first pass, each lane's starts after its two first blocks. */
  private nextSegment(): void {
    if (++this.lane === this.c.p) {
      this.lane = 0;
      if (++this.slice === SLICES) {
        this.slice = 0;
        this.pass++;
      }
    }
    this.index = this.c.segmentLength - segmentWork(this.c, this.pass, this.slice);
  }
}

/**
 * A call's progress, told to its onProgress when it moved by 1/1000 (never
 * 1: the call says that once, at its end), and never back: a call that
 * starts again from `told` (fourfold/parallel's, after a lost worker) says
 * nothing until its work passes that point.
 */
export class ProgressReport {
  constructor(
    private readonly c: Argon2Call,
    private readonly total: number,
    private reported = 0,
  ) {}

  /** The last fraction told, 0 before any. */
  get told(): number {
    return this.reported;
  }

  report(done: number): void {
    const fraction = done / this.total;
    if (this.c.onProgress !== undefined && fraction < 1 && fraction - this.reported >= 0.001) {
      this.reported = fraction;
      this.c.onProgress(fraction);
    }
  }
}
