/**
 * SHA-256 (FIPS 180-4), HMAC-SHA-256 (RFC 2104) and HKDF-SHA-256 (RFC
 * 5869) in plain JavaScript: age's key derivations (sha256.ts) where the
 * runtime has no node:crypto. Keys and messages here are a few hundred
 * bytes (a header, a key), so a small, synchronous implementation serves,
 * with no module to import first: a page that writes and reads age files
 * loads about 1 KB of gzip for it, against some 7 KB for @noble/hashes'
 * SHA-2, HMAC and HKDF modules. Its work depends on lengths only, never on
 * the bytes: no branch or table index is secret.
 */
import type { Sha256Kdf } from '../runtime/native.js';
import { zeroize } from '../runtime/bytes.js';

const isPrime = (n: number): boolean => {
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
};

/**
 * The first 32 bits of the fractional parts of the `power`th roots of the
 * first `count` primes, exactly (an integer root of p * 2^(32 * power), the
 * floating-point root only its first guess): FIPS 180-4 §4.2.2's K (cube
 * roots of 64 primes) and §5.3.3's initial hash value (square roots of 8).
 */
function rootBits(count: number, power: 2 | 3): Uint32Array {
  const words = new Uint32Array(count);
  const raised = (x: bigint): bigint => (power === 2 ? x * x : x * x * x);
  for (let p = 2, i = 0; i < count; p++) {
    if (!isPrime(p)) continue;
    const n = BigInt(p) << BigInt(32 * power);
    let x = BigInt(Math.floor(p ** (1 / power) * 2 ** 32));
    while (raised(x) > n) x--;
    while (raised(x + 1n) <= n) x++;
    words[i++] = Number(x & 0xffffffffn);
  }
  return words;
}

let K: Uint32Array | undefined;
let IV: Uint32Array | undefined;

/** FIPS 180-4 §6.2.2: `state` through the first `count` 64-byte blocks of `block`, `w` the message schedule. */
function compress(state: Uint32Array, w: Uint32Array, block: Uint8Array, count: number): void {
  const k = (K ??= rootBits(64, 3));
  for (let b = 0; b < count; b++) {
    for (let t = 0; t < 16; t++) {
      const i = 64 * b + 4 * t;
      w[t] = (block[i]! << 24) | (block[i + 1]! << 16) | (block[i + 2]! << 8) | block[i + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let a = state[0]!;
    let bb = state[1]!;
    let c = state[2]!;
    let d = state[3]!;
    let e = state[4]!;
    let f = state[5]!;
    let g = state[6]!;
    let h = state[7]!;
    for (let t = 0; t < 64; t++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + k[t]! + w[t]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) | 0;
    }
    state[0]! += a;
    state[1]! += bb;
    state[2]! += c;
    state[3]! += d;
    state[4]! += e;
    state[5]! += f;
    state[6]! += g;
    state[7]! += h;
  }
}

/** SHA-256 of the concatenation of `parts` (FIPS 180-4 §5.1.1's padding, then §6.2). */
export function sha256(...parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((n, p) => n + p.length, 0);
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian): whole 64-byte blocks.
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  let at = 0;
  for (const p of parts) {
    padded.set(p, at);
    at += p.length;
  }
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 2 ** 29));
  view.setUint32(padded.length - 4, length * 8);
  const state = (IV ??= rootBits(8, 2)).slice();
  const w = new Uint32Array(64);
  compress(state, w, padded, padded.length / 64);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, state[i]!);
  zeroize(padded);
  zeroize(w);
  state.fill(0);
  return out;
}

/** HMAC-SHA-256 (RFC 2104 §2) of the concatenation of `message`'s parts under `key`. */
function hmac(key: Uint8Array, ...message: Uint8Array[]): Uint8Array {
  const block = new Uint8Array(64);
  if (key.length > 64) {
    const hashed = sha256(key);
    block.set(hashed);
    zeroize(hashed);
  } else block.set(key);
  for (let i = 0; i < 64; i++) block[i]! ^= 0x36;
  const inner = sha256(block, ...message);
  // The outer pad: 0x5c where the inner one had 0x36.
  for (let i = 0; i < 64; i++) block[i]! ^= 0x36 ^ 0x5c;
  const out = sha256(block, inner);
  zeroize(block);
  zeroize(inner);
  return out;
}

/** HKDF-SHA-256 (RFC 5869 §2.2, §2.3): `length` bytes (255 * 32 at most) from `ikm`, `salt` (empty: HashLen zeros, the same HMAC key) and `info`. */
function hkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Uint8Array {
  if (length > 255 * 32) throw new RangeError(`HKDF-SHA-256 gives at most ${255 * 32} bytes, not ${length}`);
  const prk = hmac(salt, ikm);
  const out = new Uint8Array(length);
  let t: Uint8Array = new Uint8Array(0);
  for (let i = 1, at = 0; at < length; i++, at += 32) {
    const next = hmac(prk, t, info, Uint8Array.of(i));
    zeroize(t);
    t = next;
    out.set(t.subarray(0, length - at), at);
  }
  zeroize(t);
  zeroize(prk);
  return out;
}

/** The three as sha256.ts takes them. */
export const jsSha256: Sha256Kdf = { hkdf, hmac: (key, message) => hmac(key, message) };
