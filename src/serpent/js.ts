/**
 * The pure-JavaScript Serpent tier: the same bitsliced cipher as the
 * kernel (the circuits of sboxes.ts, as functions in js-sboxes.ts) on one
 * block at a time in four 32-bit words. Its outputs must match the 'simd'
 * tier byte for byte.
 */
import type { SerpentEngine } from './engine.js';
import { INVERSE_FUNCTIONS, SBOX_FUNCTIONS } from './js-sboxes.js';
import { PHI } from './tables.js';
import { readLE32, writeLE32 } from '../runtime/bytes.js';

/** Working words, wiped after every call: the prekey, the round keys, a block, the CBC chain and the CTR counter. */
const prekey = new Int32Array(140);
const roundKeys = new Int32Array(132);
const state = new Int32Array(4);
const chain = new Int32Array(4);
const saved = new Int32Array(4);
const keystream = new Uint8Array(16);
// constant-time: public counter: the CTR counter block is the IV plus the blocks counted, both public.
const counter = new Uint8Array(16);

/**
 * The key schedule (§2.2, bitslice form) into roundKeys: the key padded to
 * 256 bits (a 1 bit after its last byte), the prekey w_i = (w_{i-8} ^
 * w_{i-5} ^ w_{i-3} ^ w_{i-1} ^ PHI ^ i) <<< 11, and round key K_i =
 * S_{(3 - i) mod 8} of w_{4i}..w_{4i+3}, K_0..K_32 as 132 words.
 */
function expandKey(key: Uint8Array): Int32Array {
  const w = prekey;
  w.fill(0, 0, 8);
  for (let i = 0; i < key.length / 4; i++) w[i] = readLE32(key, 4 * i);
  if (key.length < 32) w[key.length / 4] = 1;
  for (let i = 8; i < 140; i++) {
    const v = w[i - 8] ^ w[i - 5] ^ w[i - 3] ^ w[i - 1] ^ PHI ^ (i - 8);
    w[i] = (v << 11) | (v >>> 21);
  }
  for (let i = 0; i < 33; i++) {
    for (let j = 0; j < 4; j++) state[j] = w[8 + 4 * i + j];
    SBOX_FUNCTIONS[(3 - i) & 7](state);
    roundKeys.set(state, 4 * i);
  }
  return roundKeys;
}

const addRoundKey = (r: Int32Array, k: Int32Array, round: number): void => {
  r[0] ^= k[4 * round]; r[1] ^= k[4 * round + 1]; r[2] ^= k[4 * round + 2]; r[3] ^= k[4 * round + 3];
};

/** The linear transformation LT (§2, bitslice form). */
function linear(r: Int32Array): void {
  let x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  x0 = (x0 << 13) | (x0 >>> 19);
  x2 = (x2 << 3) | (x2 >>> 29);
  x1 ^= x0 ^ x2;
  x3 ^= x2 ^ (x0 << 3);
  x1 = (x1 << 1) | (x1 >>> 31);
  x3 = (x3 << 7) | (x3 >>> 25);
  x0 ^= x1 ^ x3;
  x2 ^= x3 ^ (x1 << 7);
  r[0] = (x0 << 5) | (x0 >>> 27);
  r[1] = x1;
  r[2] = (x2 << 22) | (x2 >>> 10);
  r[3] = x3;
}

/** LT^-1: LT's steps undone in reverse order. */
function inverseLinear(r: Int32Array): void {
  let x0 = r[0], x1 = r[1], x2 = r[2], x3 = r[3];
  x2 = (x2 >>> 22) | (x2 << 10);
  x0 = (x0 >>> 5) | (x0 << 27);
  x2 ^= x3 ^ (x1 << 7);
  x0 ^= x1 ^ x3;
  x3 = (x3 >>> 7) | (x3 << 25);
  x1 = (x1 >>> 1) | (x1 << 31);
  x3 ^= x2 ^ (x0 << 3);
  x1 ^= x0 ^ x2;
  r[0] = (x0 >>> 13) | (x0 << 19);
  r[1] = x1;
  r[2] = (x2 >>> 3) | (x2 << 29);
  r[3] = x3;
}

