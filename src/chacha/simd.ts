/**
 * The 'simd' tier's ChaCha engine: key, nonce and data go through the
 * kernel's memory (layout.ts); everything a call wrote there is wiped
 * before it returns, also when it throws.
 *
 * Short messages (one slice) take a direct path: when the caller gives no
 * output, the result is allocated and copied out of linear memory in one
 * step (Uint8Array.prototype.slice), and AEAD decryption checks the tag
 * before any plaintext leaves linear memory.
 */
import { BLOCK, BUFFER, SLICE, STATE } from './layout.js';
import type { ChachaEngine } from './engine.js';
import { SIGMA, TAU } from './state.js';
import { chachaKernel, type ChachaKernel } from './wasm.js';
import { equalBytes, memoryBytes, throughMemory } from '../runtime/memory.js';

/**
 * The input block of ChachaEngine.xor, written straight into STATE: key
 * and nonce bytes already are the little-endian words the kernel reads.
 */
function writeInput(mem: Uint8Array, key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): void {
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let w = 0; w < 4; w++) writeWord(mem, STATE + 4 * w, constants[w]);
  mem.set(key, STATE + 16);
  if (key.length === 16) mem.set(key, STATE + 32);
  writeWord(mem, STATE + 48, counterLow);
  writeWord(mem, STATE + 52, counterHigh);
  mem.set(nonce, STATE + 64 - nonce.length);
}

function writeWord(mem: Uint8Array, at: number, value: number): void {
  mem[at] = value;
  mem[at + 1] = value >>> 8;
  mem[at + 2] = value >>> 16;
  mem[at + 3] = value >>> 24;
}

/** Wipes what a call of `length` data bytes left: state, scratch, and the buffer up to the slice (and a tag) it used. */
const wipe = (k: ChachaKernel, length: number) => k.wipe(BUFFER + Math.min(SLICE, length) + 16);

const EMPTY = new Uint8Array(0);

function authenticateAad(k: ChachaKernel, mem: Uint8Array, aad: Uint8Array): void {
  if (aad.length > 0) throughMemory(mem, BUFFER, SLICE, aad, undefined, k.poly_pad16);
}

export const simdChacha: ChachaEngine = {
  xor(key, nonce, counterLow, counterHigh, doubleRounds, data, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    const n = data.length;
    try {
      writeInput(mem, key, nonce, counterLow, counterHigh);
      if (out === undefined && n <= SLICE) {
        mem.set(data, BUFFER);
        k.chacha_xor_swizzle(BUFFER, n, doubleRounds);
        return mem.slice(BUFFER, BUFFER + n);
      }
      out ??= new Uint8Array(n);
      throughMemory(mem, BUFFER, SLICE, data, out, k.chacha_xor_swizzle, doubleRounds);
      return out;
    } finally {
      wipe(k, n);
    }
  },

  hchacha(key, nonce16, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    try {
      writeInput(mem, key, EMPTY, 0, 0);
      mem.set(nonce16, STATE + 48);
      k.hchacha(10);
      for (let i = 0; i < 32; i++) out[i] = mem[BLOCK + i];
    } finally {
      k.wipe(BLOCK + 64);
    }
  },

  seal(key, nonce12, aad, data, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    const n = data.length;
    try {
      writeInput(mem, key, nonce12, 0, 0);
      k.aead_init();
      authenticateAad(k, mem, aad);
      if (out === undefined && n <= SLICE) {
        mem.set(data, BUFFER);
        k.aead_seal(BUFFER, n);
        k.aead_finish(aad.length, n, BUFFER + n);
        return mem.slice(BUFFER, BUFFER + n + 16);
      }
      out ??= new Uint8Array(n + 16);
      throughMemory(mem, BUFFER, SLICE, data, out, k.aead_seal);
      k.aead_finish(aad.length, n, BUFFER);
      for (let i = 0; i < 16; i++) out[n + i] = mem[BUFFER + i];
      return out;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },

  open(key, nonce12, aad, ciphertext, tag, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    const n = ciphertext.length;
    try {
      writeInput(mem, key, nonce12, 0, 0);
      k.aead_init();
      authenticateAad(k, mem, aad);
      if (n <= SLICE) {
        // One slice: the tag is checked before the plaintext leaves linear memory.
        mem.set(ciphertext, BUFFER);
        k.aead_open(BUFFER, n);
        k.aead_finish(aad.length, n, BUFFER + n);
        if (!equalBytes(mem, BUFFER + n, tag, 0, 16)) return undefined;
        if (out === undefined) return mem.slice(BUFFER, BUFFER + n);
        out.set(mem.subarray(BUFFER, BUFFER + n));
        return out;
      }
      // Longer: plaintext goes out slice by slice; on a bad tag the caller wipes `out`.
      const target = out ?? new Uint8Array(n);
      throughMemory(mem, BUFFER, SLICE, ciphertext, target, k.aead_open);
      k.aead_finish(aad.length, n, BUFFER);
      if (equalBytes(mem, BUFFER, tag, 0, 16)) return target;
      if (out === undefined) target.fill(0);
      return undefined;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },
};
