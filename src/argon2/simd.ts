/**
 * The 'simd' tier's Argon2 engine: the blocks in the kernel's memory
 * (kernel.ts LAYOUT), which grows to the call's size. Every byte the call
 * wrote is wiped when it ends, finished or abandoned, and the instance
 * is kept for the next call (runtime/kept-memory.ts): a grown memory's
 * first touch is a good part of a call at 64 MiB.
 */
import type { Argon2Engine, Argon2Memory } from './engine.js';
import type { Attach, SharedFiller } from './jobs.js';
import { usesAddresses } from './indexing.js';
import { type Argon2Type, BLOCK, LAYOUT, type Shape, TYPES } from './layout.js';
import { argon2Kernel, type Argon2Kernel, argon2Variant, variantPickerOf } from './wasm.js';
import type { VariantPicker } from '../runtime/variants.js';
import { KeptMemory } from '../runtime/kept-memory.js';
import { Written } from './written.js';

/**
 * How long a grown memory is kept, wiped, after its last call, for the
 * next one: fresh pages cost 40-60 ms a call at 64 MiB in Node 20 (more in
 * a browser's renderer), where libsodium and hash-wasm keep their memory
 * for good. Ten seconds covers a server's steady logins and a page's
 * retries, and still gives a one-off derivation's memory back.
 */
const RELEASE_MS = 10_000;

/** The instances calls take their memory from (runtime/kept-memory.ts). */
const memories = new KeptMemory<Argon2Kernel>(argon2Kernel, 'argon2', RELEASE_MS);

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
}

class SimdMemory implements Argon2Memory {
  private k: Argon2Kernel | undefined;
  private readonly filler: Filler;
  /** What the call wrote, to be wiped: the scratch page and the columns reached (written.ts). */
  private readonly written: Written;

  constructor(s: Shape, type: Argon2Type) {
    this.k = memories.acquire(LAYOUT.BASE + s.blocks * BLOCK);
    this.filler = new Filler(this.k, s, type, 0);
    this.written = new Written(s, BLOCK, LAYOUT.BASE, LAYOUT.BASE);
  }

  setBlock(index: number, block: Uint8Array): void {
    this.written.reachBlock(index);
    new Uint8Array(this.k!.memory.buffer).set(block, LAYOUT.BASE + index * BLOCK);
  }

  xorBlock(index: number, into: Uint8Array): void {
    const m = new Uint8Array(this.k!.memory.buffer, LAYOUT.BASE + index * BLOCK, BLOCK);
    for (let i = 0; i < BLOCK; i++) into[i] ^= m[i];
  }

  fill(pass: number, slice: number, lane: number, from: number, count: number): void {
    this.written.reachSegment(pass, slice, from + count, [lane]);
    this.filler.fill(pass, slice, lane, from, count);
  }

  wipe(bytes: number): boolean {
    const k = this.k;
    if (k === undefined) return true;
    // The kernel's count is an i32: 4 GiB would wrap to 0.
    const done = this.written.wipe(bytes, (from, count) => {
      for (let at = 0; at < count; at += 2 ** 30) k.wipe(from + at, Math.min(2 ** 30, count - at));
    });
    if (!done) return false;
    memories.release(k);
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
 * with scratch number `slot` of the first page. The memory, scratches
 * included, is the caller's, who wipes it whole once the call's last
 * segment is done; so wipeScratch leaves it alone: by the time a worker
 * detaches (after the jobs queued before), the memory may be lent to
 * another call, on another worker, using the same scratch.
 */
export function simdAttach(p: Attach): SharedFiller {
  const module = p.module instanceof WebAssembly.Module ? p.module : (compiled ??= new WebAssembly.Module(p.module as Uint8Array<ArrayBuffer>));
  const k = new WebAssembly.Instance(module, { env: { memory: p.memory } }).exports as unknown as Argon2Kernel;
  const filler = new Filler(k, p.shape, p.type, p.slot * LAYOUT.SCRATCH, p.variant);
  return { fill: (pass, slice, lane, from, count) => filler.fill(pass, slice, lane, from, count), wipeScratch: () => {} };
}

export const simdArgon2: Argon2Engine = {
  open: (shape, type) => new SimdMemory(shape, type),
};

/** Test-only: the memory kept for the next call, if any, to check that it is wiped. */
export const spareMemory = (): Uint8Array | undefined => memories.spareMemory();