/** §2: 32 rounds of K_r, S_{r mod 8} and LT; the last XORs K_32 instead of LT. */
function encryptBlock(k: Int32Array, r: Int32Array): void {
  for (let round = 0; round < 31; round++) {
    addRoundKey(r, k, round);
    SBOX_FUNCTIONS[round & 7](r);
    linear(r);
  }
  addRoundKey(r, k, 31);
  SBOX_FUNCTIONS[7](r);
  addRoundKey(r, k, 32);
}

function decryptBlock(k: Int32Array, r: Int32Array): void {
  addRoundKey(r, k, 32);
  INVERSE_FUNCTIONS[7](r);
  addRoundKey(r, k, 31);
  for (let round = 30; round >= 0; round--) {
    inverseLinear(r);
    INVERSE_FUNCTIONS[round & 7](r);
    addRoundKey(r, k, round);
  }
}

const load = (r: Int32Array, b: Uint8Array, at: number): void => {
  r[0] = readLE32(b, at); r[1] = readLE32(b, at + 4); r[2] = readLE32(b, at + 8); r[3] = readLE32(b, at + 12);
};
const store = (r: Int32Array, b: Uint8Array, at: number): void => {
  writeLE32(b, at, r[0]); writeLE32(b, at + 4, r[1]); writeLE32(b, at + 8, r[2]); writeLE32(b, at + 12, r[3]);
};

function wipe(): void {
  prekey.fill(0);
  roundKeys.fill(0);
  state.fill(0);
  chain.fill(0);
  saved.fill(0);
  keystream.fill(0);
  counter.fill(0);
}

/** ECB or (with `cbc`) CBC encryption of the blocks of `src` into `dst`, continuing the chaining words. */
function encryptBlocks(k: Int32Array, cbc: boolean, src: Uint8Array, dst: Uint8Array, at: number): void {
  for (let i = 0; i < src.length; i += 16) {
    load(state, src, i);
    if (cbc) for (let j = 0; j < 4; j++) state[j] ^= chain[j];
    encryptBlock(k, state);
    if (cbc) chain.set(state);
    store(state, dst, at + i);
  }
}

/** Runs `f` with the round keys of `key`, then wipes them and the working words. */
function withKeys(key: Uint8Array, f: (k: Int32Array) => Uint8Array): Uint8Array {
  const k = expandKey(key);
  try {
    return f(k);
  } finally {
    wipe();
  }
}

export const jsSerpent: SerpentEngine = {
  encrypt: (key, iv, data, final, out = new Uint8Array(data.length + (final === undefined ? 0 : 16))) =>
    withKeys(key, (k) => {
      if (iv !== undefined) load(chain, iv, 0);
      encryptBlocks(k, iv !== undefined, data, out, 0);
      if (final !== undefined) encryptBlocks(k, iv !== undefined, final, out, data.length);
      return out;
    }),

  decrypt: (key, iv, data, out = new Uint8Array(data.length)) =>
    withKeys(key, (k) => {
      if (iv !== undefined) load(chain, iv, 0);
      for (let i = 0; i < data.length; i += 16) {
        load(state, data, i);
        // CBC (SP 800-38A §6.2): P_i = D(C_i) ^ C_{i-1}; C_i is kept before `out` (maybe `data`) is written.
        if (iv !== undefined) saved.set(state);
        decryptBlock(k, state);
        if (iv !== undefined) {
          for (let j = 0; j < 4; j++) state[j] ^= chain[j];
          chain.set(saved);
        }
        store(state, out, i);
      }
      return out;
    }),

  ctr: (key, iv, data, out = new Uint8Array(data.length)) =>
    withKeys(key, (k) => {
      counter.set(iv);
      for (let i = 0; i < data.length; i += 16) {
        load(state, counter, 0);
        encryptBlock(k, state);
        store(state, keystream, 0);
        const n = Math.min(16, data.length - i);
        for (let j = 0; j < n; j++) out[i + j] = data[i + j] ^ keystream[j];
        // SP 800-38A §B.1: the whole block is a big-endian counter, wrapping at 2^128.
        for (let j = 15, carry = 1; j >= 0 && carry; j--) {
          const v = counter[j] + 1;
          counter[j] = v;
          carry = v >>> 8;
        }
      }
      return out;
    }),
};
