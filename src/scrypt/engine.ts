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
  /** B' (128 * r bytes) into `out` once all 2N iterations are done; the memory stays held until wiped. */
  finish(out: Uint8Array): void;
  /**
   * Wipes up to `bytes` more of the run's memory, and lets go of it once
   * all is wiped: true then. A gigabyte takes a tenth of a second to
   * wipe, so an asynchronous caller wipes a piece per turn.
   */
  wipe(bytes: number): boolean;
  /** Wipes what is left and lets go of the run's memory, with or without a result; safe to call twice. */
  abandon(): void;
}
