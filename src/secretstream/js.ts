/**
 * The pure-JavaScript secretstream engine: the js tier's ChaCha20 and
 * Poly1305 composed as libsodium describes one message (secretstream/kernel.ts
 * has the layout). Outputs match the 'simd' tier byte for byte.
 */
import { jsChacha } from '../chacha/js.js';
import { jsPoly1305 } from '../poly1305/js.js';
import type { Poly1305State } from '../poly1305/engine.js';
import type { SecretstreamEngine } from './engine.js';
import { equalBytes, lengthBlock, type Bytes } from '../runtime/bytes.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

const ZEROS = new Uint8Array(16);

/**
 * Keys Poly1305 with keystream block 0, absorbs aad || pad16(aad), and
 * builds the tag block: keystream block 1 with byte 0 set by `byte0` as in
 * the kernel's stream_block. Returns the MAC state and byte0 XOR keystream byte 0.
 */
function begin(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, byte0: number, encrypt: boolean): { mac: Poly1305State; other: number } {
  const blocks = new Uint8Array(128);
  jsChacha.xor(key, nonce, 0, 0, DOUBLE_ROUNDS, blocks, blocks);
  const mac = jsPoly1305.create(blocks.subarray(0, 32));
  mac.update(aad);
  mac.update(ZEROS.subarray(0, -aad.length & 15));
  const block = blocks.subarray(64);
  const other = byte0 ^ block[0];
  block[0] = encrypt ? other : byte0;
  mac.update(block);
  blocks.fill(0);
  return { mac, other };
}

/** libsodium's message padding (mlen mod 16 zeros, see the kernel), the length block, and the MAC into `tag`. */
function finish(mac: Poly1305State, aadLength: number, ciphertext: Uint8Array, tag: Uint8Array): void {
  mac.update(ciphertext);
  mac.update(ZEROS.subarray(0, ciphertext.length & 15));
  // The MAC covers the tag block too: 64 bytes before the ciphertext.
  mac.update(lengthBlock(aadLength, 64 + ciphertext.length));
  mac.digestInto(tag);
}

export const jsSecretstream: SecretstreamEngine = {
  chacha: jsChacha,

  push(key, nonce, tag, aad, message) {
    // constant-time: secret tag: the message's tag is encrypted with it (byte 0 of the output).
    const n = message.length;
    const out = new Uint8Array(n + 17);
    const { mac, other } = begin(key, nonce, aad, tag, true);
    out[0] = other;
    const ciphertext = out.subarray(1, n + 1);
    // The message is encrypted from block counter 2.
    jsChacha.xor(key, nonce, 2, 0, DOUBLE_ROUNDS, message, ciphertext);
    finish(mac, aad.length, ciphertext, out.subarray(n + 1));
    return out;
  },

  /** From one read of `sealed`: a private copy is verified, then its ciphertext decrypted. */
  pull(key, nonce, aad, sealed) {
    const copy = sealed.slice();
    const n = copy.length - 17;
    const { mac, other } = begin(key, nonce, aad, copy[0], false);
    const ciphertext = copy.subarray(1, n + 1);
    const expected = new Uint8Array(16);
    finish(mac, aad.length, ciphertext, expected);
    // Forgeries are not decrypted; whether the MAC verified is public (it is the result).
    if (!equalBytes(expected, 0, copy, n + 1, 16)) return undefined;
    // A new array (no output given).
    return { message: jsChacha.xor(key, nonce, 2, 0, DOUBLE_ROUNDS, ciphertext) as Bytes, tag: other, mac: copy.slice(n + 1) };
  },
};
