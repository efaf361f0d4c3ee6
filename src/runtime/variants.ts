/**
 * Choosing among equivalent kernel variants by timing real calls. Engines
 * disagree on which WebAssembly formulation is fastest (ChaCha's rotations:
 * chacha/kernel.ts), so rather than guess from a user agent or delay
 * ready() with a calibration run, large calls alternate between the
 * variants until each has processed enough data, and the fastest by its
 * median time per byte is kept: a mean let one garbage-collection pause
 * decide (in Node 20, one run in six of 64 KiB chacha20 calls kept the
 * slower ChaCha variant). All variants give the same bytes; only speed
 * differs.
 */

/** Only calls at least this long are timed: long enough to dwarf the clock's overhead. */
const MIN_TIMED_BYTES = 8192;
/**
 * Data each variant must process before the choice: enough to pass the
 * engine's tiering from baseline to optimized code, and for a coarse
 * browser clock (down to 0.1 ms) to average out.
 */
const BYTES_PER_VARIANT = 16 << 20;

export class VariantPicker {
  /** Per variant: nanoseconds per byte of each timed call. */
  private readonly samples: number[][];
  private readonly bytes: number[];
  private turn = 0;
  /** The chosen variant, once decided. */
  chosen: number | undefined;

  constructor(
    private readonly count: number,
    private readonly select: (index: number) => void,
    /** Milliseconds; replaceable so the choice can be tested without timing anything. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.samples = Array.from({ length: count }, () => []);
    this.bytes = new Array<number>(count).fill(0);
    if (count === 1) this.chosen = 0;
  }

  /** Whether a call of `length` bytes should go through run() to be timed (callers skip the closure otherwise). */
  wants(length: number): boolean {
    return this.chosen === undefined && length >= MIN_TIMED_BYTES;
  }

  /**
   * Runs `call` (which processes `length` bytes with the variant selected
   * in the kernel), timing it and choosing the variant first while the
   * choice is still open.
   */
  run<T>(length: number, call: () => T): T {
    if (!this.wants(length)) return call();
    const index = this.turn;
    this.turn = (index + 1) % this.count;
    this.select(index);
    const start = this.now();
    const result = call();
    this.samples[index].push(((this.now() - start) * 1e6) / length);
    this.bytes[index] += length;
    if (this.bytes.every((b) => b >= BYTES_PER_VARIANT)) this.decide();
    else this.select(0);
    return result;
  }

  private decide(): void {
    const costs = this.costs();
    let best = 0;
    for (let i = 1; i < this.count; i++) if (costs[i] < costs[best]) best = i;
    this.chosen = best;
    this.select(best);
  }

  /** Per variant: the median nanoseconds per byte of its timed calls so far (for tests and benchmarks). */
  costs(): number[] {
    return this.samples.map((list) => {
      if (list.length === 0) return NaN;
      const sorted = [...list].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    });
  }
}
