/**
 * Argon2 password hashes as PHC strings
 * (github.com/P-H-C/phc-string-format, its Argon2 section), the form
 * password databases store and the reference implementation
 * (P-H-C/phc-winner-argon2's src/encoding.c), libsodium's
 * crypto_pwhash_str, node-argon2, @node-rs/argon2, argon2-cffi and
 * hash-wasm write:
 *
 *   $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
 *
 * `argon2idHash` (and `argon2iHash`, `argon2dHash`) makes one with a
 * random salt; `argon2Verify` reads a stored hash once, strictly: such a
 * string, its parameters in any order (node-argon2 writes m,p,t), with
 * keyid= and data= (RFC 9106's K named, and X), or a bcrypt string
 * (src/bcrypt). It bounds what the string may ask for (memory, passes
 * over it, bcrypt's cost) before any work, recomputes the hash on the
 * asynchronous core (the event loop stays free) and compares in constant
 * time. A malformed string throws (it is the caller's storage that is
 * wrong, not the password); a wrong password gives false. `needsRehash`
 * says whether a stored hash is other than argon2idHash would write today.
 */
import { argon2dAsync, argon2iAsync, argon2idAsync } from './argon2.js';
import { type Argon2AsyncOpts, MAXMEM } from './args.js';
import * as check from '../runtime/assert.js';
import { type Bytes, equalBytes, zeroize } from '../runtime/bytes.js';
import { toB64 } from './phc-base64.js';
import { type Algorithm, boundMemory, boundWork, checkRanges, MAX_LENGTH, MIN_HASH, MIN_SALT, type PhcFields, parse, storedText } from './phc-string.js';
import { type BcryptString, isBcrypt, parseBcrypt } from '../bcrypt/bcrypt-string.js';

/** The three variants of RFC 9106 §3.4, by the name a PHC string gives them. */
const CORES: Argon2Cores = { argon2id: argon2idAsync, argon2i: argon2iAsync, argon2d: argon2dAsync };

/**
 * The cores the PHC calls compute with, by variant: this module's
 * (argon2idAsync...) or fourfold/parallel's, which fill the memory on the
 * pool's workers. A core gets the call's options as checked here, plus
 * the `extra` ones the caller's module names (its own, such as workers).
 */
export type Argon2Cores = Record<Algorithm, (password: string | Uint8Array, salt: Bytes, opts: Argon2AsyncOpts) => Promise<Bytes>>;

/** argon2idHash's options, and argon2iHash's and argon2dHash's. Any other property is refused (TypeError). */
export interface Argon2HashOpts {
  /** Passes (default 2): OWASP's first choice for Argon2id is m = 19456, t = 2, p = 1. */
  t?: number;
  /** Memory in KiB (default 19456, 19 MiB), at least 8 * p. */
  m?: number;
  /** Lanes (default 1), 1 to 2^24 - 1. */
  p?: number;
  /** Bytes of hash (default 32), from 4; with the salt, the string must fit in 1024 characters, which argon2Verify reads. */
  dkLen?: number;
  /** The salt (default 16 random bytes from crypto.getRandomValues), at least 8 bytes; a string is taken as its UTF-8 bytes. */
  salt?: string | Uint8Array;
  /** A secret (RFC 9106's K, a pepper) kept apart from the database: not written in the string, and argon2Verify needs it too. */
  key?: string | Uint8Array;
  /** The most memory the call may use, in bytes (the core's default: 1 GiB and 64 KiB). Verify with the same bound. */
  maxmem?: number;
  /** Stops the call: it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with the fraction of the work done, from 0 to 1; 1 exactly once, at the end. */
  onProgress?: (fraction: number) => void;
}

