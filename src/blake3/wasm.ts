/** The BLAKE3 kernel module: its exports as the runtime calls them. */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';
import { variantPicker, type VariantKernel } from '../runtime/variants.js';

export interface Blake3Kernel extends KernelExports, VariantKernel {
  /** Absorbs len / 1024 whole chunks at ptr into the tree state (COUNTER, STACK). */
  update(ptr: number, len: number): void;
  /** Pushes the 32-byte subtree CV at ptr, of the subtree starting at COUNTER (which it does not advance). */
  push_cv(ptr: number): void;
  /** The last chunk (len bytes at ptr) and the stack make the root node at ROOT. */
  finish(ptr: number, len: number): void;
  /** Merges the stack into one (non-root) CV at STACK. */
  fold(): void;
  /** Root output blocks OUTPUT, OUTPUT + 1, ... to ptr; advances OUTPUT. */
  output(ptr: number, blocks: number): void;
  /** A whole input at ptr from a fresh state (keyed with the IV when `iv` is 1), then its first `blocks` output blocks written at ptr. */
  hash(ptr: number, len: number, blocks: number, iv: number): void;
  /** Zeroes [0, end), and the CV scratch and stack when `tree` is 1. */
  wipe(end: number, tree: number): void;
  /** Which variant the wide functions use, by index in kernel.ts blake3Variants. */
  select_variant(index: number): void;
  variant_count(): number;
}

export const blake3Kernel = defineKernel<Blake3Kernel>('blake3');

/** The variant picker of the (single) BLAKE3 kernel instance. */
export const blake3VariantPicker = variantPicker<Blake3Kernel>();
