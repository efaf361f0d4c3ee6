/**
 * The pure-JavaScript ChaCha tier: the block function (RFC 8439 §2.3),
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2) and AEAD_CHACHA20_POLY1305
 * (RFC 8439 §2.8). Its outputs must match the 'simd' tier byte for byte.
 */
import type { ChachaEngine } from './engine.js';
import type { KeystreamXor } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';
import { jsPoly1305 } from '../poly1305/js.js';
import type { Poly1305State } from '../poly1305/engine.js';
import { inputBlock, SIGMA } from './input-block.js';
import { equalBytes, lengthBlock, readLE32, writeLE32 } from '../runtime/bytes.js';
import { HOST_LE } from '../runtime/host.js';


/** Typed-array words are host-endian; the 4-bytes-at-a-time path needs little-endian. */

/** out[i..i+3] = data[i..i+3] XOR the little-endian bytes of `w` (Uint8Array stores truncate). */
function xorLE32(data: Uint8Array, out: Uint8Array, i: number, w: number): void {
  out[i] = data[i] ^ w;
  out[i + 1] = data[i + 1] ^ (w >>> 8);
  out[i + 2] = data[i + 2] ^ (w >>> 16);
  out[i + 3] = data[i + 3] ^ (w >>> 24);
}

/** Keystream words of a final partial block; wiped after every use. */
const tail = new Uint32Array(16);

/** Inputs from this many bytes up get word views (see xor). */
const VIEW_MIN = 128;

/**
 * XORs the keystream of `state` into `data` (RFC 8439 §2.3-2.4). Each block
 * runs the permutation on 16 locals (so the JIT keeps them in registers),
 * adds the input words back (the feed-forward of §2.3) and XORs the result
 * straight into `out` without materialising the keystream.
 */
