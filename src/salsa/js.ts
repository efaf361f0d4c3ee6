/**
 * The pure-JavaScript Salsa20 tier: the Salsa20 hash (specification §8),
 * HSalsa20 and XSalsa20 ("Extending the Salsa20 nonce") and the secretbox
 * ("Cryptography in NaCl" §9). Its outputs must match the 'simd' tier byte
 * for byte.
 */
import type { SalsaEngine } from './engine.js';
import { CONSTANT_WORDS, HSALSA_WORDS, SIGMA, TAU } from './constants.js';
import { jsPoly1305 } from '../poly1305/js.js';
import { equalBytes, readLE32 } from '../runtime/bytes.js';
import { HOST_LE } from '../runtime/host.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** Typed-array words are host-endian; the keystream is little-endian words. */

/** The 16 input words (§10) for a 32- or 16-byte key, an 8-byte nonce and a 64-bit block counter. */
function inputWords(key: Uint8Array, nonce8: Uint8Array, counterLow: number, counterHigh: number): Uint32Array {
  const s = new Uint32Array(16);
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) {
    s[CONSTANT_WORDS[i]] = constants[i];
    s[1 + i] = readLE32(key, 4 * i);
    s[11 + i] = readLE32(key, (16 + 4 * i) % key.length);
  }
  s[6] = readLE32(nonce8, 0);
  s[7] = readLE32(nonce8, 4);
  s[8] = counterLow;
  s[9] = counterHigh;
  return s;
}

/**
 * The Salsa20 hash of `s` into `out` (§8): `doubleRounds` double rounds on
 * 16 locals (so the JIT keeps them in registers), then, when
 * `feedForward`, the input words added back. HSalsa20 is the same without
 * the addition.
 */
function hash(s: Uint32Array, doubleRounds: number, out: Uint32Array, feedForward: boolean): void {
  let x0 = s[0] | 0, x1 = s[1] | 0, x2 = s[2] | 0, x3 = s[3] | 0, x4 = s[4] | 0, x5 = s[5] | 0, x6 = s[6] | 0, x7 = s[7] | 0;
  let x8 = s[8] | 0, x9 = s[9] | 0, x10 = s[10] | 0, x11 = s[11] | 0, x12 = s[12] | 0, x13 = s[13] | 0, x14 = s[14] | 0, x15 = s[15] | 0;
  let t = 0;
  for (let i = 0; i < doubleRounds; i++) {
    // Column round (§5): quarterround(x0, x4, x8, x12), (x5, x9, x13, x1), (x10, x14, x2, x6), (x15, x3, x7, x11).
    t = (x0 + x12) | 0; x4 ^= (t << 7) | (t >>> 25);
    t = (x4 + x0) | 0; x8 ^= (t << 9) | (t >>> 23);
    t = (x8 + x4) | 0; x12 ^= (t << 13) | (t >>> 19);
    t = (x12 + x8) | 0; x0 ^= (t << 18) | (t >>> 14);
    t = (x5 + x1) | 0; x9 ^= (t << 7) | (t >>> 25);
    t = (x9 + x5) | 0; x13 ^= (t << 9) | (t >>> 23);
    t = (x13 + x9) | 0; x1 ^= (t << 13) | (t >>> 19);
    t = (x1 + x13) | 0; x5 ^= (t << 18) | (t >>> 14);
    t = (x10 + x6) | 0; x14 ^= (t << 7) | (t >>> 25);
    t = (x14 + x10) | 0; x2 ^= (t << 9) | (t >>> 23);
    t = (x2 + x14) | 0; x6 ^= (t << 13) | (t >>> 19);
    t = (x6 + x2) | 0; x10 ^= (t << 18) | (t >>> 14);
    t = (x15 + x11) | 0; x3 ^= (t << 7) | (t >>> 25);
    t = (x3 + x15) | 0; x7 ^= (t << 9) | (t >>> 23);
    t = (x7 + x3) | 0; x11 ^= (t << 13) | (t >>> 19);
    t = (x11 + x7) | 0; x15 ^= (t << 18) | (t >>> 14);
    // Row round (§4): quarterround(x0, x1, x2, x3), (x5, x6, x7, x4), (x10, x11, x8, x9), (x15, x12, x13, x14).
    t = (x0 + x3) | 0; x1 ^= (t << 7) | (t >>> 25);
    t = (x1 + x0) | 0; x2 ^= (t << 9) | (t >>> 23);
    t = (x2 + x1) | 0; x3 ^= (t << 13) | (t >>> 19);
    t = (x3 + x2) | 0; x0 ^= (t << 18) | (t >>> 14);
    t = (x5 + x4) | 0; x6 ^= (t << 7) | (t >>> 25);
    t = (x6 + x5) | 0; x7 ^= (t << 9) | (t >>> 23);
    t = (x7 + x6) | 0; x4 ^= (t << 13) | (t >>> 19);
    t = (x4 + x7) | 0; x5 ^= (t << 18) | (t >>> 14);
    t = (x10 + x9) | 0; x11 ^= (t << 7) | (t >>> 25);
    t = (x11 + x10) | 0; x8 ^= (t << 9) | (t >>> 23);
    t = (x8 + x11) | 0; x9 ^= (t << 13) | (t >>> 19);
    t = (x9 + x8) | 0; x10 ^= (t << 18) | (t >>> 14);
    t = (x15 + x14) | 0; x12 ^= (t << 7) | (t >>> 25);
    t = (x12 + x15) | 0; x13 ^= (t << 9) | (t >>> 23);
    t = (x13 + x12) | 0; x14 ^= (t << 13) | (t >>> 19);
    t = (x14 + x13) | 0; x15 ^= (t << 18) | (t >>> 14);
  }
  if (feedForward) {
    x0 = (x0 + s[0]) | 0; x1 = (x1 + s[1]) | 0; x2 = (x2 + s[2]) | 0; x3 = (x3 + s[3]) | 0;
    x4 = (x4 + s[4]) | 0; x5 = (x5 + s[5]) | 0; x6 = (x6 + s[6]) | 0; x7 = (x7 + s[7]) | 0;
    x8 = (x8 + s[8]) | 0; x9 = (x9 + s[9]) | 0; x10 = (x10 + s[10]) | 0; x11 = (x11 + s[11]) | 0;
    x12 = (x12 + s[12]) | 0; x13 = (x13 + s[13]) | 0; x14 = (x14 + s[14]) | 0; x15 = (x15 + s[15]) | 0;
  }
  out[0] = x0; out[1] = x1; out[2] = x2; out[3] = x3; out[4] = x4; out[5] = x5; out[6] = x6; out[7] = x7;
  out[8] = x8; out[9] = x9; out[10] = x10; out[11] = x11; out[12] = x12; out[13] = x13; out[14] = x14; out[15] = x15;
}

