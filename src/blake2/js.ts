/**
 * The pure-JavaScript BLAKE2b tier (RFC 7693). Its outputs must match the
 * 'simd' tier byte for byte.
 *
 * JavaScript has no fast 64-bit integer, so each word is two 32-bit
 * halves (low, high) in Uint32Arrays: the work vector v, the message m
 * and the state h. Each block's 16 message words are read from the input
 * once, into m, before the rounds: the rounds never read the caller's
 * bytes, which another thread may be changing. Carries come from the
 * halves' top bits (no comparison, no division), so no operation's time
 * depends on the data. Every buffer that held state, message or key is
 * zeroed before a call returns.
 */
import type { Blake2bEngine, Blake2bState } from './engine.js';
import { BLOCK, IV_BYTES, ROUNDS, SCHEDULE } from './layout.js';
import { readLE32, writeLE32, zeroize } from '../runtime/bytes.js';

/** The work vector: v[2i] the low half of word i, v[2i + 1] its high half. */
const v = new Uint32Array(32);
/** The message block's words, halves as in v. */
const m = new Uint32Array(32);
/** The state h, halves as in v. */
const hw = new Uint32Array(16);
/** The IV's halves. */
const iv = new Uint32Array(16);
for (let i = 0; i < 16; i++) iv[i] = readLE32(IV_BYTES, 4 * i);
/** The final block, zero-padded, when it is shorter than a block. */
const tail = new Uint8Array(BLOCK);
const TWO32 = 0x100000000;

/**
 * The mixing function G (RFC 7693 §3.1) on words a, b, c, d of v with
 * message words x and y; rotations by 32, 24, 16 and 63 on the halves.
 */
function mix(a: number, b: number, c: number, d: number, x: number, y: number): void {
  let al = v[2 * a] | 0,
    ah = v[2 * a + 1] | 0,
    bl = v[2 * b] | 0,
    bh = v[2 * b + 1] | 0;
  let cl = v[2 * c] | 0,
    ch = v[2 * c + 1] | 0,
    dl = v[2 * d] | 0,
    dh = v[2 * d + 1] | 0;
  const xl = m[2 * x] | 0,
    xh = m[2 * x + 1] | 0,
    yl = m[2 * y] | 0,
    yh = m[2 * y + 1] | 0;
  let s = 0;
  let t = 0;
  // a = a + b + x
  s = (al + bl) | 0;
  ah = (ah + bh + (((al & bl) | ((al | bl) & ~s)) >>> 31)) | 0;
  al = s;
  s = (al + xl) | 0;
  ah = (ah + xh + (((al & xl) | ((al | xl) & ~s)) >>> 31)) | 0;
  al = s;
  // d = (d ^ a) >>> 32
  t = dl ^ al;
  dl = dh ^ ah;
  dh = t;
  // c = c + d
  s = (cl + dl) | 0;
  ch = (ch + dh + (((cl & dl) | ((cl | dl) & ~s)) >>> 31)) | 0;
  cl = s;
  // b = (b ^ c) >>> 24
  bl ^= cl;
  bh ^= ch;
  t = (bl >>> 24) | (bh << 8);
  bh = (bh >>> 24) | (bl << 8);
  bl = t;
  // a = a + b + y
  s = (al + bl) | 0;
  ah = (ah + bh + (((al & bl) | ((al | bl) & ~s)) >>> 31)) | 0;
  al = s;
  s = (al + yl) | 0;
  ah = (ah + yh + (((al & yl) | ((al | yl) & ~s)) >>> 31)) | 0;
  al = s;
  // d = (d ^ a) >>> 16
  dl ^= al;
  dh ^= ah;
  t = (dl >>> 16) | (dh << 16);
  dh = (dh >>> 16) | (dl << 16);
  dl = t;
  // c = c + d
  s = (cl + dl) | 0;
  ch = (ch + dh + (((cl & dl) | ((cl | dl) & ~s)) >>> 31)) | 0;
  cl = s;
  // b = (b ^ c) >>> 63, a rotation left by 1
  bl ^= cl;
  bh ^= ch;
  t = (bl << 1) | (bh >>> 31);
  bh = (bh << 1) | (bl >>> 31);
  bl = t;
  v[2 * a] = al;
  v[2 * a + 1] = ah;
  v[2 * b] = bl;
  v[2 * b + 1] = bh;
  v[2 * c] = cl;
  v[2 * c + 1] = ch;
  v[2 * d] = dl;
  v[2 * d + 1] = dh;
}

