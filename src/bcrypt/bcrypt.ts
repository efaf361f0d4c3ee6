/**
 * bcrypt password hashes (Provos and Mazieres, "A Future-Adaptable
 * Password Scheme", 1999), as OpenBSD's bcrypt.c checks them, and as
 * bcryptjs, node's bcrypt, PHP's password_hash ($2y$) and Go's
 * x/crypto/bcrypt write them:
 *
 *   $2b$<cost>$<salt: 22 characters><hash: 31 characters>
 *
 * in bcrypt's own base64 (./A-Za-z0-9, no padding). The hash is
 * "OrpheanBeholderScryDoubt" encrypted 64 times with Blowfish set up by
 * EksBlowfish: the salt and the key (the password's UTF-8 bytes and a NUL,
 * the first 72 bytes of them; a string's bytes as bcryptjs takes them, an
 * unpaired surrogate its own three) mixed into the state, then 2^cost rounds of
 * the key schedule with the key and with the salt. The rounds run in
 * short turns that leave the event loop free. Of the variants, $2a$, $2b$
 * and $2y$ compute the same hash (they differ in C implementations'
 * handling of passwords of 255 bytes or more, which hash as their first
 * 72 here, as bcryptjs and OpenBSD now do); $2x$ (crypt_blowfish's
 * sign-extension bug) and $2$ (no NUL) are refused.
 *
 * The string is read by bcrypt-string.ts. Blowfish looks up its S-boxes
 * by key bytes, as every bcrypt does (blowfish.ts).
 */
