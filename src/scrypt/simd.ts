/**
 * The 'simd' tier's scrypt engine: a lane's ROMix in the kernel's memory
 * (layout.ts), which grows to the lane's size for the run. Every byte the
 * run wrote is wiped when it ends, finished or abandoned, and the
 * instance is kept for the next run (runtime/kept-memory.ts): a grown
 * memory's first touch is a good part of a run at a large N.
 */
import type { RomixRun, ScryptEngine } from './engine.js';
import { laneBytes, resultSlot, slotBytes } from './layout.js';
import { scryptKernel, type ScryptKernel } from './wasm.js';
import { KeptMemory } from '../runtime/kept-memory.js';
import { VariantPicker, type VariantKernel } from '../runtime/variants.js';

/** How long a grown memory is kept, wiped, after its last run, for the next one. */
const RELEASE_MS = 2000;

/** The instances runs take their memory from (runtime/kept-memory.ts). */
const memories = new KeptMemory<ScryptKernel>(scryptKernel, 'scrypt', RELEASE_MS);

/**
 * The kernel's two forms of BlockMix (kernel.ts): X in four vectors or in
 * sixteen scalar words. A lane is one chain of dependent steps, so the
 * faster is the one whose steps the processor finishes sooner (on the
 * AMD EPYC VM, where a vector add takes two cycles, the scalar); the
 * picker times real runs and keeps it (runtime/variants.ts). Every
 * instance of the kernel (one per memory kept) runs the form chosen here.
 */
const FORMS = 2;
let form = 0;

/** The forms as the picker and the variant tests select them. */
export const scryptForms: VariantKernel = {
  variant_count: () => FORMS,
  select_variant: (index) => void (form = index),
};
export const scryptFormPicker = new VariantPicker(FORMS, scryptForms.select_variant);

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
    const k = memories.acquire(this.bytes);
    this.k = k;
    new Uint8Array(k.memory.buffer).set(block, 0);
    k.to_lanes(0, 2 * r);
  }

  step(count: number): void {
    // The bytes a step's BlockMixes go through, as the picker weighs a call.
    const bytes = Math.min(count, 2 * this.N - this.done) * slotBytes(this.r);
    if (scryptFormPicker.wants(bytes)) scryptFormPicker.run(bytes, () => this.iterate(count));
    else this.iterate(count);
  }

  private iterate(count: number): void {
    const k = this.k!;
    const { N, r } = this;
    if (this.done < N) {
      const n = Math.min(count, N - this.done);
      k.fill(r, this.done, n, form);
      this.done += n;
      count -= n;
    }
    if (count > 0 && this.done < 2 * N) {
      const n = Math.min(count, 2 * N - this.done);
      k.mix(r, N, this.done - N, n, form);
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
    memories.release(this.k);
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
export const spareMemory = (): Uint8Array | undefined => memories.spareMemory();
