/** The scrypt kernel module: its exports as the runtime calls them (kernel.ts says what each does). */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';

export interface ScryptKernel extends KernelExports {
  /**
   * ROMix's first loop (RFC 7914 §5 step 2), iterations from .. from + count - 1: slot i + 1 = BlockMix(slot i),
   * X in vectors (form 0) or in scalar words (form 1): the same bytes (kernel.ts).
   */
  fill(r: number, from: number, count: number, form: number): void;
  /** ROMix's second loop (§5 step 3), iterations from .. from + count - 1, X in slots N and N + 1, in `form`. */
  mix(r: number, n: number, from: number, count: number, form: number): void;
  /** The 64-byte blocks at `at` from standard word order into the kernel's lanes order, in place. */
  to_lanes(at: number, blocks: number): void;
  /** And back. */
  from_lanes(at: number, blocks: number): void;
  /** Zeroes memory [from, from + count). */
  wipe(from: number, count: number): void;
}

export const scryptKernel = defineKernel<ScryptKernel>('scrypt');