import { blowfishEncrypt, blowfishExpand, type BlowfishState, initialState } from './blowfish.js';
import { sharedTicker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import { type BcryptString, HASH_BYTES } from './bcrypt-string.js';
import { type Bytes, equalBytes, within, zeroize } from '../runtime/bytes.js';
import { now } from '../runtime/host.js';

/** The key schedule reads 18 words of key: 72 bytes, the NUL included when the password is shorter. */
const KEY_BYTES = 72;

/** All ones when `n` is `k`, else 0, without a branch. */
const is = (n: number, k: number): number => within(n, k, k);

/**
 * The first KEY_BYTES bytes of `password` as bcryptjs encodes a string,
 * and their count (all of the password's, up to KEY_BYTES): UTF-8, each
 * surrogate pair as its code point's four bytes, but an unpaired
 * surrogate as its own three bytes (generalized UTF-8, or WTF-8: ED A0 80
 * for \uD800, ED B0 80 for \uDC00) where TextEncoder writes U+FFFD's
 * (EF BF BD). So "\uD800", "\uDC00" and "\uFFFD" are three passwords, as
 * in bcryptjs, whose strings of them verify.
 *
 * Computed with masks, as the strings' base64 is: each code unit's bytes
 * and their count without a branch on it, and each of the key's positions
 * given the byte of the unit that covers it by comparing positions, so no
 * address depends on the password. The first KEY_BYTES units are enough:
 * each gives at least a byte, but a pair's second half, whose four bytes
 * come with the first (which reads the unit after it).
 */
function bcryptjsBytes(password: string): { out: Bytes; length: number } {
  const out = new Uint8Array(KEY_BYTES);
  const units = Math.min(password.length, KEY_BYTES);
  let at = 0;
  let paired = 0;
  for (let i = 0; i < units; i++) {
    const c = password.charCodeAt(i);
    // Past the end, charCodeAt is NaN: 0, no low surrogate.
    const next = password.charCodeAt(i + 1) | 0;
    const second = paired;
    paired = within(c, 0xd800, 0xdbff) & within(next, 0xdc00, 0xdfff);
    const point = (paired & (0x10000 + ((c & 0x3ff) << 10) + (next & 0x3ff))) | (~paired & c);
    // 1 byte below 0x80, 2 below 0x800, 3 to 0xffff (an unpaired surrogate too), 4 for a pair, none for its second half.
    const n = (1 + ((0x7f - c) >>> 31) + ((0x7ff - c) >>> 31) + (paired & 1)) & ~second;
    const one = is(n, 1);
    const two = is(n, 2);
    const three = is(n, 3);
    const four = is(n, 4);
    const b0 = (one & point) | (two & (0xc0 | (point >> 6))) | (three & (0xe0 | (point >> 12))) | (four & (0xf0 | (point >> 18)));
    const b1 = (two & (0x80 | (point & 63))) | (three & (0x80 | ((point >> 6) & 63))) | (four & (0x80 | ((point >> 12) & 63)));
    const b2 = (three & (0x80 | (point & 63))) | (four & (0x80 | ((point >> 6) & 63)));
    const b3 = four & (0x80 | (point & 63));
    for (let j = 0; j < KEY_BYTES; j++) {
      const d = j - at;
      out[j] = out[j]! | (is(d, 0) & b0) | (is(d, 1) & b1) | (is(d, 2) & b2) | (is(d, 3) & b3);
    }
    at += n;
  }
  // constant-time: public length: the password's length in bytes (up to 72), which the key's length shows (the key schedule cycles over it), as TextEncoder's output did.
  const length = Math.min(at, KEY_BYTES);
  return { out, length };
}

/**
 * The key: the password's bytes (bcryptjs's for a string: bcryptjsBytes)
 * and a NUL, of which the key schedule reads the first 72 bytes.
 */
export function bcryptKey(password: unknown): Bytes {
  if (typeof password !== 'string' && (typeof password !== 'object' || password === null)) {
    throw new TypeError(`password must be a string or a Uint8Array, got ${check.describe(password)}`);
  }
  const encoded = typeof password === 'string' ? bcryptjsBytes(password) : undefined;
  const bytes = encoded === undefined ? check.bytes(password, 'password') : encoded.out;
  const given = encoded === undefined ? bytes.length : encoded.length;
  const length = Math.min(given + 1, KEY_BYTES);
  const key = new Uint8Array(length);
  // Zero-filled: below 72 bytes of password, the last byte is the NUL.
  key.set(bytes.subarray(0, Math.min(given, length)));
  if (typeof password === 'string') zeroize(bytes);
  return key;
}

/** Milliseconds of key schedule between two turns of the event loop (argon2idAsync's default asyncTick). */
const TICK_MS = 8;
/** Rounds of a first step, before any was timed: about a millisecond at cost 4's speed. */
const FIRST_STEP = 4;

/**
 * EksBlowfishSetup (bcrypt.c's bcrypt_hashpass): the state with the salt
 * and key expanded in, then 2^cost rounds of the key expanded alone and
 * the salt expanded alone, in turns of about TICK_MS with the event loop
 * free between them; `signal` stops it between two turns (the state is
 * wiped).
 */
async function eksBlowfishSetup(cost: number, salt: Bytes, key: Bytes, signal: AbortSignal | undefined): Promise<BlowfishState> {
  check.throwIfAborted(signal);
  const s = initialState();
  const turns = sharedTicker(signal);
  try {
    blowfishExpand(s, key, salt);
    const rounds = 2 ** cost;
    let step = FIRST_STEP;
    for (let done = 0; done < rounds; ) {
      const n = Math.min(step, rounds - done);
      const t0 = now();
      for (let i = 0; i < n; i++) {
        blowfishExpand(s, key);
        blowfishExpand(s, salt);
      }
      done += n;
      const ms = now() - t0;
      step = ms > 0 ? Math.max(1, Math.floor((n * TICK_MS) / ms)) : 2 * step;
      await turns.tick();
      check.throwIfAborted(signal);
    }
    return s;
  } catch (e) {
    s.fill(0);
    throw e;
  } finally {
    turns.close();
  }
}

/** "OrpheanBeholderScryDoubt" as six big-endian words: what bcrypt encrypts. */
const MAGIC = [0x4f727068, 0x65616e42, 0x65686f6c, 0x64657253, 0x63727944, 0x6f756274] as const;

/** The 23 bytes of hash bcrypt writes: MAGIC encrypted 64 times in ECB mode, each word big-endian. */
function encryptMagic(s: BlowfishState): Bytes {
  const data = Uint32Array.from(MAGIC);
  for (let round = 0; round < 64; round++) for (let i = 0; i < 6; i += 2) blowfishEncrypt(s, data, i);
  const out = new Uint8Array(4 * data.length);
  const view = new DataView(out.buffer);
  for (let i = 0; i < data.length; i++) view.setUint32(4 * i, data[i]!, false);
  data.fill(0);
  try {
    return out.slice(0, HASH_BYTES);
  } finally {
    zeroize(out);
  }
}

/** The bcrypt hash (23 bytes) of `password` at `cost` with `salt`, computed in turns. */
export async function bcryptHash(password: string | Uint8Array, cost: number, salt: Bytes, signal?: AbortSignal): Promise<Bytes> {
  const key = bcryptKey(password);
  try {
    const s = await eksBlowfishSetup(cost, salt, key, signal);
    try {
      return encryptMagic(s);
    } finally {
      s.fill(0);
    }
  } finally {
    zeroize(key);
  }
}

/** Whether `password` hashes to the string's hash, compared in constant time; the string's hash is wiped after. */
export async function bcryptVerify(stored: BcryptString, password: string | Uint8Array, signal?: AbortSignal): Promise<boolean> {
  try {
    const hash = await bcryptHash(password, stored.cost, stored.salt, signal);
    try {
      return equalBytes(hash, 0, stored.hash, 0, HASH_BYTES);
    } finally {
      zeroize(hash);
    }
  } finally {
    zeroize(stored.hash);
  }
}
