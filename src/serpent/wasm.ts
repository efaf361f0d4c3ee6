/** The Serpent kernel module: its exports as the runtime calls them. */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';

export interface SerpentKernel extends KernelExports {
  /** The key schedule: the padded key at KEY becomes the round keys at SUBKEYS. */
  schedule(): void;
  /** Whole blocks at [ptr, ptr + len), in place; a chaining mode reads and advances CHAIN. */
  ecb_encrypt(ptr: number, len: number): void;
  ecb_decrypt(ptr: number, len: number): void;
  cbc_encrypt(ptr: number, len: number): void;
  cbc_decrypt(ptr: number, len: number): void;
  /** Any length: XORs the keystream of the counter at CHAIN (a 128-bit little-endian integer) and advances it. */
  ctr_xor(ptr: number, len: number): void;
  /** Zeroes memory [0, end) and TAIL. */
  wipe(end: number): void;
}

export const serpentKernel = defineKernel<SerpentKernel>('serpent');
