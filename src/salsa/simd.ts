/**
 * The 'simd' tier's Salsa20 engine: key, nonce and data go through the
 * kernel's memory (layout.ts); everything a call wrote there is wiped
 * before it returns, also when it throws.
 *
 * Short messages take a direct path: when the caller gives no output, the
 * result is allocated and copied out of linear memory in one step
 * (Uint8Array.prototype.slice), a sealed box with its tag in front of the
 * ciphertext, and opening checks the tag before any plaintext leaves
 * linear memory.
 */
import { BLOCK, BUFFER, FIRST_SLICE, SLICE, STATE } from './layout.js';
import type { SalsaEngine } from './engine.js';
import { CONSTANT_WORDS, SIGMA, TAU } from './constants.js';
import { salsaKernel, type SalsaKernel } from './wasm.js';
import { equalBytes, type LinearMemory } from '../runtime/memory.js';

/**
 * The input of SalsaEngine.xor, written straight into STATE: key and nonce
 * bytes already are the little-endian words the kernel reads. A 24-byte
 * nonce is XSalsa20's: the kernel derives and installs the subkey itself
 * (hsalsa_rekey), from the first 16 nonce bytes in words 6..9 and what
 * those words become in BLOCK + 48..64.
 */
function writeInput(k: SalsaKernel, mem: LinearMemory, key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): void {
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) mem.writeWord(STATE + 4 * CONSTANT_WORDS[i], constants[i]);
  // Key words 1..4 and 11..14; a 16-byte key fills both.
  mem.writeWords(STATE + 4, key, 0, 4);
  mem.writeWords(STATE + 44, key, key.length - 16, 4);
  const extended = nonce.length === 24;
  const words6to9 = extended ? BLOCK + 48 : STATE + 24;
  mem.writeWords(words6to9, nonce, nonce.length - 8, 2);
  mem.writeWord(words6to9 + 8, counterLow);
  mem.writeWord(words6to9 + 12, counterHigh);
  if (extended) {
    mem.writeWords(STATE + 24, nonce, 0, 4);
    k.hsalsa_rekey();
  }
}

/** Wipes what a call of `length` data bytes left: state, scratch, TAIL, and the buffer up to the slice it used (with a tag and scratch). */
const wipe = (k: SalsaKernel, length: number) => k.wipe(BUFFER + Math.min(SLICE, length) + 32);

/**
 * The secretbox's slices: FIRST_SLICE bytes, then SLICE bytes at a time
 * (layout.ts), each processed in place at BUFFER and copied to `out` at
 * `outAt` + its position.
 */
function boxThrough(mem: LinearMemory, data: Uint8Array, out: Uint8Array, outAt: number, process: (ptr: number, len: number) => void): void {
  const first = Math.min(data.length, FIRST_SLICE);
  mem.bytes.set(data.subarray(0, first), BUFFER);
  process(BUFFER, first);
  out.set(mem.view(BUFFER, first), outAt);
  if (data.length > first) mem.through(BUFFER, SLICE, data.subarray(first), out.subarray(outAt + first), process);
}

export const simdSalsa: SalsaEngine = {
  xor(key, nonce, counterLow, counterHigh, doubleRounds, data, out) {
    const { k, mem } = salsaKernel();
    const n = data.length;
    try {
      writeInput(k, mem, key, nonce, counterLow, counterHigh);
      if (out === undefined && n <= SLICE) {
        mem.bytes.set(data, BUFFER);
        k.salsa_xor(BUFFER, n, doubleRounds);
        return mem.bytes.slice(BUFFER, BUFFER + n);
      }
      const target = out ?? new Uint8Array(n);
      mem.through(BUFFER, SLICE, data, target, k.salsa_xor, doubleRounds);
      return target;
    } finally {
      wipe(k, n);
    }
  },

  hsalsa(key, nonce16, out) {
    const { k, mem } = salsaKernel();
    try {
      writeInput(k, mem, key, nonce16.subarray(0, 8), 0, 0);
      mem.writeWords(STATE + 24, nonce16, 0, 4);
      k.hsalsa(10);
      out.set(mem.view(BLOCK, 32));
    } finally {
      k.wipe(BLOCK + 64);
    }
  },

  seal(key, nonce, data, out) {
    const { k, mem } = salsaKernel();
    const n = data.length;
    try {
      writeInput(k, mem, key, nonce, 0, 0);
      k.box_init();
      if (out === undefined && n <= FIRST_SLICE) {
        // Tag and ciphertext side by side at BUFFER, copied out in one allocation.
        mem.bytes.set(data, BUFFER + 16);
        k.box_seal(BUFFER + 16, n);
        k.box_finish(BUFFER);
        return mem.bytes.slice(BUFFER, BUFFER + 16 + n);
      }
      const target = out ?? new Uint8Array(n + 16);
      boxThrough(mem, data, target, 16, k.box_seal);
      // The tag last: `out` may start where the plaintext did.
      k.box_finish(BUFFER);
      target.set(mem.view(BUFFER, 16), 0);
      return target;
    } finally {
      wipe(k, n);
    }
  },

  open(key, nonce, ciphertext, tag, out) {
    const { k, mem } = salsaKernel();
    const n = ciphertext.length;
    try {
      writeInput(k, mem, key, nonce, 0, 0);
      k.box_init();
      if (n <= FIRST_SLICE) {
        // One slice: the tag is checked before the plaintext leaves linear memory.
        mem.bytes.set(ciphertext, BUFFER + 16);
        k.box_open(BUFFER + 16, n);
        k.box_finish(BUFFER);
        if (!equalBytes(mem.bytes, BUFFER, tag, 0, 16)) return undefined;
        if (out === undefined) return mem.bytes.slice(BUFFER + 16, BUFFER + 16 + n);
        out.set(mem.view(BUFFER + 16, n));
        return out;
      }
      // Longer: plaintext goes out slice by slice; on a bad tag the caller wipes `out`.
      const target = out ?? new Uint8Array(n);
      boxThrough(mem, ciphertext, target, 0, k.box_open);
      k.box_finish(BUFFER);
      if (equalBytes(mem.bytes, BUFFER, tag, 0, 16)) return target;
      if (out === undefined) target.fill(0);
      return undefined;
    } finally {
      wipe(k, n);
    }
  },
};
