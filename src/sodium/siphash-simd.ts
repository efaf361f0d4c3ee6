/**
 * crypto_shorthash's SipHash-2-4 on the simd tier: the BLAKE2b kernel's
 * SipHash functions (blake2/siphash-kernel.ts), the message through its
 * buffer a slice at a time, everything written there wiped before the
 * call returns; siphash.ts, in JavaScript, is the js tier and what runs
 * until the kernel is instantiated.
 */
import { BUFFER, SLICE } from '../blake2/layout.js';
import { SIP_KEY } from '../blake2/siphash-kernel.js';
import { blake2Kernel } from '../blake2/wasm.js';
import { tierSelector } from '../runtime/kernels.js';
import { siphash24 as jsSiphash24 } from './siphash.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/blake2.js';

/** SipHash-2-4 of `message` under the 16-byte `key` in the kernel: 8 bytes, or 16 for `wide`. */
function simdSiphash24(message: Uint8Array, key: Uint8Array, wide: boolean): Uint8Array {
  const { k, mem } = blake2Kernel();
  const n = message.length;
  const whole = n - (n % 8);
  const w = wide ? 1 : 0;
  try {
    mem.bytes.set(key, SIP_KEY);
    k.sipStart(w);
    // The whole words, and after them the last word: the remaining bytes, zeros, the length's low byte at the top.
    const tail = whole % SLICE;
    if (whole > tail) mem.through(BUFFER, SLICE, message.subarray(0, whole - tail), undefined, k.sipAbsorb);
    mem.bytes.set(message.subarray(whole - tail), BUFFER);
    mem.bytes.fill(0, BUFFER + n - (whole - tail), BUFFER + tail + 7);
    mem.bytes[BUFFER + tail + 7] = n & 0xff;
    k.sipAbsorb(BUFFER, tail + 8);
    k.sipEnd(w);
    return mem.bytes.slice(SIP_KEY, SIP_KEY + (wide ? 16 : 8));
  } finally {
    k.wipe(BUFFER + Math.min(SLICE, n) + 8);
  }
}

/** SipHash-2-4 on the tier calls on this thread run on. */
export const siphash24 = /*#__PURE__*/ tierSelector(blake2Kernel, jsSiphash24, simdSiphash24, hex);
