/** The BLAKE2b kernel module: its exports as the runtime calls them. */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';

export interface Blake2Kernel extends KernelExports {
  /**
   * Compresses the blocks at ptr into h (H) and t (T): len / 128 whole
   * blocks, none the last, or with `final` 1 the input's last
   * ceil(len / 128) blocks (at least one), zero-padded in place.
   */
  compress(ptr: number, len: number, final: number): void;
  /** Zeroes memory [0, end). */
  wipe(end: number): void;
}

export const blake2Kernel = defineKernel<Blake2Kernel>('blake2');
