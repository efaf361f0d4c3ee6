/**
 * The 'simd' tier's Argon2 engine: the blocks in the kernel's memory
 * (kernel.ts LAYOUT), which grows to the call's size. Every byte the call
 * wrote is wiped when it ends, finished or abandoned.
 *
 * Growing a memory costs the engine its pages' first touch (the operating
 * system zeroes each page as it is first written), a good part of a call
 * at 64 MiB. So an instance whose memory has grown is kept, wiped, for the
 * next call, and let go RELEASE_MS after the last one ended: a server
 * that hashes passwords reuses it, and a program that derived its key
 * gives the memory back to the engine soon after.
 */
import type { Argon2Engine, Argon2Memory } from './engine.js';
import type { Attach, SharedFiller } from './jobs.js';
import { usesAddresses } from './indexing.js';
import { type Argon2Type, BLOCK, LAYOUT, type Shape, TYPES } from './layout.js';
import { argon2Kernel, type Argon2Kernel, argon2Variant, variantPickerOf } from './wasm.js';
import type { VariantPicker } from '../runtime/variants.js';
import { backgroundTimer } from '../runtime/host.js';
import { newInstance } from '../runtime/kernel-registry.js';

/**
 * How long a grown memory is kept, wiped, after its last call, for the
 * next one: fresh pages cost 40-60 ms a call at 64 MiB in Node 20 (more in
 * a browser's renderer), where libsodium and hash-wasm keep their memory
 * for good. Ten seconds covers a server's steady logins and a page's
 * retries, and still gives a one-off derivation's memory back.
 */
const RELEASE_MS = 10_000;

/** WebAssembly pages: what memory.grow counts in. */
const PAGE = 65536;

/** A 32-bit memory addresses at most this. */
const MAX_BYTES = 2 ** 32;

/** An instance whose grown memory waits, wiped, for the next call, and the timer that lets it go. */
let spare: Argon2Kernel | undefined;
let releaseTimer: ReturnType<typeof setTimeout> | undefined;

/** An instance with at least `bytes` of memory: the spare one if there is one (grown if need be), else a new one. */
function acquire(bytes: number): Argon2Kernel {
  if (bytes > MAX_BYTES) throw new RangeError(`argon2: ${bytes} bytes of memory are more than WebAssembly's 4 GiB`);
  const k = spare ?? newInstance(argon2Kernel);
  spare = undefined;
  const have = k.memory.buffer.byteLength;
  if (have < bytes) {
    try {
      k.memory.grow(Math.ceil((bytes - have) / PAGE));
    } catch (cause) {
      throw new RangeError(`argon2: ${bytes} bytes of memory cannot be had here`, { cause });
    }
  }
  return k;
}

/** `k`, wiped, kept as the spare if it is the largest memory at hand, until RELEASE_MS pass without a call. */
function release(k: Argon2Kernel): void {
  if (spare === undefined || spare.memory.buffer.byteLength < k.memory.buffer.byteLength) spare = k;
  if (releaseTimer !== undefined) clearTimeout(releaseTimer);
  releaseTimer = backgroundTimer(() => {
    spare = undefined;
    releaseTimer = undefined;
  }, RELEASE_MS);
}

/** The fill functions' arguments after the segment's position (kernel.ts PARAMS), less fold and the scratch's and blocks' addresses. */
function shapeArgs(s: Shape, type: Argon2Type): [number, number, number, number, number, number, bigint] {
  return [s.p, s.laneLength, s.segmentLength, s.blocks, s.t, TYPES[type], BigInt(Math.floor(2 ** 32 / s.p))];
}

/**
 * Fills segments of the blocks in `k`'s memory, with the scratch at
 * `scratch`: in the variant the calling thread's picker chooses, timing
 * its calls, or in the one a worker is told (`variant`).
 */
class Filler {
  private readonly args: [number, number, number, number, number, number, bigint];
  private readonly picker: VariantPicker | undefined;

  constructor(
    protected readonly k: Argon2Kernel,
    private readonly s: Shape,
    private readonly type: Argon2Type,
    private readonly scratch: number,
    private readonly variant?: number,
  ) {
    this.args = shapeArgs(s, type);
    this.picker = variant === undefined ? variantPickerOf(k) : undefined;
  }

  fill(pass: number, slice: number, lane: number, from: number, count: number): void {
    const k = this.k;
    const fold = pass > 0 && this.s.version === 0x13 ? 1 : 0;
    const f = usesAddresses(this.type, pass, slice) ? k.fill_independent : k.fill_dependent;
    const run = () => f(pass, slice, lane, from, count, ...this.args, fold, this.scratch, LAYOUT.BASE, this.variant ?? argon2Variant.index);
    if (this.picker?.wants(count * BLOCK)) this.picker.run(count * BLOCK, run);
    else run();
  }

  /** Zeroes this filler's scratch (R, T and the rest of what G left). */
  wipeScratch(): void {
    this.k.wipe(this.scratch, LAYOUT.SCRATCH);
  }
}

class SimdMemory implements Argon2Memory {
  private k: Argon2Kernel | undefined;
  private readonly filler: Filler;
  private readonly bytes: number;
  /** Memory from here to `bytes` is still to be wiped. */
  private wiped = 0;

  constructor(s: Shape, type: Argon2Type) {
    this.bytes = LAYOUT.BASE + s.blocks * BLOCK;
    this.k = acquire(this.bytes);
    this.filler = new Filler(this.k, s, type, 0);
  }

  setBlock(index: number, block: Uint8Array): void {
    new Uint8Array(this.k!.memory.buffer).set(block, LAYOUT.BASE + index * BLOCK);
  }

  xorBlock(index: number, into: Uint8Array): void {
    const m = new Uint8Array(this.k!.memory.buffer, LAYOUT.BASE + index * BLOCK, BLOCK);
    for (let i = 0; i < BLOCK; i++) into[i] ^= m[i];
  }

  fill(pass: number, slice: number, lane: number, from: number, count: number): void {
    this.filler.fill(pass, slice, lane, from, count);
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

/** The shared module, compiled at the first attach that sends its bytes and kept: they are the same for every call. */
let compiled: WebAssembly.Module | undefined;

/**
 * A filler of the blocks in a memory shared with other threads
 * (fourfold/parallel): an instance of the shared module on that memory,
 * with scratch number `slot` of the first page. The memory and its blocks
 * are the caller's, who wipes them; this wipes its scratch.
 */
export function simdAttach(p: Attach): SharedFiller {
  const module = p.module instanceof WebAssembly.Module ? p.module : (compiled ??= new WebAssembly.Module(p.module as Uint8Array<ArrayBuffer>));
  const k = new WebAssembly.Instance(module, { env: { memory: p.memory } }).exports as unknown as Argon2Kernel;
  return new Filler(k, p.shape, p.type, p.slot * LAYOUT.SCRATCH, p.variant);
}

export const simdArgon2: Argon2Engine = {
  open: (shape, type) => new SimdMemory(shape, type),
};

/** Test-only: the memory kept for the next call, if any, to check that it is wiped. */
export const spareMemory = (): Uint8Array | undefined => (spare === undefined ? undefined : new Uint8Array(spare.memory.buffer));