/** One keystream block as words, and (on little-endian hosts) as its bytes; wiped after every call. */
const block = new Uint32Array(16);
const blockBytes = new Uint8Array(block.buffer);

/** Keystream byte i of `block`, whatever the host's byte order. */
const keystreamByte = (i: number): number => (HOST_LE ? blockBytes[i] : (block[i >>> 2] >>> ((i & 3) << 3)) & 0xff);

/**
 * XORs keystream bytes [from, from + data.length) of `state`'s block into
 * `data`, writing `out` front to back (so `out` may start at or before
 * `data`), then advances the 64-bit counter in words 8..9.
 */
function xorStream(state: Uint32Array, doubleRounds: number, data: Uint8Array, out: Uint8Array): void {
  const len = data.length;
  // Whole blocks a word at a time where both arrays are 4-byte aligned on a little-endian host.
  const words = HOST_LE && ((data.byteOffset | out.byteOffset) & 3) === 0 && len >= 64;
  const d32 = words ? new Uint32Array(data.buffer, data.byteOffset, len >>> 2) : undefined;
  const o32 = words ? new Uint32Array(out.buffer, out.byteOffset, len >>> 2) : undefined;
  for (let pos = 0; pos < len; pos += 64) {
    hash(state, doubleRounds, block, true);
    if (d32 !== undefined && o32 !== undefined && len - pos >= 64) {
      const w = pos >>> 2;
      for (let i = 0; i < 16; i++) o32[w + i] = d32[w + i] ^ block[i];
    } else {
      const end = Math.min(64, len - pos);
      for (let i = 0; i < end; i++) out[pos + i] = data[pos + i] ^ keystreamByte(i);
    }
    // Next block: the counter is public, so branching on its carry is fine.
    state[8] = (state[8] + 1) | 0;
    // constant-time exception (secret-branch): words 8 and 9 of the state are the block counter, public; its other words are key.
    if (state[8] === 0) state[9] = (state[9] + 1) | 0;
  }
  block.fill(0);
}

