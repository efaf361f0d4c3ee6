/**
 * The 'simd' tier's ChaCha engine: state and data go through the kernel's
 * memory (layout.ts); everything a call wrote there is wiped before it
 * returns, also when it throws.
 */
import { BLOCK, BUFFER, POLY, SLICE, STATE } from './layout.js';
import type { ChachaEngine } from './engine.js';
import { setKey } from './state.js';
import { chachaKernel } from './wasm.js';
import { HIBIT, TAG } from '../poly1305/layout.js';
import { equalBytes, memoryBytes, throughMemory, writeLength64, writeWords } from '../runtime/memory.js';

const scratch = new Uint32Array(16);

/** Key and nonce into STATE for the AEAD, with the block counter at 0 (RFC 8439 §2.8). */
function writeAeadState(mem: Uint8Array, key: Uint8Array, nonce12: Uint8Array): void {
  setKey(scratch, key);
  scratch[12] = 0;
  writeWords(mem, STATE, scratch);
  scratch.fill(0);
  mem.set(nonce12, STATE + 52);
}

function authenticateAad(mem: Uint8Array, aad: Uint8Array, pad16: (ptr: number, len: number) => void): void {
  throughMemory(mem, BUFFER, SLICE, aad, undefined, pad16);
}

/** The final Poly1305 block of RFC 8439 §2.8: both lengths, then the tag to POLY + TAG. */
function finishTag(k: ReturnType<typeof chachaKernel>, mem: Uint8Array, aadLength: number, dataLength: number): void {
  writeLength64(mem, BUFFER, aadLength);
  writeLength64(mem, BUFFER + 8, dataLength);
  k.poly_blocks(BUFFER, 16, HIBIT);
  k.poly_finish();
}

const used = (...lengths: number[]) => BUFFER + Math.min(SLICE, Math.max(16, ...lengths));

export const simdChacha: ChachaEngine = {
  xor(state, doubleRounds, data, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    try {
      writeWords(mem, STATE, state);
      throughMemory(mem, BUFFER, SLICE, data, out, k.chacha_xor_swizzle, doubleRounds);
    } finally {
      mem.fill(0, 0, used(data.length));
    }
  },

  hchacha(key, nonce16, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    try {
      setKey(scratch, key);
      writeWords(mem, STATE, scratch);
      mem.set(nonce16, STATE + 48);
      k.hchacha(10);
      out.set(mem.subarray(BLOCK, BLOCK + 32));
    } finally {
      scratch.fill(0);
      mem.fill(0, 0, BLOCK + 64);
    }
  },

  seal(key, nonce12, aad, data, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    const n = data.length;
    try {
      writeAeadState(mem, key, nonce12);
      k.aead_init();
      authenticateAad(mem, aad, k.poly_pad16);
      throughMemory(mem, BUFFER, SLICE, data, out, k.aead_seal);
      finishTag(k, mem, aad.length, n);
      out.set(mem.subarray(POLY + TAG, POLY + TAG + 16), n);
    } finally {
      mem.fill(0, 0, used(aad.length, n));
    }
  },

  open(key, nonce12, aad, ciphertext, tag, out) {
    const k = chachaKernel();
    const mem = memoryBytes(k);
    const n = ciphertext.length;
    try {
      writeAeadState(mem, key, nonce12);
      k.aead_init();
      authenticateAad(mem, aad, k.poly_pad16);
      throughMemory(mem, BUFFER, SLICE, ciphertext, out, k.aead_open);
      finishTag(k, mem, aad.length, n);
      return equalBytes(mem, POLY + TAG, tag, 0, 16);
    } finally {
      mem.fill(0, 0, used(aad.length, n));
    }
  },
};
