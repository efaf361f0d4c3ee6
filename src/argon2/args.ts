/**
 * What every Argon2 entry point shares: its arguments checked against
 * RFC 9106 §3.1's limits, the memory bound, and the two cheap ends of §3.2,
 * H0 and the variable-length hash H' on BLAKE2b: fourfold/blake2's js tier
 * (checked against RFC 7693 and @noble/hashes in test/blake2), which a page
 * of Argon2 and generichash then holds once, where @noble/hashes' BLAKE2b
 * beside it cost fourfold/sodium's pages 2 KB of gzip. These hash a few
 * hundred bytes a call (H' a 1 KiB block as 64-byte links), so the kernel
 * would not pay for its compile. The work in between, filling the memory
 * (§3.2 steps 5-6), is the engines' (engine.ts).
 */
import { type Argon2Type, BLOCK, type Shape, shapeOf, TYPES } from './layout.js';
import { jsBlake2b } from '../blake2/js.js';
import { IV_BYTES } from '../blake2/layout.js';
import * as check from '../runtime/assert.js';
import { type Bytes, joined, zeroize } from '../runtime/bytes.js';

/** Argon2's parameters (RFC 9106 §3.1), the names of @noble/hashes' argon2. Any other property is refused (TypeError). */
export interface Argon2Opts {
  /** Passes over the memory (the time cost): from 1. OWASP asks for 2 at 19 MiB; RFC 9106 for 3 at 64 MiB. */
  t: number;
  /** Memory in KiB: from 8 * p. It is rounded down to a multiple of 4 * p blocks of 1 KiB (§3.2 step 4). */
  m: number;
  /** Lanes (the parallelism): from 1 to 2^24 - 1, default 1. fourfold/parallel's argon2id runs them on several cores. */
  p?: number;
  /** Bytes of tag to derive: from 4, default 32. */
  dkLen?: number;
  /** RFC 9106's secret value K (a pepper), default none. */
  key?: string | Uint8Array;
  /** RFC 9106's associated data X, default none. */
  personalization?: string | Uint8Array;
  /** 0x13 (RFC 9106's, the default) or 0x10, the version before it. */
  version?: number;
  /**
   * The most memory the call may use, in bytes, checked before any is
   * allocated. By default MAXMEM (1 GiB and 64 KiB): parameters from
   * elsewhere (a stored hash) cannot make a call take more of the machine
   * than that unless the caller raises it.
   */
  maxmem?: number;
}

/** The asynchronous calls' options: Argon2Opts', progress, cancellation and the length of a turn. */
export interface Argon2AsyncOpts extends Argon2Opts {
  /** Called with the fraction of the work done, from 0 to 1, a few hundred times a second at most; 1 exactly once, at the end. */
  onProgress?: (fraction: number) => void;
  /** Stops the call: it rejects with the signal's reason, and wipes what it held. */
  signal?: AbortSignal;
  /** Milliseconds of work between two turns of the event loop (default 8; @noble/hashes' name). */
  asyncTick?: number;
}

/** The default bound on a call's memory: 1 GiB of blocks, with room to spare. */
export const MAXMEM = 2 ** 30 + 2 ** 16;

/** Every length and count RFC 9106 §3.1 bounds is below 2^32. */
const MAX32 = 2 ** 32 - 1;

export type { Argon2Type } from './layout.js';

export const SYNC_OPTIONS = ['t', 'm', 'p', 'dkLen', 'key', 'personalization', 'version', 'maxmem'] as const;
export const ASYNC_OPTIONS = [...SYNC_OPTIONS, 'onProgress', 'signal', 'asyncTick'] as const;

/** A call's checked arguments: copies of every byte string (a caller's array may change during an await), wiped at the end. */
export interface Argon2Call extends Shape {
  readonly type: Argon2Type;
  readonly password: Uint8Array;
  readonly salt: Uint8Array;
  readonly key: Uint8Array;
  readonly personalization: Uint8Array;
  /** The memory asked for, m, before rounding (it goes into H0 as given). */
  readonly m: number;
  readonly dkLen: number;
  readonly maxmem: number;
  readonly onProgress?: (fraction: number) => void;
  readonly signal?: AbortSignal;
  readonly tickMs: number;
}

/** Text as its UTF-8 bytes, or bytes copied. */
function textOrBytes(value: unknown, name: string): Uint8Array {
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (typeof value === 'object' && value !== null) return check.bytes(value, name).slice();
  throw new TypeError(`${name} must be a string or a Uint8Array, got ${check.describe(value)}`);
}

/**
 * Copies of the byte strings (text as UTF-8), each at most 2^32 - 1 bytes
 * (RFC 9106 §3.1); the copies made so far are wiped if one is refused.
 */
function copies(values: [string, unknown][]): Uint8Array[] {
  const made: Uint8Array[] = [];
  try {
    for (const [name, value] of values) {
      const b = textOrBytes(value, name);
      made.push(b);
      if (b.length > MAX32) throw new RangeError(`${name} must be at most 2^32 - 1 bytes (RFC 9106 §3.1)`);
    }
    return made;
  } catch (e) {
    for (const b of made) zeroize(b);
    throw e;
  }
}

/** An integer option from `min` to `max`. */
function integer(value: unknown, name: string, min: number, max: number, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new TypeError(`opts.${name} is required (${name === 't' ? 'passes, such as 2' : 'memory in KiB, such as 19456'})`);
  const n = check.count(value, name);
  if (n < min || n > max) throw new RangeError(`${name} must be an integer from ${min} to ${max} (RFC 9106 §3.1), got ${n}`);
  return n;
}