function xorState(state: Uint32Array, doubleRounds: number, data: Uint8Array, out: Uint8Array): void {
  const len = data.length;
  if (len === 0) return;
  const s0 = state[0] | 0, s1 = state[1] | 0, s2 = state[2] | 0, s3 = state[3] | 0;
  const s4 = state[4] | 0, s5 = state[5] | 0, s6 = state[6] | 0, s7 = state[7] | 0;
  const s8 = state[8] | 0, s9 = state[9] | 0, s10 = state[10] | 0, s11 = state[11] | 0;
  const s14 = state[14] | 0, s15 = state[15] | 0;
  // Words 12 (low) and 13 (high) form one 64-bit block counter.
  // constant-time: public c12, c13: the block counter, which starts at the caller's counter and counts blocks.
  let c12 = state[12] | 0, c13 = state[13] | 0;

  // Whole blocks are XORed 4 bytes at a time: through Uint32Array views when both
  // arrays are 4-byte aligned (their words are host-order, so only on little-endian
  // hosts), else through DataViews (any alignment, explicit order). Measured on V8,
  // both beat byte access by ~1.5x per block, but creating the views costs about a
  // block, so inputs shorter than VIEW_MIN go byte by byte.
  let d32: Uint32Array | undefined, o32: Uint32Array | undefined;
  let dv: DataView | undefined, ov: DataView | undefined;
  if (len >= VIEW_MIN) {
    if (HOST_LE && ((data.byteOffset | out.byteOffset) & 3) === 0) {
      d32 = new Uint32Array(data.buffer, data.byteOffset, len >>> 2);
      o32 = out === data ? d32 : new Uint32Array(out.buffer, out.byteOffset, len >>> 2);
    } else {
      dv = new DataView(data.buffer, data.byteOffset, len);
      ov = out === data ? dv : new DataView(out.buffer, out.byteOffset, len);
    }
  }

  for (let pos = 0; pos < len; pos += 64) {
    let x0 = s0, x1 = s1, x2 = s2, x3 = s3, x4 = s4, x5 = s5, x6 = s6, x7 = s7;
    let x8 = s8, x9 = s9, x10 = s10, x11 = s11, x12 = c12, x13 = c13, x14 = s14, x15 = s15;
    for (let i = 0; i < doubleRounds; i++) {
      // Column round: QUARTERROUND(0,4,8,12) (1,5,9,13) (2,6,10,14) (3,7,11,15), §2.1 / §2.3.
      x0 = (x0 + x4) | 0; x12 ^= x0; x12 = (x12 << 16) | (x12 >>> 16);
      x8 = (x8 + x12) | 0; x4 ^= x8; x4 = (x4 << 12) | (x4 >>> 20);
      x0 = (x0 + x4) | 0; x12 ^= x0; x12 = (x12 << 8) | (x12 >>> 24);
      x8 = (x8 + x12) | 0; x4 ^= x8; x4 = (x4 << 7) | (x4 >>> 25);

      x1 = (x1 + x5) | 0; x13 ^= x1; x13 = (x13 << 16) | (x13 >>> 16);
      x9 = (x9 + x13) | 0; x5 ^= x9; x5 = (x5 << 12) | (x5 >>> 20);
      x1 = (x1 + x5) | 0; x13 ^= x1; x13 = (x13 << 8) | (x13 >>> 24);
      x9 = (x9 + x13) | 0; x5 ^= x9; x5 = (x5 << 7) | (x5 >>> 25);

      x2 = (x2 + x6) | 0; x14 ^= x2; x14 = (x14 << 16) | (x14 >>> 16);
      x10 = (x10 + x14) | 0; x6 ^= x10; x6 = (x6 << 12) | (x6 >>> 20);
      x2 = (x2 + x6) | 0; x14 ^= x2; x14 = (x14 << 8) | (x14 >>> 24);
      x10 = (x10 + x14) | 0; x6 ^= x10; x6 = (x6 << 7) | (x6 >>> 25);

      x3 = (x3 + x7) | 0; x15 ^= x3; x15 = (x15 << 16) | (x15 >>> 16);
      x11 = (x11 + x15) | 0; x7 ^= x11; x7 = (x7 << 12) | (x7 >>> 20);
      x3 = (x3 + x7) | 0; x15 ^= x3; x15 = (x15 << 8) | (x15 >>> 24);
      x11 = (x11 + x15) | 0; x7 ^= x11; x7 = (x7 << 7) | (x7 >>> 25);

      // Diagonal round: QUARTERROUND(0,5,10,15) (1,6,11,12) (2,7,8,13) (3,4,9,14).
      x0 = (x0 + x5) | 0; x15 ^= x0; x15 = (x15 << 16) | (x15 >>> 16);
      x10 = (x10 + x15) | 0; x5 ^= x10; x5 = (x5 << 12) | (x5 >>> 20);
      x0 = (x0 + x5) | 0; x15 ^= x0; x15 = (x15 << 8) | (x15 >>> 24);
      x10 = (x10 + x15) | 0; x5 ^= x10; x5 = (x5 << 7) | (x5 >>> 25);

      x1 = (x1 + x6) | 0; x12 ^= x1; x12 = (x12 << 16) | (x12 >>> 16);
      x11 = (x11 + x12) | 0; x6 ^= x11; x6 = (x6 << 12) | (x6 >>> 20);
      x1 = (x1 + x6) | 0; x12 ^= x1; x12 = (x12 << 8) | (x12 >>> 24);
      x11 = (x11 + x12) | 0; x6 ^= x11; x6 = (x6 << 7) | (x6 >>> 25);

      x2 = (x2 + x7) | 0; x13 ^= x2; x13 = (x13 << 16) | (x13 >>> 16);
      x8 = (x8 + x13) | 0; x7 ^= x8; x7 = (x7 << 12) | (x7 >>> 20);
      x2 = (x2 + x7) | 0; x13 ^= x2; x13 = (x13 << 8) | (x13 >>> 24);
      x8 = (x8 + x13) | 0; x7 ^= x8; x7 = (x7 << 7) | (x7 >>> 25);

      x3 = (x3 + x4) | 0; x14 ^= x3; x14 = (x14 << 16) | (x14 >>> 16);
      x9 = (x9 + x14) | 0; x4 ^= x9; x4 = (x4 << 12) | (x4 >>> 20);
      x3 = (x3 + x4) | 0; x14 ^= x3; x14 = (x14 << 8) | (x14 >>> 24);
      x9 = (x9 + x14) | 0; x4 ^= x9; x4 = (x4 << 7) | (x4 >>> 25);
    }
    // Feed-forward: add the input words (§2.3), which makes the block function one-way.
    x0 = (x0 + s0) | 0; x1 = (x1 + s1) | 0; x2 = (x2 + s2) | 0; x3 = (x3 + s3) | 0;
    x4 = (x4 + s4) | 0; x5 = (x5 + s5) | 0; x6 = (x6 + s6) | 0; x7 = (x7 + s7) | 0;
    x8 = (x8 + s8) | 0; x9 = (x9 + s9) | 0; x10 = (x10 + s10) | 0; x11 = (x11 + s11) | 0;
    x12 = (x12 + c12) | 0; x13 = (x13 + c13) | 0; x14 = (x14 + s14) | 0; x15 = (x15 + s15) | 0;

    if (len - pos >= 64) {
      if (o32 !== undefined && d32 !== undefined) {
        const w = pos >>> 2;
        o32[w] = d32[w] ^ x0; o32[w + 1] = d32[w + 1] ^ x1;
        o32[w + 2] = d32[w + 2] ^ x2; o32[w + 3] = d32[w + 3] ^ x3;
        o32[w + 4] = d32[w + 4] ^ x4; o32[w + 5] = d32[w + 5] ^ x5;
        o32[w + 6] = d32[w + 6] ^ x6; o32[w + 7] = d32[w + 7] ^ x7;
        o32[w + 8] = d32[w + 8] ^ x8; o32[w + 9] = d32[w + 9] ^ x9;
        o32[w + 10] = d32[w + 10] ^ x10; o32[w + 11] = d32[w + 11] ^ x11;
        o32[w + 12] = d32[w + 12] ^ x12; o32[w + 13] = d32[w + 13] ^ x13;
        o32[w + 14] = d32[w + 14] ^ x14; o32[w + 15] = d32[w + 15] ^ x15;
      } else if (ov !== undefined && dv !== undefined) {
        ov.setUint32(pos, dv.getUint32(pos, true) ^ x0, true);
        ov.setUint32(pos + 4, dv.getUint32(pos + 4, true) ^ x1, true);
        ov.setUint32(pos + 8, dv.getUint32(pos + 8, true) ^ x2, true);
        ov.setUint32(pos + 12, dv.getUint32(pos + 12, true) ^ x3, true);
        ov.setUint32(pos + 16, dv.getUint32(pos + 16, true) ^ x4, true);
        ov.setUint32(pos + 20, dv.getUint32(pos + 20, true) ^ x5, true);
        ov.setUint32(pos + 24, dv.getUint32(pos + 24, true) ^ x6, true);
        ov.setUint32(pos + 28, dv.getUint32(pos + 28, true) ^ x7, true);
        ov.setUint32(pos + 32, dv.getUint32(pos + 32, true) ^ x8, true);
        ov.setUint32(pos + 36, dv.getUint32(pos + 36, true) ^ x9, true);
        ov.setUint32(pos + 40, dv.getUint32(pos + 40, true) ^ x10, true);
        ov.setUint32(pos + 44, dv.getUint32(pos + 44, true) ^ x11, true);
        ov.setUint32(pos + 48, dv.getUint32(pos + 48, true) ^ x12, true);
        ov.setUint32(pos + 52, dv.getUint32(pos + 52, true) ^ x13, true);
        ov.setUint32(pos + 56, dv.getUint32(pos + 56, true) ^ x14, true);
        ov.setUint32(pos + 60, dv.getUint32(pos + 60, true) ^ x15, true);
      } else {
        xorLE32(data, out, pos, x0); xorLE32(data, out, pos + 4, x1);
        xorLE32(data, out, pos + 8, x2); xorLE32(data, out, pos + 12, x3);
        xorLE32(data, out, pos + 16, x4); xorLE32(data, out, pos + 20, x5);
        xorLE32(data, out, pos + 24, x6); xorLE32(data, out, pos + 28, x7);
        xorLE32(data, out, pos + 32, x8); xorLE32(data, out, pos + 36, x9);
        xorLE32(data, out, pos + 40, x10); xorLE32(data, out, pos + 44, x11);
        xorLE32(data, out, pos + 48, x12); xorLE32(data, out, pos + 52, x13);
        xorLE32(data, out, pos + 56, x14); xorLE32(data, out, pos + 60, x15);
      }
    } else {
      // Final partial block: keep the keystream words just long enough to use them.
      tail[0] = x0; tail[1] = x1; tail[2] = x2; tail[3] = x3;
      tail[4] = x4; tail[5] = x5; tail[6] = x6; tail[7] = x7;
      tail[8] = x8; tail[9] = x9; tail[10] = x10; tail[11] = x11;
      tail[12] = x12; tail[13] = x13; tail[14] = x14; tail[15] = x15;
      for (let i = 0; pos + i < len; i++) {
        out[pos + i] = data[pos + i] ^ (tail[i >>> 2] >>> ((i & 3) << 3));
      }
      tail.fill(0);
    }
    // Next block: 64-bit increment. The counter is public, so branching on it is fine.
    c12 = (c12 + 1) | 0;
    if (c12 === 0) c13 = (c13 + 1) | 0;
  }
}

