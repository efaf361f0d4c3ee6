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
  /** SipHash-2-4's state from the key at SIP_KEY (siphash-kernel.ts); `wide` 1 for the 128-bit output. */
  sipStart(wide: number): void;
  /** Absorbs the len / 8 words at ptr into the state. */
  sipAbsorb(ptr: number, len: number): void;
  /** The finalization: 8 bytes at SIP_KEY, or 16 when `wide` is 1. */
  sipEnd(wide: number): void;
}

export const blake2Kernel = defineKernel<Blake2Kernel>('blake2');
