/**
 * Rule 1 of the scheduling contract (docs/parallel.md, "Equal cuts near
 * the end"): a call's pieces, handed out from the front (to workers) and
 * from the back (to the calling thread). Where the two meet, a piece is
 * cut into equal parts before it goes, down to SMALLEST, so that neither
 * side waits long for the other at the end.
 */

/** A part of the input: `length` bytes from `start` (what the bytes are is the operation's business). */
export interface Piece {
  readonly start: number;
  readonly length: number;
}

/** `p` as consecutive parts of at most `bytes` each (not below the operation's smallest piece), or [p]. */
export type Split<P extends Piece> = (p: P, bytes: number) => P[];

/** The smallest piece cut near the meeting point: 64 KiB is ~40 µs of work against ~10 µs for a job's messages. */
export const SMALLEST = 64 * 1024;

export class Partition<P extends Piece> {
  private readonly list: P[];
  private front = 0;
  private back: number;
  /** Bytes not handed out yet. */
  left = 0;

  constructor(
    pieces: readonly P[],
    private readonly split: Split<P>,
  ) {
    this.list = pieces.slice();
    this.back = this.list.length;
    for (const p of pieces) this.left += p.length;
  }

  /** Whether every piece has been handed out. */
  get empty(): boolean {
    return this.front >= this.back;
  }

  /** The next piece for a worker: from the front, cut to at most a quarter of what is left, so that it leaves the rest to share. */
  fromFront(): P {
    this.cut(this.front, this.left / 4);
    return this.taken(this.list[this.front++]!);
  }

  /** The next piece for the calling thread: from the back, cut to at most `bytes`. */
  fromBack(bytes: number): P {
    this.cut(this.back - 1, bytes);
    return this.taken(this.list[--this.back]!);
  }

  /** Every piece as it was cut, in input order (for results that combine in order). */
  get pieces(): P[] {
    return this.list;
  }

  private taken(p: P): P {
    this.left -= p.length;
    return p;
  }

  /** Replaces list[i] by its parts of at most `bytes` (SMALLEST at least). */
  private cut(i: number, bytes: number): void {
    const parts = this.split(this.list[i]!, Math.max(SMALLEST, bytes));
    if (parts.length <= 1) return;
    this.list.splice(i, 1, ...parts);
    this.back += parts.length - 1;
  }
}
