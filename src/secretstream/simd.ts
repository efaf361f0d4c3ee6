/**
 * The 'simd' tier's secretstream engine: one message per kernel call
 * sequence, each slice encrypted and authenticated while it is in cache
 * (secretstream/kernel.ts). Everything a call wrote into linear
 * memory is wiped before it returns, also when it throws.
 *
 * The sealed message is assembled in linear memory as the tag byte at
 * BUFFER - 1, the ciphertext at BUFFER and the MAC after it, so a message
 * of one slice leaves in one allocating copy (Uint8Array.prototype.slice);
 * when opening, the MAC is checked before any plaintext leaves.
 */
import { BUFFER, SLICE } from '../chachapoly/layout.js';
import { authenticateAad, simdChacha, wipe, writeInput } from '../chacha/simd.js';
import { chachaVariantPicker } from '../chachapoly/wasm.js';
import type { SecretstreamEngine } from './engine.js';
import { secretstreamKernel, type SecretstreamKernel } from './wasm.js';
import { equalBytes } from '../runtime/bytes.js';
import type { LinearMemory } from '../runtime/memory.js';

/** The ChaCha20 (IETF) input block at block counter 0 (RFC 8439 §2.3), then aead_init and the aad. */
function begin(k: SecretstreamKernel, mem: LinearMemory, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array): void {
  writeInput(k, mem, key, nonce, 0, 0);
  k.aead_init(4);
  authenticateAad(k, mem, aad);
}

/** The tag byte of a sealed message sits just before the buffer. */
const TAG_BYTE = BUFFER - 1;

export const simdSecretstream: SecretstreamEngine = {
  chacha: simdChacha,

  push(key, nonce, tag, aad, message) {
    const { k, mem } = secretstreamKernel();
    const n = message.length;
    try {
      begin(k, mem, key, nonce, aad);
      mem.bytes[TAG_BYTE] = k.stream_block(tag, 1);
      if (n <= SLICE) {
        mem.bytes.set(message, BUFFER);
        k.stream_seal(BUFFER, n);
        k.stream_finish(aad.length, 64 + n, BUFFER + n);
        return mem.bytes.slice(TAG_BYTE, BUFFER + n + 16);
      }
      const out = new Uint8Array(n + 17);
      out[0] = mem.bytes[TAG_BYTE];
      const body = out.subarray(1, n + 1);
      chachaVariantPicker(k).run(n, () => mem.through(BUFFER, SLICE, message, body, k.stream_seal));
      k.stream_finish(aad.length, 64 + n, BUFFER);
      out.set(mem.view(BUFFER, 16), n + 1);
      return out;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },

  pull(key, nonce, aad, sealed) {
    const { k, mem } = secretstreamKernel();
    const n = sealed.length - 17;
    // Each byte read once: the tag byte here, the MAC copied, the ciphertext a slice at a time into linear memory.
    const mac = sealed.slice(n + 1);
    try {
      begin(k, mem, key, nonce, aad);
      const tag = k.stream_block(sealed[0], 0);
      const ciphertext = sealed.subarray(1, n + 1);
      if (n <= SLICE) {
        mem.bytes.set(ciphertext, BUFFER);
        k.stream_open(BUFFER, n);
        k.stream_finish(aad.length, 64 + n, BUFFER + n);
        if (!equalBytes(mem.bytes, BUFFER + n, mac, 0, 16)) return undefined;
        return { message: mem.bytes.slice(BUFFER, BUFFER + n), tag, mac };
      }
      // Longer: plaintext goes out slice by slice into a new array, wiped if the MAC fails.
      const message = new Uint8Array(n);
      chachaVariantPicker(k).run(n, () => mem.through(BUFFER, SLICE, ciphertext, message, k.stream_open));
      k.stream_finish(aad.length, 64 + n, BUFFER);
      if (equalBytes(mem.bytes, BUFFER, mac, 0, 16)) return { message, tag, mac };
      message.fill(0);
      return undefined;
    } finally {
      wipe(k, Math.max(n, aad.length));
    }
  },
};
