/** The Argon2 kernel module: its exports as the runtime calls them (kernel.ts says what each does). */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';
import { VariantPicker } from '../runtime/variants.js';

/** The parameters of both fill functions, after the segment's position and blocks (kernel.ts PARAMS). */
type FillArgs = [
  lanes: number,
  laneLength: number,
  segmentLength: number,
  blocks: number,
  passes: number,
  type: number,
  reciprocal: bigint,
  fold: number,
  scratch: number,
  base: number,
  variant: number,
];

export interface Argon2Kernel extends KernelExports {
  /** Blocks from .. from + count - 1 of segment (pass, slice, lane), J1 and J2 from blocks of addresses (§3.4.1.2). */
  fill_independent(pass: number, slice: number, lane: number, from: number, count: number, ...rest: FillArgs): void;
  /** The same, J1 and J2 from the previous block (§3.4.1.1). */
  fill_dependent(pass: number, slice: number, lane: number, from: number, count: number, ...rest: FillArgs): void;
  /** Zeroes memory [from, from + count). */
  wipe(from: number, count: number): void;
  /** How many variants the fill functions have (kernel.ts argon2Variants); a fill's last argument picks one. */
  variant_count(): number;
}

export const argon2Kernel = defineKernel<Argon2Kernel>('argon2');

/**
 * The fill functions' variant for calls on this thread, and the picker
 * that times real calls to choose it (runtime/variants.ts). One for every
 * instance, shared memory's too: each passes the index it is given.
 */
export const argon2Variant = { index: 0, picker: undefined as VariantPicker | undefined };

/** The picker, made with the first instance's variant count. */
export function variantPickerOf(k: Argon2Kernel): VariantPicker {
  argon2Variant.picker ??= new VariantPicker(k.variant_count(), (index) => {
    argon2Variant.index = index;
  });
  return argon2Variant.picker;
}