/** argon2Verify's options. Any other property is refused (TypeError). */
export interface Argon2VerifyOpts {
  /**
   * The secret (pepper) the hash was made with, if any; required for a
   * string with a keyid= (the id of the key, which the caller looks up).
   * A bcrypt string has none, and ignores it.
   */
  key?: string | Uint8Array;
  /**
   * The most memory the string's parameters may ask for, in bytes
   * (default 1 GiB and 64 KiB, the core's): a string asking more is
   * refused before any work (RangeError), so a stored string cannot take
   * more of the machine than the caller allows.
   */
  maxmem?: number;
  /**
   * The most work the string's parameters may ask for, in bytes of memory
   * processed: t passes over the memory (default 4 GiB, 2^32: RFC 9106's
   * 1 GiB at t = 4, 64 MiB at t = 3 and OWASP's 19 MiB at t = 2 fit). A
   * string asking more is refused before any work (RangeError): a stored
   * t of 2^32 - 1 would otherwise take hours.
   */
  maxWork?: number;
  /**
   * The highest cost a bcrypt string may have (default 16, 2^16 rounds:
   * 16 to 64 times the libraries' default costs, 10 to 12, and seconds of
   * work): a string asking more is refused before any work (RangeError);
   * each step doubles the time, and cost 31 is days.
   */
  maxBcryptCost?: number;
  /** Stops the call: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

const HASH_OPTIONS = ['t', 'm', 'p', 'dkLen', 'salt', 'key', 'maxmem', 'signal', 'onProgress'] as const;
const VERIFY_OPTIONS = ['key', 'maxmem', 'maxWork', 'maxBcryptCost', 'signal'] as const;

/** argon2idHash's defaults, OWASP's first choice for Argon2id, and its salt's length: what needsRehash compares with. */
const DEFAULTS = { t: 2, m: 19456, p: 1, dkLen: 32, saltLength: 16 } as const;
/** The default bound on a string's work, t times its memory: 4 GiB. */
const MAX_WORK = 2 ** 32;
/** The default bound on a bcrypt string's cost: 2^16 rounds. */
const MAX_BCRYPT_COST = 16;

/** Characters of `n` bytes in B64 (no padding). */
const b64Length = (n: number): number => Math.ceil((n * 4) / 3);

// ---------------------------------------------------------------- hashing

/** A count option: its default, or a non-negative safe integer (check.count's TypeError and RangeError). */
const countOr = (value: unknown, name: string, fallback: number): number => (value === undefined ? fallback : check.count(value, name));

/** The salt: given (text as UTF-8, bytes copied), or 16 random bytes. */
function saltOf(value: unknown): Bytes {
  if (value === undefined) return crypto.getRandomValues(new Uint8Array(DEFAULTS.saltLength));
  if (typeof value === 'string') return new TextEncoder().encode(value);
  return check.bytes(value, 'salt').slice();
}

/** Copies the `extra` options that are set onto the core's options. */
function passExtra(core: Argon2AsyncOpts, o: object, extra: readonly string[]): void {
  for (const name of extra) {
    const value = (o as Record<string, unknown>)[name];
    if (value !== undefined) (core as unknown as Record<string, unknown>)[name] = value;
  }
}

/**
 * What the hashing calls share, this module's and fourfold/parallel's:
 * the options checked (HASH_OPTIONS and `extra`), the hash computed by
 * `cores[algorithm]`, the string written.
 */
export async function hashWith(
  cores: Argon2Cores,
  algorithm: Algorithm,
  password: string | Uint8Array,
  opts: Argon2HashOpts | undefined,
  extra: readonly string[] = [],
): Promise<string> {
  const o = (check.options(opts, 'opts', [...HASH_OPTIONS, ...extra]) ?? {}) as Argon2HashOpts;
  const { t: tOpt, m: mOpt, p: pOpt, dkLen: dkOpt, salt: saltOpt, key, maxmem: memOpt, signal, onProgress } = o;
  const t = countOr(tOpt, 't', DEFAULTS.t);
  const m = countOr(mOpt, 'm', DEFAULTS.m);
  const p = countOr(pOpt, 'p', DEFAULTS.p);
  const dkLen = countOr(dkOpt, 'dkLen', DEFAULTS.dkLen);
  const maxmem = countOr(memOpt, 'maxmem', MAXMEM);
  checkRanges(t, m, p, '');
  if (dkLen < MIN_HASH) throw new RangeError(`dkLen must be at least ${MIN_HASH} (RFC 9106 §3.1), got ${dkLen}`);
  boundMemory(m, p, maxmem, 'argon2: ');
  const salt = saltOf(saltOpt);
  if (salt.length < MIN_SALT) throw new RangeError(`salt must be at least ${MIN_SALT} bytes (RFC 9106 §3.1), got ${salt.length}`);
  const head = `$${algorithm}$v=19$m=${m},t=${t},p=${p}$`;
  const length = head.length + b64Length(salt.length) + 1 + b64Length(dkLen);
  if (length > MAX_LENGTH) {
    throw new RangeError(`the PHC string of this salt and dkLen would be ${length} characters, above the ${MAX_LENGTH} argon2Verify reads`);
  }
  const core: Argon2AsyncOpts = { t, m, p, dkLen, maxmem, version: 0x13 };
  if (key !== undefined) core.key = key;
  if (signal !== undefined) core.signal = signal;
  if (onProgress !== undefined) core.onProgress = onProgress;
  passExtra(core, o, extra);
  const tag = await cores[algorithm](password, salt, core);
  try {
    return `${head}${toB64(salt)}$${toB64(tag)}`;
  } finally {
    zeroize(tag);
  }
}

/**
 * An Argon2id password hash as a PHC string, for a password database:
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, with a new random salt
 * (16 bytes) and a 32-byte hash. The defaults are OWASP's first choice for
 * Argon2id (19 MiB, 2 passes, 1 lane); raise m where the server can spend
 * more. Computed in short turns that leave the event loop free. Strings
 * are taken as their UTF-8 bytes, as given (apply `normalize('NFC')`
 * first where the same password may come in another Unicode form).
 *
 * @example
 * ```ts
 * import { argon2idHash, argon2Verify } from 'fourfold/argon2';
 * const stored = await argon2idHash('correct horse battery staple');
 * await argon2Verify(stored, 'correct horse battery staple'); // true
 * ```
 */
export function argon2idHash(password: string | Uint8Array, opts?: Argon2HashOpts): Promise<string> {
  return hashWith(CORES, 'argon2id', password, opts);
}

/** argon2idHash with Argon2i (data-independent addressing only): `$argon2i$v=19$...`. Argon2id is the first choice for passwords. */
export function argon2iHash(password: string | Uint8Array, opts?: Argon2HashOpts): Promise<string> {
  return hashWith(CORES, 'argon2i', password, opts);
}

/** argon2idHash with Argon2d (data-dependent addressing): `$argon2d$v=19$...`. Argon2id is the first choice for passwords. */
export function argon2dHash(password: string | Uint8Array, opts?: Argon2HashOpts): Promise<string> {
  return hashWith(CORES, 'argon2d', password, opts);
}

// ---------------------------------------------------------------- verifying

/**
 * Whether `password` is the one `stored` was made from. `stored` is a
 * password hash as a server holds it:
 *
 * - an Argon2 PHC string (argon2id, argon2i or argon2d; v=19, v=16, or no
 *   v=, which is 0x10 as the reference reads it), such as argon2idHash,
 *   libsodium's crypto_pwhash_str, the reference's argon2, node-argon2
 *   (its parameters as m,p,t; its associatedData as data=),
 *   @node-rs/argon2, argon2-cffi and hash-wasm write. A keyid= names the
 *   key (pepper) the hash was made with: the call needs `key` then
 *   (TypeError without it).
 * - a bcrypt string, $2a$, $2b$ or $2y$ (bcryptjs, node's bcrypt, PHP's
 *   password_hash, OpenBSD, Go): the password's UTF-8 bytes, of which
 *   bcrypt reads the first 72; a string's as bcryptjs takes them, an
 *   unpaired surrogate its own three bytes (ED A0 80 for \uD800) where
 *   an Argon2 string's password has U+FFFD's.
 *
 * The hash is recomputed with the string's parameters, in turns that
 * leave the event loop free, and compared in constant time: a wrong
 * password gives false. A string that is not one of these throws a
 * TypeError (its form: a field missing, repeated or unknown, a number or
 * base64 not in canonical form) or a RangeError (a number out of its
 * range) that says what is wrong with it. So does, before any work, one
 * that asks for more than the bounds: memory above `maxmem` (1 GiB), t
 * passes over it above `maxWork` (4 GiB of blocks), a bcrypt cost above
 * `maxBcryptCost` (16); the message names the option that raises it.
 * Arguments given the other way round, as bcrypt.compare takes them
 * (`stored` not a hash, `password` one), are a TypeError that says they
 * look swapped.
 */
export function argon2Verify(stored: string, password: string | Uint8Array, opts?: Argon2VerifyOpts): Promise<boolean> {
  return verifyWith(CORES, stored, password, opts);
}

/**
 * A bcrypt string checked against `maxBcryptCost` before any work, then
 * the password against it, with Blowfish loaded now: a page or server
 * that never meets a bcrypt string never loads it.
 */
async function verifyBcrypt(stored: string, password: string | Uint8Array, maxCost: number, signal: AbortSignal | undefined): Promise<boolean> {
  const parsed: BcryptString = parseBcrypt(stored);
  if (parsed.cost > maxCost) {
    zeroize(parsed.hash);
    throw new RangeError(
      `the bcrypt string's cost ${parsed.cost} (2^${parsed.cost} rounds) is above maxBcryptCost (${maxCost}); raise maxBcryptCost if this is meant`,
    );
  }
  const { bcryptVerify } = await import('../bcrypt/bcrypt.js');
  return bcryptVerify(parsed, password, signal);
}

/** The start of a stored hash argon2Verify reads: an Argon2 PHC string's ($argon2id$...) or a bcrypt string's ($2b$...). */
const STORED_START = /^\$(?:argon2(?:id|i|d)|2[aby])\$/;

/** Whether `value` is a string that starts as a stored hash does. */
const looksStored = (value: unknown): boolean => typeof value === 'string' && STORED_START.test(value);

/**
 * Refuses arguments given the other way round, as bcrypt.compare takes
 * them (the password first): the stored hash does not start as one does
 * and the password does. A TypeError that says so,
 * quoting neither (the first is a password). The password is looked at
 * only when the stored hash is not one, a call that throws anyway.
 */
function refuseSwapped(stored: unknown, password: unknown): void {
  if (!looksStored(stored) && looksStored(password)) {
    throw new TypeError(
      'the arguments look swapped: argon2Verify(stored, password) takes the stored hash first, then the password (bcrypt.compare takes the password first)',
    );
  }
}

/** What a stored string may ask for: argon2Verify's bounds, its options' or their defaults. */
interface Bounds {
  maxmem: number;
  maxWork: number;
  maxBcryptCost: number;
}

/** The core's options for a parsed string: its parameters, the bounds checked, and the caller's key and signal. */
function coreOptions(parsed: PhcFields, o: Argon2VerifyOpts, { maxmem, maxWork }: Bounds): Argon2AsyncOpts {
  const { m, t, p, version, keyid, data, hash } = parsed;
  boundMemory(m, p, maxmem, "the PHC string's ");
  boundWork(t, m, p, maxWork);
  if (keyid.length > 0 && o.key === undefined) {
    throw new TypeError(`the PHC string was made with a key (keyid=${toB64(keyid)}): pass that key as opts.key to verify it`);
  }
  const core: Argon2AsyncOpts = { t, m, p, dkLen: hash.length, version, maxmem };
  if (data.length > 0) core.personalization = data;
  if (o.key !== undefined) core.key = o.key;
  if (o.signal !== undefined) core.signal = o.signal;
  return core;
}

/**
 * argon2Verify with `cores` computing an Argon2 hash and `extra` options
 * passed to them (fourfold/parallel's); a bcrypt string is computed on
 * this thread, in turns.
 */
export async function verifyWith(
  cores: Argon2Cores,
  stored: string,
  password: string | Uint8Array,
  opts: Argon2VerifyOpts | undefined,
  extra: readonly string[] = [],
): Promise<boolean> {
  const o = (check.options(opts, 'opts', [...VERIFY_OPTIONS, ...extra]) ?? {}) as Argon2VerifyOpts;
  const bounds: Bounds = {
    maxmem: countOr(o.maxmem, 'maxmem', MAXMEM),
    maxWork: countOr(o.maxWork, 'maxWork', MAX_WORK),
    maxBcryptCost: countOr(o.maxBcryptCost, 'maxBcryptCost', MAX_BCRYPT_COST),
  };
  refuseSwapped(stored, password);
  const text = storedText(stored);
  if (isBcrypt(text)) return verifyBcrypt(text, password, bounds.maxBcryptCost, o.signal);
  const parsed = parse(text);
  const { algorithm, salt, hash } = parsed;
  try {
    const core = coreOptions(parsed, o, bounds);
    passExtra(core, o, extra);
    const tag = await cores[algorithm](password, salt, core);
    try {
      return equalBytes(tag, 0, hash, 0, hash.length);
    } finally {
      zeroize(tag);
    }
  } finally {
    zeroize(hash);
  }
}

/**
 * Whether `stored` should be hashed again (at the next sign-in, when the
 * password is at hand): true unless it is what argon2idHash writes with
 * `opts` today, an argon2id string of version 0x13 (v=19) with the
 * options' t, m and p, a hash of dkLen bytes and a salt of the options'
 * length (16 bytes by default). So a bcrypt string, an argon2i or argon2d
 * one, v=16, other parameters (lower or higher) or lengths give true.
 * `opts` are argon2idHash's (pass the same object); the others than these
 * are not compared, and keyid= and data= neither. A malformed string
 * throws, as argon2Verify's do; the bounds are argon2Verify's to apply.
 *
 * @example
 * ```ts
 * import { argon2idHash, argon2Verify, needsRehash } from 'fourfold/argon2';
 * if (await argon2Verify(stored, password) && needsRehash(stored)) stored = await argon2idHash(password);
 * ```
 */
export function needsRehash(stored: string, opts?: Argon2HashOpts): boolean {
  const o = (check.options(opts, 'opts', HASH_OPTIONS) ?? {}) as Argon2HashOpts;
  const t = countOr(o.t, 't', DEFAULTS.t);
  const m = countOr(o.m, 'm', DEFAULTS.m);
  const p = countOr(o.p, 'p', DEFAULTS.p);
  const dkLen = countOr(o.dkLen, 'dkLen', DEFAULTS.dkLen);
  const saltLength = o.salt === undefined ? DEFAULTS.saltLength : saltOf(o.salt).length;
  const text = storedText(stored);
  if (isBcrypt(text)) {
    zeroize(parseBcrypt(text).hash);
    return true;
  }
  const parsed = parse(text);
  zeroize(parsed.hash);
  const { algorithm, version } = parsed;
  const same = algorithm === 'argon2id' && version === 0x13 && parsed.t === t && parsed.m === m && parsed.p === p;
  return !(same && parsed.hash.length === dkLen && parsed.salt.length === saltLength);
}