/**
 * The compression F (RFC 7693 §3.2) of the block at data[at, at + 128)
 * into hw, the counter t being the bytes compressed with it, and `last`
 * whether it is the final block (a public fact: the input's length).
 */
function compress(data: Uint8Array, at: number, t: number, last: boolean): void {
  for (let i = 0; i < 32; i++) m[i] = readLE32(data, at + 4 * i);
  for (let i = 0; i < 16; i++) {
    v[i] = hw[i];
    v[16 + i] = iv[i];
  }
  v[24] ^= t >>> 0;
  v[25] ^= Math.floor(t / TWO32);
  if (last) {
    v[28] = ~v[28];
    v[29] = ~v[29];
  }
  for (let r = 0; r < ROUNDS; r++) {
    const s = SCHEDULE[r % 10];
    mix(0, 4, 8, 12, s[0], s[1]);
    mix(1, 5, 9, 13, s[2], s[3]);
    mix(2, 6, 10, 14, s[4], s[5]);
    mix(3, 7, 11, 15, s[6], s[7]);
    mix(0, 5, 10, 15, s[8], s[9]);
    mix(1, 6, 11, 12, s[10], s[11]);
    mix(2, 7, 8, 13, s[12], s[13]);
    mix(3, 4, 9, 14, s[14], s[15]);
  }
  for (let i = 0; i < 16; i++) hw[i] ^= v[i] ^ v[16 + i];
}

/** Whole blocks of `data` (its length a multiple of 128), none final, after `t` bytes; returns the new count. */
function blocks(data: Uint8Array, t: number): number {
  for (let at = 0; at < data.length; at += BLOCK) compress(data, at, (t += BLOCK), false);
  return t;
}

/** `last` (0..128 bytes) as the final block, after `t` bytes. */
function final(last: Uint8Array, t: number): void {
  tail.set(last);
  compress(tail, 0, t + last.length, true);
}

const readState = (h: Uint8Array): void => {
  for (let i = 0; i < 16; i++) hw[i] = readLE32(h, 4 * i);
};

const writeState = (h: Uint8Array): void => {
  for (let i = 0; i < 16; i++) writeLE32(h, 4 * i, hw[i]);
};

/** The first `length` bytes of hw, little-endian. */
function digestOf(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = hw[i >>> 2] >>> (8 * (i & 3));
  return out;
}

function wipe(): void {
  zeroize(v);
  zeroize(m);
  zeroize(hw);
  zeroize(tail);
}

export const jsBlake2b: Blake2bEngine = {
  hash(h0, key, data, length) {
    try {
      readState(h0);
      const n = data.length;
      if (key !== undefined && n === 0) {
        // The key block is the input's only block, so its last.
        final(key, 0);
      } else {
        const t = key === undefined ? 0 : blocks(key, 0);
        const whole = n > 0 ? n - 1 - ((n - 1) % BLOCK) : 0;
        final(data.subarray(whole), blocks(data.subarray(0, whole), t));
      }
      return digestOf(length);
    } finally {
      wipe();
    }
  },

  update(state, data, head) {
    try {
      readState(state.h);
      if (head !== undefined) state.t = blocks(head, state.t);
      state.t = blocks(data, state.t);
      writeState(state.h);
    } finally {
      wipe();
    }
  },

  finish(state: Blake2bState, last) {
    try {
      readState(state.h);
      final(last, state.t);
      state.t += last.length;
      writeState(state.h);
    } finally {
      wipe();
    }
  },
};
