/**
 * The ChaCha/Poly1305 kernel module (chacha/kernel.ts, with poly1305/kernel.ts
 * and secretstream's functions linked in: src/kernels.ts), shared by the
 * ChaCha, Poly1305 and secretstream families: its accessor, and its exports
 * as they call them (secretstream's own in secretstream/wasm.ts).
 */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';
import { variantPicker, type VariantKernel } from '../runtime/variants.js';

export interface ChachaKernel extends KernelExports, VariantKernel {
  /** XOR keystream of the state at STATE into [ptr, ptr + len) and advance its counter, with the selected variant. */
  chacha_xor(ptr: number, len: number, doubleRounds: number): void;
  /** The same with one particular variant (kernel.ts chachaVariants). */
  chacha_xor_swizzle(ptr: number, len: number, doubleRounds: number): void;
  chacha_xor_shuffle(ptr: number, len: number, doubleRounds: number): void;
  /** Which variant chacha_xor and the AEAD use, by index in kernel.ts chachaVariants. */
  select_variant(index: number): void;
  variant_count(): number;
  hchacha(doubleRounds: number): void;
  /** XChaCha20: replace the key by the HChaCha20 subkey of NONCE24's first 16 bytes; words 12..15 become the counter and its last 8. */
  hchacha_rekey(counterLow: number, counterHigh: number): void;
  poly_init(): void;
  poly_blocks(ptr: number, len: number, hibit: number): void;
  poly_pad16(ptr: number, len: number): void;
  poly_finish(): void;
  /** RFC 8439 §2.8's start: the Poly1305 key and the first keystream blocks (2 or 4) into TAIL; the counter then at 1. */
  aead_init(blocks: number): void;
  /** XOR keystream into [ptr, ptr + len) after aead_init: a short first slice from the blocks it left (bytes to the next 16 then scratch), else from the counter. */
  aead_crypt(ptr: number, len: number): void;
  aead_seal(ptr: number, len: number): void;
  aead_open(ptr: number, len: number): void;
  /** The length block and the tag (RFC 8439 §2.8), written to POLY + TAG and to `tag`. */
  aead_finish(aadLength: number, dataLength: number, tag: number): void;
  /** Zeroes memory [0, end) and TAIL. */
  wipe(end: number): void;
}

export const chachaKernel = defineKernel<ChachaKernel>('chacha');

/** The variant picker of the (single) ChaCha kernel instance. */
export const chachaVariantPicker = variantPicker<ChachaKernel>();
