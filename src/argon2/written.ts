/**
 * What an Argon2 call wrote of its memory, for the wipe at its end. Every
 * stage writes the lanes column by column: each lane's first two blocks,
 * then the slices in order, all lanes' segments of a slice before the
 * next slice (§3.4's synchronisation points); a later pass rewrites what
 * the first wrote. So all a call wrote lies in columns [0, reached) of
 * every lane, and a call stopped early wipes those, lane by lane, never
 * the pages it did not touch: a fresh page's first touch costs as much as
 * filling it (a second a GiB), and a wipe that touched every page of a
 * call aborted early held the event loop that long.
 */
import type { Shape } from './layout.js';

export class Written {
  /** Columns written in every lane (or about to be: said before the writes, so a write that throws is wiped too). */
  private columns = 0;
  /** Units of the written ranges wiped so far, taken in order: the head, then each lane's columns. */
  private wiped = 0;

  /**
   * `unit`: a block in the wiper's units (bytes, or an Int32Array's
   * words); `base`: where block 0 is; `head`: units before it wiped with
   * the blocks (a kernel's scratch page), from 0.
   */
  constructor(
    private readonly s: Shape,
    private readonly unit: number,
    private readonly base: number,
    private readonly head: number,
  ) {}

  /** Columns [0, `columns`) of every lane may be written from now on. */
  reach(columns: number): void {
    this.columns = Math.max(this.columns, Math.min(columns, this.s.laneLength));
  }

  /** Block `index` (of the whole memory) may be written from now on. */
  reachBlock(index: number): void {
    this.reach((index % this.s.laneLength) + 1);
  }

  /** Segment (pass, slice)'s blocks up to `end` (exclusive) may be written in every lane: a later pass rewrites every column. */
  reachSegment(pass: number, slice: number, end: number): void {
    this.reach(pass > 0 ? this.s.laneLength : slice * this.s.segmentLength + end);
  }

  /** Units to wipe in all, once nothing more is written. */
  private get total(): number {
    return this.head + this.s.p * this.columns * this.unit;
  }

  /** Wipes up to `most` more units with `wiper(from, count)`, range by range; true once all that was written is wiped. */
  wipe(most: number, wiper: (from: number, count: number) => void): boolean {
    const laneUnits = this.columns * this.unit;
    const stride = this.s.laneLength * this.unit;
    let budget = most;
    while (budget > 0 && this.wiped < this.total) {
      let from: number;
      let left: number;
      if (this.wiped < this.head) [from, left] = [this.wiped, this.head - this.wiped];
      else if (laneUnits === stride) [from, left] = [this.wiped - this.head + this.base, this.total - this.wiped];
      else {
        const at = this.wiped - this.head;
        const lane = Math.floor(at / laneUnits);
        [from, left] = [this.base + lane * stride + (at % laneUnits), laneUnits - (at % laneUnits)];
      }
      const count = Math.min(left, budget);
      wiper(from, count);
      this.wiped += count;
      budget -= count;
    }
    return this.wiped === this.total;
  }

  /** Everything a call may use is to be wiped again (a lost worker may have written after the first wipe). */
  again(): void {
    this.columns = this.s.laneLength;
    this.wiped = 0;
  }
}
