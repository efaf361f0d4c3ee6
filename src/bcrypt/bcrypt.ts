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
 * The string is read by bcrypt-string.ts. Blowfish looks up its S-boxes
 * by key bytes, as every bcrypt does (blowfish.ts).
 */
import { blowfishEncrypt, blowfishExpand, type BlowfishState, initialState } from './blowfish.js';
import { sharedTicker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import { type BcryptString, HASH_BYTES } from './bcrypt-string.js';
import { type Bytes, equalBytes, zeroize } from '../runtime/bytes.js';
import { now } from '../runtime/host.js';

/** The key schedule reads 18 words of key: 72 bytes, the NUL included when the password is shorter. */
const KEY_BYTES = 72;

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
