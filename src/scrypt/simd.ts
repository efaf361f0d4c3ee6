/**
 * The 'simd' tier's scrypt engine: a lane's ROMix in the kernel's memory
 * (layout.ts), which grows to the lane's size for the run. Every byte the
 * run wrote is wiped when it ends, finished or abandoned.
 *
 * Growing a memory costs the engine its pages' first touch (the operating
 * system zeroes each page as it is first written), which for a large N is
 * a good part of a run. So an instance whose memory has grown is kept,
 * wiped, for the next run, and let go RELEASE_MS after the last one ended:
 * repeated calls reuse it, and a program that derived its key gives the
 * memory back to the engine soon after.
 */
import type { RomixRun, ScryptEngine } from './engine.js';
import { laneBytes, resultSlot, slotBytes } from './layout.js';
import { scryptKernel, type ScryptKernel } from './wasm.js';
import { backgroundTimer } from '../runtime/host.js';
import { newInstance } from '../runtime/kernel-registry.js';

/** How long a grown memory is kept, wiped, after its last run, for the next one. */
const RELEASE_MS = 2000;

/** WebAssembly pages: what memory.grow counts in. */
const PAGE = 65536;

/** A 32-bit memory addresses at most this. */
const MAX_BYTES = 2 ** 32;

/** An instance whose grown memory waits, wiped, for the next run, and the timer that lets it go. */
let spare: ScryptKernel | undefined;
let releaseTimer: ReturnType<typeof setTimeout> | undefined;

/** An instance with at least `bytes` of memory: the spare one if there is one (grown if need be), else a new one. */
function acquire(bytes: number): ScryptKernel {
  if (bytes > MAX_BYTES) throw new RangeError(`scrypt: ${bytes} bytes of memory are more than WebAssembly's 4 GiB`);
  const k = spare ?? newInstance(scryptKernel);
  spare = undefined;
  const have = k.memory.buffer.byteLength;
  if (have < bytes) {
    try {
      k.memory.grow(Math.ceil((bytes - have) / PAGE));
    } catch (cause) {
      throw new RangeError(`scrypt: ${bytes} bytes of memory cannot be had here`, { cause });
    }
  }
  return k;
}

/** `k`, wiped, kept as the spare if it is the largest memory at hand, until RELEASE_MS pass without a run. */
function release(k: ScryptKernel): void {
  if (spare === undefined || spare.memory.buffer.byteLength < k.memory.buffer.byteLength) spare = k;
  if (releaseTimer !== undefined) clearTimeout(releaseTimer);
  releaseTimer = backgroundTimer(() => {
    spare = undefined;
    releaseTimer = undefined;
  }, RELEASE_MS);
}

class SimdRun implements RomixRun {
  done = 0;
  private k: ScryptKernel | undefined;
  private readonly bytes: number;
  /** Memory from here to `bytes` is still to be wiped. */
  private wiped = 0;

  constructor(
    block: Uint8Array,
    private readonly N: number,
    private readonly r: number,
  ) {
    this.bytes = laneBytes(N, r);
    const k = acquire(this.bytes);
    this.k = k;
    new Uint8Array(k.memory.buffer).set(block, 0);
    k.to_lanes(0, 2 * r);
  }

  step(count: number): void {
    const k = this.k!;
    const { N, r } = this;
    if (this.done < N) {
      const n = Math.min(count, N - this.done);
      k.fill(r, this.done, n);
      this.done += n;
      count -= n;
    }
    if (count > 0 && this.done < 2 * N) {
      const n = Math.min(count, 2 * N - this.done);
      k.mix(r, N, this.done - N, n);
      this.done += n;
    }
  }

  finish(out: Uint8Array): void {
    const k = this.k!;
    const at = resultSlot(this.N) * slotBytes(this.r);
    k.from_lanes(at, 2 * this.r);
    out.set(new Uint8Array(k.memory.buffer, at, slotBytes(this.r)));
  }

  wipe(bytes: number): boolean {
    if (this.k === undefined) return true;
    // At most 1 GiB per kernel call: the count is an i32, and 4 GiB would wrap to 0.
    const count = Math.min(bytes, this.bytes - this.wiped, 2 ** 30);
    this.k.wipe(this.wiped, count);
    this.wiped += count;
    if (this.wiped < this.bytes) return false;
    release(this.k);
    this.k = undefined;
    return true;
  }

  abandon(): void {
    while (!this.wipe(Number.POSITIVE_INFINITY));
  }
}

export const simdScrypt: ScryptEngine = {
  romix: (block, N, r) => new SimdRun(block, N, r),
};

/** Test-only: the memory kept for the next run, if any, to check that it is wiped. */
export const spareMemory = (): Uint8Array | undefined => (spare === undefined ? undefined : new Uint8Array(spare.memory.buffer));
