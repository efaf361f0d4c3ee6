/**
 * crypto_shorthash's SipHash-2-4 on the simd tier: its kernel's functions
 * (siphash-kernel.ts), the message through the kernel's buffer a slice at
 * a time, everything written there wiped before the call returns;
 * siphash.ts, in JavaScript, is the js tier and what runs until the
 * kernel is instantiated.
 */
import { defineKernel, type KernelExports } from '../runtime/kernel-registry.js';
import { tierSelector } from '../runtime/kernels.js';
import { SIP_BUFFER, SIP_KEY, SIP_SLICE } from './siphash-layout.js';
import { siphash24 as jsSiphash24 } from './siphash.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/siphash.js';

/** The SipHash kernel's exports. */
interface SipKernel extends KernelExports {
  /** The state from the key at SIP_KEY; `wide` 1 for the 128-bit output. */
  sipStart(wide: number): void;
  /** Absorbs the len / 8 words at ptr into the state. */
  sipAbsorb(ptr: number, len: number): void;
  /** The finalization: 8 bytes at SIP_KEY, or 16 when `wide` is 1. */
  sipEnd(wide: number): void;
  /** Zeroes memory [0, end). */
  wipe(end: number): void;
}

const sipKernel = defineKernel<SipKernel>('siphash');

/** SipHash-2-4 of `message` under the 16-byte `key` in the kernel: 8 bytes, or 16 for `wide`. */
function simdSiphash24(message: Uint8Array, key: Uint8Array, wide: boolean): Uint8Array {
  const { k, mem } = sipKernel();
  const n = message.length;
  const whole = n - (n % 8);
  const w = wide ? 1 : 0;
  try {
    mem.bytes.set(key, SIP_KEY);
    k.sipStart(w);
    // The whole words, and after them the last word: the remaining bytes, zeros, the length's low byte at the top.
    const tail = whole % SIP_SLICE;
    if (whole > tail) mem.through(SIP_BUFFER, SIP_SLICE, message.subarray(0, whole - tail), undefined, k.sipAbsorb);
    mem.bytes.set(message.subarray(whole - tail), SIP_BUFFER);
    mem.bytes.fill(0, SIP_BUFFER + n - (whole - tail), SIP_BUFFER + tail + 7);
    mem.bytes[SIP_BUFFER + tail + 7] = n & 0xff;
    k.sipAbsorb(SIP_BUFFER, tail + 8);
    k.sipEnd(w);
    return mem.bytes.slice(SIP_KEY, SIP_KEY + (wide ? 16 : 8));
  } finally {
    k.wipe(SIP_BUFFER + Math.min(SIP_SLICE, n) + 8);
  }
}

/** SipHash-2-4 of the tier calls on this thread run on: siphashOnTier()(message, key, wide). */
export const siphashOnTier = /*#__PURE__*/ tierSelector(sipKernel, jsSiphash24, simdSiphash24, hex);