/** `bytes` for a person: "19 MiB", "1.0 GiB". */
function size(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)} MiB`;
  return `${Math.round(bytes / 2 ** 10)} KiB`;
}

/** The call's arguments, checked and copied; `known` names the options its entry point takes. */
export function argon2Call(type: Argon2Type, password: unknown, salt: unknown, opts: unknown, known: readonly string[]): Argon2Call {
  if (opts === undefined) throw new TypeError('opts must be an object with t (passes) and m (memory in KiB), got undefined');
  // Each option read once, before any work.
  const o = check.options(opts, 'opts', known) as Argon2AsyncOpts;
  const { t: tOpt, m: mOpt, p: pOpt, dkLen: dkOpt, key, personalization, version: vOpt, maxmem: memOpt, onProgress, signal, asyncTick } = o;
  const p = integer(pOpt, 'p', 1, 2 ** 24 - 1, 1);
  const t = integer(tOpt, 't', 1, MAX32);
  const m = integer(mOpt, 'm', 8 * p, MAX32);
  const dkLen = integer(dkOpt, 'dkLen', 4, MAX32, 32);
  const version = vOpt === undefined ? 0x13 : check.count(vOpt, 'version');
  if (version !== 0x13 && version !== 0x10) throw new RangeError(`version must be 0x13 (19) or 0x10 (16), got ${version}`);
  const maxmem = memOpt === undefined ? MAXMEM : check.count(memOpt, 'maxmem');
  const shape = shapeOf(m, p, t, version);
  const needs = shape.blocks * BLOCK;
  if (needs > maxmem) throw new RangeError(`argon2: m = ${m} KiB needs ${size(needs)}, above maxmem (${size(maxmem)}); raise maxmem if this is meant`);
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`onProgress must be a function, got ${check.describe(onProgress)}`);
  if (signal !== undefined) check.abortSignal(signal, 'signal');
  const tickMs = asyncTick === undefined ? 8 : integer(asyncTick, 'asyncTick', 1, 1000);
  const strings = copies([
    ['password', password],
    ['salt', salt],
    ['key', key === undefined ? '' : key],
    ['personalization', personalization === undefined ? '' : personalization],
  ]);
  const [pw, saltBytes, keyBytes, ad] = strings;
  const call: Argon2Call = { ...shape, type, m, dkLen, maxmem, onProgress, signal, tickMs, password: pw, salt: saltBytes, key: keyBytes, personalization: ad };
  if (saltBytes.length < 8) {
    forget(call);
    throw new RangeError(`salt must be at least 8 bytes (16 random bytes are RFC 9106's advice), got ${saltBytes.length}`);
  }
  return call;
}

const le32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};

/**
 * Unkeyed BLAKE2b (RFC 7693) of `parts` one after another: `length` bytes
 * (1..64). The parts are joined into one array, wiped after (it holds the
 * password, or a block derived from it).
 */
function blake2b(length: number, parts: readonly Uint8Array[]): Uint8Array {
  // h0: the IV XOR the parameter block's first word (§2.5): digest length, no key, fanout 1, depth 1.
  const h0 = IV_BYTES.slice();
  h0[0] ^= length;
  h0[2] ^= 1;
  h0[3] ^= 1;
  const data = joined(parts);
  try {
    return jsBlake2b.hash(h0, undefined, data, length);
  } finally {
    zeroize(data);
  }
}

/** H0 (RFC 9106 §3.2 step 1): BLAKE2b-512 of the parameters and the four byte strings, each after its length. */
export function initialHash(c: Argon2Call): Uint8Array {
  const parts = [c.p, c.dkLen, c.m, c.t, c.version, TYPES[c.type]].map(le32);
  for (const b of [c.password, c.salt, c.key, c.personalization]) parts.push(le32(b.length), b);
  return blake2b(64, parts);
}

/**
 * H'^T(input) (RFC 9106 §3.3): BLAKE2b of LE32(T) || input when T <= 64;
 * else a chain of BLAKE2b-512, taking 32 bytes of each but the last, whose
 * output has the T - 32r bytes left.
 */
export function variableHash(T: number, ...input: Uint8Array[]): Uint8Array {
  let v = blake2b(Math.min(T, 64), [le32(T), ...input]);
  if (T <= 64) return v;
  const out = new Uint8Array(T);
  const r = Math.ceil(T / 32) - 2;
  out.set(v.subarray(0, 32), 0);
  for (let i = 1; i < r; i++) {
    const next = blake2b(64, [v]);
    zeroize(v);
    v = next;
    out.set(v.subarray(0, 32), 32 * i);
  }
  const last = blake2b(T - 32 * r, [v]);
  zeroize(v);
  out.set(last, 32 * r);
  zeroize(last);
  return out;
}

/** B[lane][column] for columns 0 and 1 (§3.2 steps 3-4): H'^1024(H0 || LE32(column) || LE32(lane)). */
export function firstBlock(h0: Uint8Array, lane: number, column: 0 | 1): Uint8Array {
  return variableHash(BLOCK, h0, le32(column), le32(lane));
}

/** The tag (§3.2 steps 7-8): H'^T of C, the XOR of every lane's last block. */
export function tag(c: Argon2Call, last: Uint8Array): Bytes {
  return variableHash(c.dkLen, last) as Bytes;
}

/** Wipes the call's copies of its byte strings (every way a call ends). */
export function forget(c: Argon2Call): void {
  zeroize(c.password);
  zeroize(c.salt);
  zeroize(c.key);
  zeroize(c.personalization);
}
