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
import { BLOCK, BUFFER, COUNTER_WORD, KEY_WORD, NONCE24, POLY, SLICE, STATE } from '../chachapoly/layout.js';
import type { ChachaEngine } from './engine.js';
import { SIGMA, TAU } from './input-block.js';
import { chachaKernel, chachaVariantPicker, type ChachaKernel } from '../chachapoly/wasm.js';
import { onePass } from '../poly1305/one-pass.js';
import type { PieceCrypt } from '../aead/jobs.js';
import { deliver, equalBytes, high32, unverifiedTarget, zeroize } from '../runtime/bytes.js';
import type { LinearMemory } from '../runtime/memory.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** Words 0..11 of the input block (RFC 8439 §2.3): the constants and the key (a 16-byte key twice, under TAU). */
function writeKey(mem: LinearMemory, key: Uint8Array): void {
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) mem.writeWord(STATE + 4 * i, constants[i]);
  mem.bytes.set(key, STATE + 4 * KEY_WORD);
  if (key.length === 16) mem.bytes.set(key, STATE + 4 * KEY_WORD + 16);
}

/**
 * The input block of ChachaEngine.xor, written straight into STATE: key
 * and nonce bytes already are the little-endian words the kernel reads.
 * A 24-byte nonce is XChaCha20's: it goes to NONCE24 whole and the kernel
 * derives and installs the subkey and words 12..15 (hchacha_rekey).
 */
export function writeInput(k: ChachaKernel, mem: LinearMemory, key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): void {
  writeKey(mem, key);
  if (nonce.length === 24) {
    mem.bytes.set(nonce, NONCE24);
    k.hchacha_rekey(counterLow, counterHigh);
    return;
  }
  mem.writeWord(STATE + 4 * COUNTER_WORD, counterLow);
  mem.writeWord(STATE + 4 * COUNTER_WORD + 4, counterHigh);
  // The nonce ends the block: 12 bytes cover the counter's high word (RFC 8439), 8 bytes follow it.
  mem.bytes.set(nonce, STATE + 64 - nonce.length);
}

/**
 * Wipes what a call of `length` data bytes left: everything below BUFFER
 * (state, scratch, secretstream's tag byte), TAIL, and the buffer up to
 * the slice (and a tag) it used.
 */
export const wipe = (k: ChachaKernel, length: number) => k.wipe(BUFFER + Math.min(SLICE, length) + 16);

/**
 * Keystream blocks for aead_init (kernel.ts aead): four (one 4-wide group)
 * when blocks 1..3 cover the message, else two, the cheaper start that
 * covers a one-block message and gives every longer one its Poly1305 key.
 */
export const initBlocks = (length: number): number => (length > 64 && length <= 192 ? 4 : 2);

/** The associated data into the MAC, zero-padded to 16 bytes (RFC 8439 §2.8). */
export function authenticateAad(k: ChachaKernel, mem: LinearMemory, aad: Uint8Array): void {
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
        const picker = chachaVariantPicker(k);
        if (picker.wants(n)) picker.run(n, () => k.chacha_xor(BUFFER, n, doubleRounds));
        else k.chacha_xor(BUFFER, n, doubleRounds);
        return mem.bytes.slice(BUFFER, BUFFER + n);
      }
      const target = out ?? new Uint8Array(n);
      const picker = chachaVariantPicker(k);
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
      writeKey(mem, key);
      // HChaCha20's 16-byte input takes words 12..15, where the counter and the nonce go (draft-irtf-cfrg-xchacha-03 §2.2);
      // word by word, as the input may be longer.
      mem.writeWords(STATE + 4 * COUNTER_WORD, nonce16, 0, 4);
      k.hchacha(DOUBLE_ROUNDS);
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
      k.aead_init(initBlocks(n));
      authenticateAad(k, mem, aad);
      if (out === undefined && n <= SLICE) {
        mem.bytes.set(data, BUFFER);
        k.aead_seal(BUFFER, n);
        k.aead_finish(aad.length, n, BUFFER + n);
        return mem.bytes.slice(BUFFER, BUFFER + n + 16);
      }
      const target = out ?? new Uint8Array(n + 16);
      chachaVariantPicker(k).run(n, () => mem.through(BUFFER, SLICE, data, target, k.aead_seal));
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
      k.aead_init(initBlocks(n));
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
      // Longer: each slice is read once into linear memory, absorbed and decrypted there, and its
      // plaintext goes out before the tag is known: to memory no other thread reads (unverifiedTarget).
      const target = unverifiedTarget(out, n);
      chachaVariantPicker(k).run(n, () => mem.through(BUFFER, SLICE, ciphertext, target, k.aead_open));
      k.aead_finish(aad.length, n, BUFFER);
      if (equalBytes(mem.bytes, BUFFER, tag, 0, 16)) return deliver(target, out);
      // On a bad tag the caller wipes its `out`.
      if (target !== out) zeroize(target);
      return undefined;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },
};

/**
 * A piece of ChaCha20-Poly1305 in one pass (fourfold/parallel's pieces,
 * poly1305/one-pass.ts), 20 rounds. Not part of simdChacha, so that only
 * pages with fourfold/parallel carry it.
 */
export const simdChachaPiece: PieceCrypt = (p, zeroPad, decrypt, input, output) => {
  const { k, mem } = chachaKernel();
  const n = input.length;
  try {
    writeInput(k, mem, p.key, p.nonce, p.counter >>> 0, high32(p.counter));
    return chachaVariantPicker(k).run(n, () =>
      onePass(k, mem, { buffer: BUFFER, slice: SLICE, poly: POLY }, p.polyKey, zeroPad, decrypt, input, output, (ptr, len) =>
        k.chacha_xor(ptr, len, DOUBLE_ROUNDS),
      ),
    );
  } finally {
    wipe(k, n);
  }
};
