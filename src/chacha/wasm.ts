/** The ChaCha/Poly1305 kernel module: its exports as the runtime calls them. */
import { base64 } from '../generated/chacha.js';
import { defineKernel, type KernelExports } from '../runtime/kernels.js';
import { VariantPicker } from '../runtime/variants.js';

export interface ChachaKernel extends KernelExports {
  /** XOR keystream of the state at STATE into [ptr, ptr + len) and advance its counter, with the selected variant. */
  chacha_xor(ptr: number, len: number, doubleRounds: number): void;
  /** The same with one particular variant (kernel.ts chachaVariants). */
  chacha_xor_swizzle(ptr: number, len: number, doubleRounds: number): void;
  chacha_xor_shuffle(ptr: number, len: number, doubleRounds: number): void;
  /** Which variant chacha_xor and the AEAD use, by index in chachaVariants. */
  select_variant(index: number): void;
  variant_count(): number;
  hchacha(doubleRounds: number): void;
  /** XChaCha20: replace the key by its HChaCha20 subkey and words 12..15 by BLOCK + 48..64. */
  hchacha_rekey(): void;
  poly_init(): void;
  poly_blocks(ptr: number, len: number, hibit: number): void;
  poly_pad16(ptr: number, len: number): void;
  poly_finish(): void;
  aead_init(): void;
  aead_seal(ptr: number, len: number): void;
  aead_open(ptr: number, len: number): void;
  /** The length block and the tag (RFC 8439 §2.8), written to POLY + TAG and to `tag`. */
  aead_finish(aadLength: number, dataLength: number, tag: number): void;
  /** Zeroes memory [0, end) and TAIL. */
  wipe(end: number): void;
}

export const chachaKernel = defineKernel<ChachaKernel>('chacha', base64);

let picker: VariantPicker | undefined;

/** The variant picker of the (single) ChaCha kernel instance. */
export function chachaVariants(k: ChachaKernel): VariantPicker {
  return (picker ??= new VariantPicker(k.variant_count(), (index) => k.select_variant(index)));
}
