/**
 * The ChaCha/Poly1305 kernel module, whose secretstream functions
 * (secretstream/kernel.ts) are linked into it: the same module instance as
 * the ChaCha family's, so a program using both compiles it once.
 */
import { chachaKernel, type ChachaKernel } from '../chachapoly/wasm.js';
import type { Kernel } from '../runtime/kernel-registry.js';

export interface SecretstreamKernel extends ChachaKernel {
  /**
   * secretstream's functions (secretstream/kernel.ts), linked into this
   * module. After aead_init (and the aad): MACs the tag block, keystream
   * block 1 with byte 0 = `byte0` XOR (encrypt ? keystream : 0), and
   * returns byte0 XOR keystream byte 0: the ciphertext byte when sealing,
   * the tag when opening. The message then starts at block counter 2.
   */
  stream_block(byte0: number, encrypt: number): number;
  /** Encrypt then MAC one slice of the message (a multiple of 64 bytes but the last). */
  stream_seal(ptr: number, len: number): void;
  /** MAC then decrypt one slice. */
  stream_open(ptr: number, len: number): void;
  /** libsodium's padding and length block (64 + message length), then the MAC, written to `tag`. */
  stream_finish(aadLength: number, macLength: number, tag: number): void;
}

/** The module's accessor, with its secretstream functions typed. */
export const secretstreamKernel = chachaKernel as () => Kernel<SecretstreamKernel>;
