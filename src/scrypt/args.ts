/**
 * What every scrypt entry point shares: its arguments checked as RFC 7914
 * §2 asks, the memory bound, and the two cheap ends of §6, PBKDF2-HMAC-
 * SHA-256 with one iteration, on @noble/hashes' HMAC-SHA-256 (audited, and
 * not fourfold's kernels' work). The work in between, ROMix of each of the
 * p lanes, is the engines' (engine.ts).
 */
import { slotBytes } from './layout.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import * as check from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';

/** scrypt's parameters (RFC 7914 §2), the names of @noble/hashes' and Node's. Any other property is refused (TypeError). */
export interface ScryptOpts {
  /**
   * The CPU and memory cost: a power of two from 2 (and below 2^(16r), as
   * RFC 7914 §2 asks). Each lane holds 128 * r * N bytes: N = 2^17 with
   * r = 8 is 128 MiB. docs/api.md#choosing-n says how to choose it.
   */
  N: number;
  /** The block size (default 8, as everyone uses): each step mixes 128 * r bytes. */
  r?: number;
  /** Parallelism (default 1): independent lanes, each of N and r; fourfold/parallel's scrypt runs them on several cores. */
  p?: number;
  /** Bytes of key to derive (default 32): from 1 to (2^32 - 1) * 32. */
  dkLen?: number;
  /**
   * The most memory the call may use, in bytes: 128 * r * (N + p + 2) for
   * one lane at a time. By default MAXMEM (1 GiB and 64 KiB), which allows
   * N = 2^20 with r = 8 (libsodium's "sensitive" limit) and no more:
   * parameters from elsewhere (a file's header) cannot make a call take
   * more of the machine than that unless the caller raises it.
   */
  maxmem?: number;
}

/** scryptAsync's options: ScryptOpts', and progress and cancellation. */
export interface ScryptAsyncOpts extends ScryptOpts {
  /** Called with the fraction of the work done, from 0 to 1, a few hundred times a second at most; 1 exactly once, at the end. */
  onProgress?: (fraction: number) => void;
  /** Stops the call: it rejects with the signal's reason, and wipes what it held. */
  signal?: AbortSignal;
}

/** The default bound on a call's memory: N = 2^20 with r = 8 and p = 1 (1 GiB for V), with room to spare. */
export const MAXMEM = 2 ** 30 + 2 ** 16;

/** dkLen's bound, RFC 7914 §2: (2^32 - 1) * hLen, hLen = 32 for SHA-256. */
const MAX_DKLEN = (2 ** 32 - 1) * 32;

export const SYNC_OPTIONS = ['N', 'r', 'p', 'dkLen', 'maxmem'] as const;
export const ASYNC_OPTIONS = [...SYNC_OPTIONS, 'onProgress', 'signal'] as const;

/** A call's checked arguments: copies of the password and salt (a caller's array may change during an await), wiped at the end. */
export interface ScryptCall {
  readonly password: Uint8Array;
  readonly salt: Uint8Array;
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly dkLen: number;
  readonly maxmem: number;
  readonly onProgress?: (fraction: number) => void;
  readonly signal?: AbortSignal;
}

/** Text as its UTF-8 bytes, or bytes copied. */
function textOrBytes(value: unknown, name: string): Uint8Array {
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (typeof value === 'object' && value !== null) return check.bytes(value, name).slice();
  throw new TypeError(`${name} must be a string or a Uint8Array, got ${check.describe(value)}`);
}

/** A positive integer option, at most `max`. */
function positive(value: unknown, name: string, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = check.count(value, name);
  if (n < 1 || n > max) throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${n}`);
  return n;
}

/** `bytes` for a person: "128 MiB", "1.0 GiB", "512 bytes". */
export function size(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)} MiB`;
  if (bytes >= 2 ** 10) return `${Math.round(bytes / 2 ** 10)} KiB`;
  return `${bytes} bytes`;
}

/** The cost N: a power of two from 2, below 2^(16r) (RFC 7914 §2). */
function cost(value: unknown, r: number): number {
  if (value === undefined) throw new TypeError('opts.N (the cost, a power of two such as 2 ** 17) is required');
  const N = check.count(value, 'N');
  if (N < 2 || 2 ** Math.round(Math.log2(N)) !== N) throw new RangeError(`N must be a power of two from 2, got ${N}`);
  if (16 * r < 53 && N >= 2 ** (16 * r)) throw new RangeError(`N must be below 2^(16 * r) = 2^${16 * r} (RFC 7914 §2), got ${N}`);
  return N;
}

/** Bytes a call holds with `lanes` lanes' ROMix at once: their slots (layout.ts) and the p lanes' B. */
export const memoryOf = (N: number, r: number, p: number, lanes: number): number => slotBytes(r) * (lanes * (N + 2) + p);

