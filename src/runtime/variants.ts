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
 *
 * Timings taken while other work loads the machine can still mislead (one
 * run in eight kept a variant 20% slower, for the life of the process).
 * So a choice is never final: leaving the variant in use takes a clear
 * margin, and the measurement is repeated after ever longer stretches of
 * untimed traffic, so a wrong choice is corrected later at a cost that
 * vanishes over a long process.
 */
import { now as clock } from './host.js';

/** Only calls at least this long are timed: long enough to dwarf the clock's overhead. */
const MIN_TIMED_BYTES = 8192;
/**
 * Data each variant processes in a round: enough for a coarse browser
 * clock (down to 0.1 ms) to average out. The first round warms up and
 * is not counted: its calls may run the engine's baseline code while the
 * optimized code is still being compiled (V8 swaps it in at a call's
 * start only, so Argon2's calls of several MiB ran twice as slowly for
 * the first 32 MiB), and a choice made from them could stand for good
 * where the variants' real costs are within MARGIN.
 */
const BYTES_PER_VARIANT = 16 << 20;
/** Another variant replaces the one in use only when its median cost is below this fraction of that one's. */
const MARGIN = 0.95;
/**
 * Measuring starts again after this many times a round's traffic has gone
 * by untimed (in calls of MIN_TIMED_BYTES or more), and the stretch grows
 * by RECHECK_GROWTH each round: the first re-check of two variants comes
 * after 512 MiB, so re-measuring a 20% slower variant costs under 1%, and
 * less each round.
 */
const RECHECK_AFTER = 16;
const RECHECK_GROWTH = 4;

export class VariantPicker {
  /** Per variant: nanoseconds per byte of each timed call in the open or last round. */
  private readonly samples: number[][];
  private readonly bytes: number[];
  private turn = 0;
  /** Whether calls are being timed (a round of measurement is open). */
  private measuring: boolean;
  /** Whether the open round is the first, which warms up and decides nothing. */
  private warming = true;
  /** Untimed bytes since the last choice, and how many start the next round. */
  private untimed = 0;
  private recheckAt = 0;
  /** The chosen variant, once decided (it stays in use while a later round measures). */
  chosen: number | undefined;
  /** Rounds of measurement completed. */
  rounds = 0;

  constructor(
    private readonly count: number,
    private readonly select: (index: number) => void,
    /** Milliseconds; replaceable so the choice can be tested without timing anything. */
    private readonly now: () => number = clock,
  ) {
    this.samples = Array.from({ length: count }, () => []);
    this.bytes = new Array<number>(count).fill(0);
    this.measuring = count > 1;
    if (count === 1) this.chosen = 0;
  }

  /**
   * Whether a call of `length` bytes should go through run() to be timed
   * (callers skip the closure otherwise). Counts the untimed traffic that
   * leads to the next round.
   */
  wants(length: number): boolean {
    if (length < MIN_TIMED_BYTES || this.count === 1) return false;
    if (this.measuring) return true;
    this.untimed += length;
    if (this.untimed < this.recheckAt) return false;
    // A new round, from fresh samples: conditions may have changed since the last.
    for (const list of this.samples) list.length = 0;
    this.bytes.fill(0);
    this.measuring = true;
    return true;
  }

  /**
   * Runs `call` (which processes `length` bytes with the variant selected
   * in the kernel), timing it and choosing the variant at the end of a
   * round of measurement.
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
    if (this.bytes.every((b) => b >= BYTES_PER_VARIANT)) this.endRound();
    else this.select(this.chosen ?? 0);
    return result;
  }

  /** Ends a round: the warm-up's samples are dropped and the first counted round begins; a later round decides. */
  private endRound(): void {
    if (!this.warming) {
      this.decide();
      return;
    }
    this.warming = false;
    for (const list of this.samples) list.length = 0;
    this.bytes.fill(0);
    this.select(this.chosen ?? 0);
  }

  /** The fastest variant, if it beats the one in use (the default 0 at first) by the margin. */
  private decide(): void {
    const costs = this.costs();
    const current = this.chosen ?? 0;
    let best = current;
    for (let i = 0; i < this.count; i++) if (costs[i] < costs[best]) best = i;
    this.chosen = costs[best] < MARGIN * costs[current] ? best : current;
    this.select(this.chosen);
    this.rounds++;
    this.measuring = false;
    this.untimed = 0;
    this.recheckAt = RECHECK_AFTER * BYTES_PER_VARIANT * this.count * RECHECK_GROWTH ** (this.rounds - 1);
  }

  /** Per variant: the median nanoseconds per byte of its timed calls in the open or last round (for tests and benchmarks). */
  costs(): number[] {
    return this.samples.map((list) => {
      if (list.length === 0) return NaN;
      const sorted = [...list].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    });
  }
}

/** What a kernel with variants exports to choose among them (wat.ts variantFunctions). */
export interface VariantKernel {
  variant_count(): number;
  select_variant(index: number): void;
}

/**
 * The accessor of a kernel's variant picker, made at its first use: each
 * family has one kernel instance, so one picker, which lives as long as
 * the process and keeps its choice.
 */
export function variantPicker<K extends VariantKernel>(): (k: K) => VariantPicker {
  let picker: VariantPicker | undefined;
  return (k) => (picker ??= new VariantPicker(k.variant_count(), (index) => k.select_variant(index)));
}
