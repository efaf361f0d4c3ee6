/**
 * What a tier ('simd' or 'js') provides for scrypt: scryptROMix (RFC 7914
 * §5) of one lane, run in steps so that a caller can report progress,
 * let other work in between and stop. The two PBKDF2 ends are the same on
 * both tiers (args.ts).
 */
export interface ScryptEngine {
  /**
   * A ROMix run of `block` (B_i, 128 * r bytes, read now: the caller may
   * reuse it) with cost N (a power of two from 2 to 2^31). The run holds
   * (N + 2) * 128 * r bytes until it is finished or abandoned; a size the
   * engine cannot allocate throws a RangeError.
   */
  romix(block: Uint8Array, N: number, r: number): RomixRun;
}

/** One lane's ROMix, in steps: 2N iterations, the N of the first loop then the N of the second. */
export interface RomixRun {
  /** Iterations done so far (at most 2N). */
  readonly done: number;
  /** Runs `count` more iterations (at most what is left). */
  step(count: number): void;
  /** B' (128 * r bytes) into `out` once all 2N iterations are done; the run's memory is wiped and let go. */
  finish(out: Uint8Array): void;
  /** Wipes and lets go of the run's memory without a result (the call stopped or failed); safe to call twice or after finish. */
  abandon(): void;
}