/** ChachaEngine.xor: the input block of state.ts, then xorState. */
const xor: KeystreamXor = (key, nonce, counterLow, counterHigh, doubleRounds, data, out = new Uint8Array(data.length)) => {
  const state = inputBlock(key, nonce, counterLow, counterHigh);
  xorState(state, doubleRounds, data, out);
  state.fill(0);
  return out;
};

/**
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the ChaCha20 permutation of
 * (constants, key, nonce16) without the feed-forward, keeping words 0..3
 * and 12..15. Rather than a second copy of the rounds, it runs one keystream
 * block over zeros and subtracts the input words back out of those words.
 * `constants`: words 0..3 ("expand 32-byte k"; libsodium's
 * crypto_core_hchacha20 takes the caller's own).
 */
export function hchacha(key: Uint8Array, nonce16: Uint8Array, out: Uint8Array, constants: ArrayLike<number> = SIGMA): void {
  // The nonce's 16 bytes are words 12..15: counter word 12 then a 12-byte nonce.
  const state = inputBlock(key, nonce16.subarray(4, 16), readLE32(nonce16, 0) >>> 0, 0);
  for (let i = 0; i < 4; i++) state[i] = constants[i];
  const block = new Uint8Array(64);
  xorState(state, DOUBLE_ROUNDS, block, block);
  for (let i = 0; i < 4; i++) {
    writeLE32(out, 4 * i, readLE32(block, 4 * i) - state[i]);
    writeLE32(out, 16 + 4 * i, readLE32(block, 48 + 4 * i) - state[12 + i]);
  }
  block.fill(0);
  state.fill(0);
}

