/**
 * Instances of a kernel whose memory grows with the call (scrypt's lanes,
 * Argon2's blocks): one with at least the bytes a call needs, and back,
 * wiped, at its end. Growing a memory costs the engine its pages' first
 * touch (the operating system zeroes each page as it is first written), a
 * good part of a call at tens of MiB, so the largest instance handed back
 * is kept for the next call and let go `releaseMs` after the last one
 * ended: repeated calls reuse it, and a program that is done gives the
 * memory back to the engine soon after.
 */
import { backgroundTimer } from './host.js';
import { type Kernel, type KernelExports, newInstance } from './kernel-registry.js';

/** WebAssembly pages: what memory.grow counts in. */
const PAGE = 65536;

/** A 32-bit memory addresses at most this. */
const MAX_BYTES = 2 ** 32;

export class KeptMemory<K extends KernelExports> {
  /** An instance whose grown memory waits, wiped, for the next call, and the timer that lets it go. */
  private spare: K | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly kernel: () => Kernel<K>,
    /** The family, for errors: 'scrypt', 'argon2'. */
    private readonly family: string,
    private readonly releaseMs: number,
  ) {}

  /** An instance with at least `bytes` of memory: the spare one if there is one (grown if need be), else a new one. */
  acquire(bytes: number): K {
    if (bytes > MAX_BYTES) throw new RangeError(`${this.family}: ${bytes} bytes of memory are more than WebAssembly's 4 GiB`);
    const k = this.spare ?? newInstance(this.kernel);
    this.spare = undefined;
    const have = k.memory.buffer.byteLength;
    if (have < bytes) {
      try {
        k.memory.grow(Math.ceil((bytes - have) / PAGE));
      } catch (cause) {
        throw new RangeError(`${this.family}: ${bytes} bytes of memory cannot be had here`, { cause });
      }
    }
    return k;
  }

  /** `k`, wiped by its caller, kept as the spare if it is the largest memory at hand, until releaseMs pass without a call. */
  release(k: K): void {
    if (this.spare === undefined || this.spare.memory.buffer.byteLength < k.memory.buffer.byteLength) this.spare = k;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = backgroundTimer(() => {
      this.spare = undefined;
      this.timer = undefined;
    }, this.releaseMs);
  }

  /** Test-only: the memory kept for the next call, if any, to check that it is wiped. */
  spareMemory(): Uint8Array | undefined {
    return this.spare === undefined ? undefined : new Uint8Array(this.spare.memory.buffer);
  }
}
