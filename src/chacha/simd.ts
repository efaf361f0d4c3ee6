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
import { chachaKernel, chachaVariants, type ChachaKernel } from './wasm.js';
import { equalBytes, type LinearMemory } from '../runtime/memory.js';

/**
 * The input block of ChachaEngine.xor, written straight into STATE: key
 * and nonce bytes already are the little-endian words the kernel reads.
 * A 24-byte nonce is XChaCha20's: the kernel derives and installs the
 * subkey itself (hchacha_rekey), from the first 16 nonce bytes in words
 * 12..15 and what those words become in BLOCK + 48..64.
 */
function writeInput(k: ChachaKernel, mem: LinearMemory, key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): void {
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let w = 0; w < 4; w++) mem.writeWord(STATE + 4 * w, constants[w]);
  mem.writeWords(STATE + 16, key, 0, key.length >>> 2);
  if (key.length === 16) mem.writeWords(STATE + 32, key, 0, 4);
  const extended = nonce.length === 24;
  const words12to15 = extended ? BLOCK + 48 : STATE + 48;
  mem.writeWord(words12to15, counterLow);
  mem.writeWord(words12to15 + 4, counterHigh);
  const tail = extended ? 8 : nonce.length;
  mem.writeWords(words12to15 + 16 - tail, nonce, nonce.length - tail, tail >>> 2);
  if (extended) {
    mem.writeWords(STATE + 48, nonce, 0, 4);
    k.hchacha_rekey();
  }
}

/** Wipes what a call of `length` data bytes left: state, scratch, TAIL, and the buffer up to the slice (and a tag) it used. */
const wipe = (k: ChachaKernel, length: number) => k.wipe(BUFFER + Math.min(SLICE, length) + 16);

const EMPTY = new Uint8Array(0);

function authenticateAad(k: ChachaKernel, mem: LinearMemory, aad: Uint8Array): void {
  if (aad.length > 0) mem.through(BUFFER, SLICE, aad, undefined, k.poly_pad16);
}

export const simdChacha: ChachaEngine = {
  xor(key, nonce, counterLow, counterHigh, doubleRounds, data, out) {
    const { k, mem } = chachaKernel();
    const n = data.length;
    try {
      writeInput(k, mem, key, nonce, counterLow, counterHigh);
      if (out === undefined && n <= SLICE) {
        mem.bytes.set(data, BUFFER);
        const picker = chachaVariants(k);
        if (picker.wants(n)) picker.run(n, () => k.chacha_xor(BUFFER, n, doubleRounds));
        else k.chacha_xor(BUFFER, n, doubleRounds);
        return mem.bytes.slice(BUFFER, BUFFER + n);
      }
      const target = out ?? new Uint8Array(n);
      const picker = chachaVariants(k);
      if (picker.wants(n)) picker.run(n, () => mem.through(BUFFER, SLICE, data, target, k.chacha_xor, doubleRounds));
      else mem.through(BUFFER, SLICE, data, target, k.chacha_xor, doubleRounds);
      return target;
    } finally {
      wipe(k, n);
    }
  },

  hchacha(key, nonce16, out) {
    const { k, mem } = chachaKernel();
    try {
      writeInput(k, mem, key, EMPTY, 0, 0);
      mem.writeWords(STATE + 48, nonce16, 0, 4);
      k.hchacha(10);
      out.set(mem.view(BLOCK, 32));
    } finally {
      k.wipe(BLOCK + 64);
    }
  },

  seal(key, nonce, aad, data, out) {
    const { k, mem } = chachaKernel();
    const n = data.length;
    try {
      writeInput(k, mem, key, nonce, 0, 0);
      k.aead_init();
      authenticateAad(k, mem, aad);
      if (out === undefined && n <= SLICE) {
        mem.bytes.set(data, BUFFER);
        k.aead_seal(BUFFER, n);
        k.aead_finish(aad.length, n, BUFFER + n);
        return mem.bytes.slice(BUFFER, BUFFER + n + 16);
      }
      const target = out ?? new Uint8Array(n + 16);
      chachaVariants(k).run(n, () => mem.through(BUFFER, SLICE, data, target, k.aead_seal));
      k.aead_finish(aad.length, n, BUFFER);
      target.set(mem.view(BUFFER, 16), n);
      return target;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },

  open(key, nonce, aad, ciphertext, tag, out) {
    const { k, mem } = chachaKernel();
    const n = ciphertext.length;
    try {
      writeInput(k, mem, key, nonce, 0, 0);
      k.aead_init();
      authenticateAad(k, mem, aad);
      if (n <= SLICE) {
        // One slice: the tag is checked before the plaintext leaves linear memory.
        mem.bytes.set(ciphertext, BUFFER);
        k.aead_open(BUFFER, n);
        k.aead_finish(aad.length, n, BUFFER + n);
        if (!equalBytes(mem.bytes, BUFFER + n, tag, 0, 16)) return undefined;
        if (out === undefined) return mem.bytes.slice(BUFFER, BUFFER + n);
        out.set(mem.view(BUFFER, n));
        return out;
      }
      // Longer: plaintext goes out slice by slice; on a bad tag the caller wipes `out`.
      const target = out ?? new Uint8Array(n);
      chachaVariants(k).run(n, () => mem.through(BUFFER, SLICE, ciphertext, target, k.aead_open));
      k.aead_finish(aad.length, n, BUFFER);
      if (equalBytes(mem.bytes, BUFFER, tag, 0, 16)) return target;
      if (out === undefined) target.fill(0);
      return undefined;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },
};