/** Sixteen zero bytes for pad16 (never written). */
const ZEROS = new Uint8Array(16);

/**
 * The RFC 8439 §2.8 tag is Poly1305 keyed with the first 32 bytes of
 * keystream block 0 (§2.6) over aad || pad16(aad) || ciphertext ||
 * pad16(ciphertext) || le64(aad.length) || le64(ciphertext.length). This
 * starts it (`state` has counter 0) and absorbs the aad, before any output
 * is written: an output may overlap the aad's memory (as in the simd tier,
 * which absorbs it first too).
 */
function macAad(state: Uint32Array, aad: Uint8Array): Poly1305State {
  const polyKey = new Uint8Array(32);
  xorState(state, DOUBLE_ROUNDS, polyKey, polyKey);
  const mac = jsPoly1305.create(polyKey);
  polyKey.fill(0);
  // pad16(x) is (16 - x.length mod 16) mod 16 zero bytes, i.e. -x.length & 15.
  mac.update(aad);
  mac.update(ZEROS.subarray(0, -aad.length & 15));
  return mac;
}

/** The rest of the tag: the ciphertext, its padding and the two lengths, into `tag`. */
function macFinish(mac: Poly1305State, aadLength: number, ciphertext: Uint8Array, tag: Uint8Array): void {
  mac.update(ciphertext);
  mac.update(ZEROS.subarray(0, -ciphertext.length & 15));
  mac.update(lengthBlock(aadLength, ciphertext.length));
  mac.digestInto(tag);
}

