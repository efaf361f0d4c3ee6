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
import { BLOCK, BUFFER, FIRST_SLICE, NONCE24, POLY, SLICE, STATE } from './layout.js';
import type { SalsaEngine } from './engine.js';
import { CONSTANT_WORDS, COUNTER_WORD, KEY_WORDS, NONCE_WORD, SIGMA, TAU } from './constants.js';
import { salsaKernel, type SalsaKernel } from './wasm.js';
import { onePass } from '../poly1305/one-pass.js';
import type { PieceCrypt } from '../aead/jobs.js';
import { deliver, equalBytes, high32, unverifiedTarget, zeroize } from '../runtime/bytes.js';
import type { LinearMemory } from '../runtime/memory.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** The constants (words 0, 5, 10, 15) and the key (words 1..4 and 11..14; a 16-byte key fills both) of the input (Salsa20 specification §10). */
function writeKey(mem: LinearMemory, key: Uint8Array): void {
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) mem.writeWord(STATE + 4 * CONSTANT_WORDS[i], constants[i]);
  mem.writeWords(STATE + 4 * KEY_WORDS[0], key, 0, 4);
  mem.writeWords(STATE + 4 * KEY_WORDS[1], key, key.length - 16, 4);
}

/**
 * The input of SalsaEngine.xor, written straight into STATE: key and nonce
 * bytes already are the little-endian words the kernel reads. A 24-byte
 * nonce is XSalsa20's: it goes to NONCE24 whole and the kernel derives and
 * installs the subkey and words 6..9 (hsalsa_rekey).
 */
function writeInput(k: SalsaKernel, mem: LinearMemory, key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): void {
  writeKey(mem, key);
  if (nonce.length === 24) {
    mem.bytes.set(nonce, NONCE24);
    k.hsalsa_rekey(counterLow, counterHigh);
    return;
  }
  mem.bytes.set(nonce, STATE + 4 * NONCE_WORD);
  mem.writeWord(STATE + 4 * COUNTER_WORD, counterLow);
  mem.writeWord(STATE + 4 * COUNTER_WORD + 4, counterHigh);
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
      writeKey(mem, key);
      mem.bytes.set(nonce16, STATE + 4 * NONCE_WORD);
      k.hsalsa(DOUBLE_ROUNDS);
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
      // Longer: each slice is read once into linear memory, absorbed and decrypted there, and its
      // plaintext goes out before the tag is known: to memory no other thread reads (unverifiedTarget).
      const target = unverifiedTarget(out, n);
      boxThrough(mem, ciphertext, target, 0, k.box_open);
      k.box_finish(BUFFER);
      if (equalBytes(mem.bytes, BUFFER, tag, 0, 16)) return deliver(target, out);
      // On a bad tag the caller wipes its `out`.
      if (target !== out) zeroize(target);
      return undefined;
    } finally {
      wipe(k, n);
    }
  },
};

/**
 * A piece of secretbox in one pass (fourfold/parallel's pieces,
 * poly1305/one-pass.ts), 20 rounds. Not part of simdSalsa, so that only
 * pages with fourfold/parallel carry it.
 */
export const simdSalsaPiece: PieceCrypt = (p, zeroPad, decrypt, input, output) => {
  const { k, mem } = salsaKernel();
  const n = input.length;
  try {
    writeInput(k, mem, p.key, p.nonce, p.counter >>> 0, high32(p.counter));
    return onePass(k, mem, { buffer: BUFFER, slice: SLICE, poly: POLY }, p.polyKey, zeroPad, decrypt, input, output, (ptr, len) =>
      k.salsa_xor(ptr, len, DOUBLE_ROUNDS),
    );
  } finally {
    wipe(k, n);
  }
};