/** The call's arguments, checked and copied; `known` names the options its entry point takes. */
export function scryptCall(password: unknown, salt: unknown, opts: unknown, known: readonly string[]): ScryptCall {
  if (opts === undefined) throw new TypeError('opts must be an object with N (the cost), got undefined');
  // Each option read once, before any work.
  const o = check.options(opts, 'opts', known) as ScryptAsyncOpts;
  const { N: n, r: rOpt, p: pOpt, dkLen: dkOpt, maxmem: memOpt, onProgress, signal } = o;
  const r = positive(rOpt, 'r', 2 ** 30 - 1, 8);
  const p = positive(pOpt, 'p', 2 ** 30 - 1, 1);
  if (r * p >= 2 ** 30) throw new RangeError(`r * p must be below 2^30 (RFC 7914 §2), got ${r} * ${p}`);
  const N = cost(n, r);
  const dkLen = positive(dkOpt, 'dkLen', MAX_DKLEN, 32);
  const maxmem = memOpt === undefined ? MAXMEM : check.count(memOpt, 'maxmem');
  const needs = memoryOf(N, r, p, 1);
  if (needs > maxmem) {
    throw new RangeError(
      `scrypt: N = ${N} and r = ${r} need ${size(needs)} (128 * r * (N + p + 2) bytes), above maxmem (${size(maxmem)}); raise maxmem if this is meant`,
    );
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`onProgress must be a function, got ${check.describe(onProgress)}`);
  if (signal !== undefined) check.abortSignal(signal, 'signal');
  return { password: textOrBytes(password, 'password'), salt: textOrBytes(salt, 'salt'), N, r, p, dkLen, maxmem, onProgress, signal };
}

/**
 * A call by libsodium's rules (crypto_pwhash_scryptsalsa208sha256_ll):
 * N a power of two from 2 up to 2^32 - 1, r and p from 1 with r * p below
 * 2^30, any dkLen (0 included: escrypt_kdf derives, then copies no bytes);
 * unlike RFC 7914 §2, N may reach 2^(16r) (libsodium derives with N = 2^16
 * and r = 1). The password and salt are copied.
 * Throws Error('invalid usage'), libsodium's answer, for the rest.
 */
export function libsodiumCall(password: Uint8Array, salt: Uint8Array, N: number, r: number, p: number, dkLen: number): ScryptCall {
  if (N < 2 || N > 2 ** 32 - 1 || 2 ** Math.round(Math.log2(N)) !== N || r < 1 || p < 1 || r * p >= 2 ** 30 || dkLen > MAX_DKLEN)
    throw new Error('invalid usage');
  const maxmem = memoryOf(N, r, p, 1);
  return { password: password.slice(), salt: salt.slice(), N, r, p, dkLen, maxmem };
}

/**
 * PBKDF2-HMAC-SHA-256 with one iteration, all scrypt asks of it (RFC 8018
 * §5.2 with c = 1: T_i = U_1 = HMAC(P, S || INT(i)), the output T_1 ||
 * T_2 || ... cut to `dkLen` bytes). Written here rather than imported:
 * @noble/hashes' pbkdf2, for any count, cost a page 0.5 KB of gzip.
 */
function pbkdf2Once(password: Uint8Array, salt: Uint8Array, dkLen: number): Uint8Array {
  const out = new Uint8Array(dkLen);
  const salted = hmac.create(sha256, password).update(salt);
  const counter = new Uint8Array(4);
  const t = new Uint8Array(32);
  try {
    for (let i = 1, at = 0; at < dkLen; i++, at += t.length) {
      new DataView(counter.buffer).setUint32(0, i);
      // digestInto destroys (wipes) the clone; `salted` is wiped below.
      salted.clone().update(counter).digestInto(t);
      out.set(t.subarray(0, Math.min(t.length, dkLen - at)), at);
    }
  } finally {
    salted.destroy();
    t.fill(0);
  }
  return out;
}

/** RFC 7914 §6 step 1: B = PBKDF2-HMAC-SHA-256(P, S, 1, p * 128 * r), the p lanes' inputs one after the other. */
export function expand(c: ScryptCall): Uint8Array {
  return pbkdf2Once(c.password, c.salt, c.p * slotBytes(c.r));
}

/** §6 step 3: DK = PBKDF2-HMAC-SHA-256(P, B', 1, dkLen). */
export function compress(c: ScryptCall, mixed: Uint8Array): Bytes {
  return pbkdf2Once(c.password, mixed, c.dkLen) as Bytes;
}

/** Wipes the call's copies of the password and salt, and B when it was made (every way a call ends). */
export function forget(c: ScryptCall, B?: Uint8Array): void {
  zeroize(c.password);
  zeroize(c.salt);
  if (B !== undefined) zeroize(B);
}