/** Input block for the AEAD (§2.8): counter word 12 = 0, nonce in 13..15. */
const aeadState = (key: Uint8Array, nonce12: Uint8Array): Uint32Array => inputBlock(key, nonce12, 0, 0);

/** AEAD_CHACHA20_POLY1305 encryption (§2.8): out = ciphertext || tag; `out` may start at `data`. */
function seal(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array, data: Uint8Array, out: Uint8Array = new Uint8Array(data.length + 16)): Uint8Array {
  const len = data.length;
  const state = aeadState(key, nonce12);
  const mac = macAad(state, aad);
  // Encryption starts at block counter 1; block 0 is reserved for the Poly1305 key (§2.8).
  state[12] = 1;
  const ciphertext = out.subarray(0, len);
  xorState(state, DOUBLE_ROUNDS, data, ciphertext);
  state.fill(0);
  macFinish(mac, aad.length, ciphertext, out.subarray(len, len + 16));
  return out;
}

/**
 * AEAD_CHACHA20_POLY1305 decryption (§2.8) from one read of the ciphertext:
 * a private copy, whose tag is checked in constant time and which is then
 * decrypted in place, so the plaintext is that of the bytes authenticated
 * whoever writes `ciphertext` meanwhile (a SharedArrayBuffer); `out` gets
 * it only once the tag verified.
 */
function open(
  key: Uint8Array,
  nonce12: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  out?: Uint8Array,
): Uint8Array | undefined {
  const copy = ciphertext.slice();
  const state = aeadState(key, nonce12);
  const expected = new Uint8Array(16);
  macFinish(macAad(state, aad), aad.length, copy, expected);
  const ok = equalBytes(expected, 0, tag, 0, 16);
  expected.fill(0);
  // Forgeries are not decrypted; whether the tag verified is public (it is the result).
  if (ok) {
    state[12] = 1;
    xorState(state, DOUBLE_ROUNDS, copy, copy);
  }
  state.fill(0);
  if (!ok) return undefined;
  if (out === undefined) return copy;
  out.set(copy);
  copy.fill(0);
  return out;
}

/**
 * XChaCha20 (draft-irtf-cfrg-xchacha-03 §2.3): a 24-byte nonce stands for
 * the HChaCha20 subkey of its first 16 bytes and a nonce of its last 8
 * (after 4 zero bytes where a 12-byte nonce is wanted). Other nonces pass
 * through unchanged.
 */
function extended<T>(key: Uint8Array, nonce: Uint8Array, nonceLength: 8 | 12, run: (key: Uint8Array, nonce: Uint8Array) => T): T {
  if (nonce.length !== 24) return run(key, nonce);
  const subkey = new Uint8Array(32);
  hchacha(key, nonce, subkey);
  const short = new Uint8Array(nonceLength);
  short.set(nonce.subarray(16), nonceLength - 8);
  try {
    return run(subkey, short);
  } finally {
    subkey.fill(0);
  }
}

export const jsChacha: ChachaEngine = {
  xor: (key, nonce, low, high, doubleRounds, data, out) =>
    extended(key, nonce, 8, (k, n) => xor(k, n, low, high, doubleRounds, data, out)),
  hchacha,
  seal: (key, nonce, aad, data, out) => extended(key, nonce, 12, (k, n) => seal(k, n, aad, data, out)),
  open: (key, nonce, aad, ciphertext, tag, out) => extended(key, nonce, 12, (k, n) => open(k, n, aad, ciphertext, tag, out)),
};
