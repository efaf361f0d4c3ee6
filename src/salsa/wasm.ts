/** The Salsa20/Poly1305 kernel module: its exports as the runtime calls them. */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';

export interface SalsaKernel extends KernelExports {
  /** XOR keystream of the state at STATE into [ptr, ptr + len) and advance its block counter (words 8..9). */
  salsa_xor(ptr: number, len: number, doubleRounds: number): void;
  /** HSalsa20 of the state (key, 16-byte input in words 6..9) into BLOCK. */
  hsalsa(doubleRounds: number): void;
  /** XSalsa20: replace the key by the HSalsa20 subkey of NONCE24's first 16 bytes; words 6..9 become its last 8 and the counter. */
  hsalsa_rekey(counterLow: number, counterHigh: number): void;
  /** Poly1305 (poly1305/kernel.ts) with its state at POLY. */
  poly_init(): void;
  poly_blocks(ptr: number, len: number, hibit: number): void;
  poly_pad16(ptr: number, len: number): void;
  /** Secretbox: the Poly1305 key from keystream block 0; the message keystream starts at byte 32. */
  box_init(): void;
  /** Encrypt then authenticate one slice in place. */
  box_seal(ptr: number, len: number): void;
  /** Authenticate then decrypt one slice in place. */
  box_open(ptr: number, len: number): void;
  /** The Poly1305 tag of the ciphertext so far, written to `tag`. */
  box_finish(tag: number): void;
  /** Zeroes memory [0, end) and TAIL. */
  wipe(end: number): void;
}

export const salsaKernel = defineKernel<SalsaKernel>('salsa');