/**
 * HSalsa20: the words HSALSA_WORDS of the rounds over (constants, key,
 * nonce16), no feed-forward. `constants`: words 0, 5, 10, 15 ("expand
 * 32-byte k"; libsodium's crypto_core_hsalsa20 takes the caller's own).
 */
export function hsalsa(key: Uint8Array, nonce16: Uint8Array, out: Uint8Array, constants: ArrayLike<number> = SIGMA): void {
  const state = inputWords(key, nonce16, readLE32(nonce16, 8), readLE32(nonce16, 12));
  for (let i = 0; i < 4; i++) state[CONSTANT_WORDS[i]] = constants[i];
  const words = new Uint32Array(16);
  hash(state, DOUBLE_ROUNDS, words, false);
  for (let k = 0; k < 8; k++) {
    const w = words[HSALSA_WORDS[k]];
    out[4 * k] = w; out[4 * k + 1] = w >>> 8; out[4 * k + 2] = w >>> 16; out[4 * k + 3] = w >>> 24;
  }
  words.fill(0);
  state.fill(0);
}

/** The state for XSalsa20 with `nonce24` (its last 8 bytes the nonce, the key the HSalsa20 subkey), or Salsa20 with an 8-byte nonce. */
function stateFor(key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): Uint32Array {
  if (nonce.length !== 24) return inputWords(key, nonce, counterLow, counterHigh);
  const subkey = new Uint8Array(32);
  hsalsa(key, nonce.subarray(0, 16), subkey);
  const state = inputWords(subkey, nonce.subarray(16), counterLow, counterHigh);
  subkey.fill(0);
  return state;
}

/**
 * The secretbox's keystream over a message: its bytes 32.. (block 0's
 * first half is the Poly1305 key), XORed from `data` into `out`.
 */
function boxCrypt(state: Uint32Array, head: Uint8Array, data: Uint8Array, out: Uint8Array): void {
  const n = Math.min(32, data.length);
  for (let i = 0; i < n; i++) out[i] = data[i] ^ head[32 + i];
  state[8] = 1;
  state[9] = 0;
  if (data.length > 32) xorStream(state, DOUBLE_ROUNDS, data.subarray(32), out.subarray(32, data.length));
}

/** Keystream block 0 of `state` as bytes: the Poly1305 key, then the first 32 bytes of message keystream. */
function firstBlock(state: Uint32Array): Uint8Array {
  const head = new Uint8Array(64);
  xorStream(state, DOUBLE_ROUNDS, head, head);
  return head;
}

export const jsSalsa: SalsaEngine = {
  xor(key, nonce, counterLow, counterHigh, doubleRounds, data, out = new Uint8Array(data.length)) {
    const state = stateFor(key, nonce, counterLow, counterHigh);
    xorStream(state, doubleRounds, data, out);
    state.fill(0);
    return out;
  },

  hsalsa,

  seal(key, nonce, data, out = new Uint8Array(data.length + 16)) {
    const state = stateFor(key, nonce, 0, 0);
    const head = firstBlock(state);
    const ciphertext = out.subarray(16, 16 + data.length);
    boxCrypt(state, head, data, ciphertext);
    out.set(jsPoly1305.mac(ciphertext, head.subarray(0, 32)), 0);
    head.fill(0);
    state.fill(0);
    return out;
  },

  /** From one read of the ciphertext: a private copy, verified and then decrypted in place (as the ChaCha tier's open). */
  open(key, nonce, ciphertext, tag, out) {
    const copy = ciphertext.slice();
    const state = stateFor(key, nonce, 0, 0);
    const head = firstBlock(state);
    const ok = equalBytes(jsPoly1305.mac(copy, head.subarray(0, 32)), 0, tag, 0, 16);
    // Forgeries are not decrypted; whether the tag verified is public (it is the result).
    if (ok) boxCrypt(state, head, copy, copy);
    head.fill(0);
    state.fill(0);
    if (!ok) return undefined;
    if (out === undefined) return copy;
    out.set(copy);
    copy.fill(0);
    return out;
  },
};
