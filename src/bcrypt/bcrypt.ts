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
 * the first 72 bytes of them) mixed into the state, then 2^cost rounds of
 * the key schedule with the key and with the salt. The rounds run in
 * short turns that leave the event loop free. Of the variants, $2a$, $2b$
 * and $2y$ compute the same hash (they differ in C implementations'
 * handling of passwords of 255 bytes or more, which hash as their first
 * 72 here, as bcryptjs and OpenBSD now do); $2x$ (crypt_blowfish's
 * sign-extension bug) and $2$ (no NUL) are refused.
 *
 * The salt and hash are decoded with masks, never a table lookup or a
 * branch (as src/argon2/phc-base64.ts); Blowfish itself looks up its
 * S-boxes by key bytes, as every bcrypt does (blowfish.ts).
 */
import { blowfishEncrypt, blowfishExpand, type BlowfishState, initialState } from './blowfish.js';
import { ticker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import { type Bytes, decodeSextets, equalBytes, within, zeroize } from '../runtime/bytes.js';
import { now } from '../runtime/host.js';

/** A bcrypt string's length: '$2b$', two digits of cost, '$', 22 characters of salt and 31 of hash. */
const BCRYPT_LENGTH = 60;
/** Bytes of salt (22 characters) and of hash (31 characters: the first 23 of the 24 bytes encrypted). */
const SALT_BYTES = 16;
const HASH_BYTES = 23;
/** bcrypt.c's bounds on the cost: 2^4 to 2^31 rounds. */
const MIN_COST = 4;
const MAX_COST = 31;
/** The key schedule reads 18 words of key: 72 bytes, the NUL included when the password is shorter. */
const KEY_BYTES = 72;

/** A bcrypt string's fields, read and checked. */
export interface BcryptString {
  cost: number;
  salt: Bytes;
  hash: Bytes;
}

/** Whether `text` is meant as a bcrypt string: the Modular Crypt Format's '$2' prefix. */
export const isBcrypt = (text: string): boolean => text.startsWith('$2');

/** The 6-bit value of the character `c` in bcrypt's alphabet ('.', '/', 'A' to 'Z', 'a' to 'z', '0' to '9'), or 64 and above outside it. */
function sextetOf(c: number): number {
  const dotSlash = within(c, 46, 47);
  const upper = within(c, 65, 90);
  const lower = within(c, 97, 122);
  const digit = within(c, 48, 57);
  const v = (dotSlash & (c - 46)) | (upper & (c - 63)) | (lower & (c - 69)) | (digit & (c + 6));
  return v | (~(dotSlash | upper | lower | digit) & 64);
}

/** `bytes` bytes from bcrypt's base64 in `text` at `from`, and a nonzero `bad` for a character outside it or an unused bit set (one spelling per byte string, as bcrypt.c writes). */
function decode(text: string, from: number, chars: number, bytes: number): { out: Bytes; bad: number } {
  const out = new Uint8Array(bytes);
  return { out, bad: decodeSextets(text, from, chars, out, sextetOf) };
}

/**
 * Reads a bcrypt string: the variant, the cost as two digits from 04 to
 * 31, then (at BCRYPT_LENGTH characters exactly) the salt and the hash. A
 * string that is not one throws a TypeError (its form) or a RangeError
 * (its cost) naming what is wrong.
 */
export function parseBcrypt(text: string): BcryptString {
  // constant-time: public variant, costText, costEnd: the variant and the cost, which a bcrypt string writes in clear before its salt and hash.
  const variant = text.slice(0, 4);
  const costText = text.slice(4, 6);
  const costEnd = text.slice(6, 7);
  if (variant !== '$2a$' && variant !== '$2b$' && variant !== '$2y$') {
    throw new TypeError(`a bcrypt string starts with $2a$, $2b$ or $2y$, got '${variant}' ($2x$ and $2$ are not supported)`);
  }
  if (!/^[0-9]{2}$/.test(costText) || costEnd !== '$') {
    throw new TypeError(`the bcrypt string's cost must be two digits and a '$' after ${variant}, got '${costText}${costEnd}'`);
  }
  const cost = Number(costText);
  if (cost < MIN_COST || cost > MAX_COST) throw new RangeError(`the bcrypt string's cost must be from 04 to 31, got ${costText}`);
  if (text.length !== BCRYPT_LENGTH) {
    throw new TypeError(`a bcrypt string is ${BCRYPT_LENGTH} characters (${variant}, the cost, '$', 22 of salt and 31 of hash), got ${text.length}`);
  }
  const salt = decode(text, 7, 22, SALT_BYTES);
  const hash = decode(text, 29, 31, HASH_BYTES);
  // constant-time: public malformed: whether the text is bcrypt's base64, which every string bcrypt writes is: it says nothing of a valid hash's bytes.
  const malformed = (salt.bad | hash.bad) !== 0;
  if (malformed) {
    zeroize(hash.out);
    throw new TypeError("the bcrypt string's salt and hash must be bcrypt's base64 (./A-Za-z0-9, the last character's unused bits zero)");
  }
  return { cost, salt: salt.out, hash: hash.out };
}

/** The key: the password's bytes (UTF-8 for a string) and a NUL, of which the key schedule reads the first 72 bytes. */
function keyOf(password: unknown): Bytes {
  if (typeof password !== 'string' && (typeof password !== 'object' || password === null)) {
    throw new TypeError(`password must be a string or a Uint8Array, got ${check.describe(password)}`);
  }
  const bytes = typeof password === 'string' ? new TextEncoder().encode(password) : check.bytes(password, 'password');
  const length = Math.min(bytes.length + 1, KEY_BYTES);
  const key = new Uint8Array(length);
  // Zero-filled: below 72 bytes of password, the last byte is the NUL.
  key.set(bytes.subarray(0, Math.min(bytes.length, length)));
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
  const turns = ticker();
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
async function bcryptHash(password: string | Uint8Array, cost: number, salt: Bytes, signal?: AbortSignal): Promise<Bytes> {
  const key = keyOf(password);
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
