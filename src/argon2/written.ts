/**
 * What an Argon2 call wrote of its memory, for the wipe at its end. Every
 * stage writes a lane column by column: its first two blocks, then its
 * segments slice after slice (§3.4); a later pass rewrites what the first
 * wrote. So all a call wrote of a lane lies in its columns [0, reached),
 * and a call stopped early wipes those, lane by lane, never the pages it
 * did not touch: a fresh page's first touch costs as much as filling it
 * (a second a GiB), and a wipe that touched every page of a call aborted
 * early held the event loop that long.
 */
import type { Shape } from './layout.js';

export class Written {
  /** Per lane, the columns written (or about to be: said before the writes, so a write that throws is wiped too). */
  private readonly columns: Int32Array;
  /** The wipe's place: the range it is in (-1, the head; else a lane) and the units of it wiped. */
  private range = -1;
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
  ) {
    this.columns = new Int32Array(s.p);
  }

  /** Columns [0, `columns`) of `lane` may be written from now on. */
  private reach(lane: number, columns: number): void {
    this.columns[lane] = Math.max(this.columns[lane]!, Math.min(columns, this.s.laneLength));
  }

  /** Block `index` (of the whole memory) may be written from now on. */
  reachBlock(index: number): void {
    this.reach(Math.floor(index / this.s.laneLength), (index % this.s.laneLength) + 1);
  }

  /** Segment (pass, slice)'s blocks before `end` may be written in `lanes` from now on: a later pass rewrites every column. */
  reachSegment(pass: number, slice: number, end: number, lanes: Iterable<number>): void {
    const columns = pass > 0 ? this.s.laneLength : slice * this.s.segmentLength + end;
    for (const lane of lanes) this.reach(lane, columns);
  }

  /** Wipes up to `most` more units with `wiper(from, count)`, range by range; true once all that was written is wiped. */
  wipe(most: number, wiper: (from: number, count: number) => void): boolean {
    let budget = most;
    while (this.range < this.s.p) {
      const lane = this.range;
      const [from, length] = lane < 0 ? [0, this.head] : [this.base + lane * this.s.laneLength * this.unit, this.columns[lane]! * this.unit];
      const count = Math.min(length - this.wiped, budget);
      if (count > 0) wiper(from + this.wiped, count);
      this.wiped += count;
      budget -= count;
      if (this.wiped < length) return false;
      this.range++;
      this.wiped = 0;
    }
    return true;
  }

  /** Everything a call may use is to be wiped again (a lost worker may have written after the first wipe). */
  again(): void {
    this.columns.fill(this.s.laneLength);
    this.range = -1;
    this.wiped = 0;
  }
}
