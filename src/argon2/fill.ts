/**
 * An Argon2 call from start to tag on one thread (RFC 9106 §3.2), each
 * stage in steps of any size, so that none is one long piece whatever the
 * lanes: the first two blocks of each lane from H0, the segments filled
 * in order (pass, then slice, then lane: each slice's segments need only
 * the slices before it), and the tag from the lanes' last blocks.
 * fourfold/parallel's argon2 fills the lanes of a slice at once instead,
 * with the same ends.
 */
import { type Argon2Call, firstBlock, initialHash, tag } from './args.js';
import type { Argon2Memory } from './engine.js';
import { BLOCK, FIRST_BLOCK_WORK, SLICES, segmentWork, totalWork } from './layout.js';
import type { Bytes } from '../runtime/bytes.js';
import { zeroize } from '../runtime/bytes.js';
import { now } from '../runtime/host.js';

/**
 * Work done in pieces of any size (the blocks of a stage of the call), so
 * that an asynchronous caller can give the event loop its turns between
 * them, however many lanes the call has.
 */
export interface Steps {
  readonly finished: boolean;
  /** Does about `work` more (in blocks' compressions, layout.ts totalWork), at least one piece; returns the work done. */
  step(work: number): number;
}

/**
 * The first two blocks of each lane from H0 (§3.2 steps 1, 3 and 4),
 * lane after lane. H0 is held until the last lane's are written, or
 * forget().
 */
export class FirstBlocks implements Steps {
  private lane = 0;
  private readonly h0: Uint8Array;

  constructor(
    private readonly c: Argon2Call,
    private readonly memory: Argon2Memory,
  ) {
    this.h0 = initialHash(c);
  }

  get finished(): boolean {
    return this.lane === this.c.p;
  }

  step(work: number): number {
    const lanes = Math.min(this.c.p - this.lane, Math.max(1, Math.round(work / (2 * FIRST_BLOCK_WORK))));
    for (const end = this.lane + lanes; this.lane < end; this.lane++) {
      for (const column of [0, 1] as const) {
        const block = firstBlock(this.h0, this.lane, column);
        this.memory.setBlock(this.lane * this.c.laneLength + column, block);
        zeroize(block);
      }
    }
    if (this.finished) this.forget();
    return lanes * 2 * FIRST_BLOCK_WORK;
  }

  /** Wipes H0 (every way the call ends). */
  forget(): void {
    zeroize(this.h0);
  }
}

/** C, the XOR of every lane's last block (§3.2 step 7), lane after lane, and the tag from it (step 8). */
export class LastBlocks implements Steps {
  private lane = 0;
  private readonly last = new Uint8Array(BLOCK);

  constructor(
    private readonly c: Argon2Call,
    private readonly memory: Argon2Memory,
  ) {}

  get finished(): boolean {
    return this.lane === this.c.p;
  }

  step(work: number): number {
    const lanes = Math.min(this.c.p - this.lane, Math.max(1, Math.round(work)));
    const q = this.c.laneLength;
    for (const end = this.lane + lanes; this.lane < end; this.lane++) this.memory.xorBlock(this.lane * q + q - 1, this.last);
    return lanes;
  }

  /** The tag, once every lane is in; C is wiped. */
  tag(): Bytes {
    try {
      return tag(this.c, this.last);
    } finally {
      this.forget();
    }
  }

  /** Wipes C (every way the call ends). */
  forget(): void {
    zeroize(this.last);
  }
}

/** Where a fill stands: the segment (pass, slice, lane) and the next block of it. */
export class Fill implements Steps {
  pass = 0;
  slice = 0;
  lane = 0;
  /** The next block's index in its segment. */
  index = 2;
  /** Blocks computed so far. */
  private done = 0;

  constructor(
    private readonly c: Argon2Call,
    private readonly memory: Argon2Memory,
  ) {}

  get finished(): boolean {
    return this.pass === this.c.t;
  }

  /** Computes about `work` more blocks (at least one), in order; returns how many. */
  step(work: number): number {
    const c = this.c;
    const before = this.done;
    let blocks = Math.max(1, Math.round(work));
    while (blocks > 0 && !this.finished) {
      const n = Math.min(blocks, c.segmentLength - this.index);
      if (n > 0) this.memory.fill(this.pass, this.slice, this.lane, this.index, n);
      this.index += n;
      this.done += n;
      blocks -= n;
      if (this.index === c.segmentLength) this.nextSegment();
    }
    return this.done - before;
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
  private readonly total: number;
  private done = 0;

  constructor(
    private readonly c: Argon2Call,
    private reported = 0,
  ) {
    this.total = totalWork(c);
  }

  /** The last fraction told, 0 before any. */
  get told(): number {
    return this.reported;
  }

  /** Counts `work` more done (layout.ts totalWork's units). */
  add(work: number): void {
    this.done += work;
    const fraction = this.done / this.total;
    if (this.c.onProgress !== undefined && fraction < 1 && fraction - this.reported >= 0.001) {
      this.reported = fraction;
      this.c.onProgress(fraction);
    }
  }
}

/** Work of a first piece, before any was timed: well under a millisecond at either tier (a lane's first blocks, or 16 blocks). */
const FIRST_PIECE = 16;

/**
 * Runs `steps` to their end in pieces of about `ms` each at the speed the
 * last piece showed, awaiting `between(work)` after each piece: the event
 * loop's turn, progress and the signal are the caller's.
 */
export async function inPieces(steps: Steps, ms: number, between: (work: number) => Promise<void>): Promise<void> {
  let work = FIRST_PIECE;
  while (!steps.finished) {
    const t0 = now();
    const done = steps.step(work);
    const took = now() - t0;
    // The next piece lasts about ms at the speed just seen.
    work = took > 0 ? (done * ms) / took : 2 * done;
    await between(done);
  }
}
