/**
 * Argon2 password hashes as PHC strings
 * (github.com/P-H-C/phc-string-format, its Argon2 section), the form
 * password databases store and the reference implementation
 * (P-H-C/phc-winner-argon2's src/encoding.c), libsodium's
 * crypto_pwhash_str and hash-wasm write:
 *
 *   $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
 *
 * `argon2idHash` (and `argon2iHash`, `argon2dHash`) makes one with a
 * random salt; `argon2Verify` reads one once, strictly, recomputes the
 * hash with its parameters on the asynchronous core (the event loop stays
 * free) and compares in constant time. A malformed string throws (it is
 * the caller's storage that is wrong, not the password); a wrong password
 * gives false.
 */
import { argon2dAsync, argon2iAsync, argon2idAsync } from './argon2.js';
import { type Argon2AsyncOpts, MAXMEM } from './args.js';
import * as check from '../runtime/assert.js';
import { type Bytes, equalBytes, zeroize } from '../runtime/bytes.js';
import { fromB64, toB64 } from './phc-base64.js';

/** The three variants of RFC 9106 §3.4, by the name a PHC string gives them. */
const CORES: Argon2Cores = { argon2id: argon2idAsync, argon2i: argon2iAsync, argon2d: argon2dAsync };
type Algorithm = 'argon2id' | 'argon2i' | 'argon2d';

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
  /** The secret (pepper) the hash was made with, if any. */
  key?: string | Uint8Array;
  /**
   * The most memory the string's parameters may ask for, in bytes
   * (default 1 GiB and 64 KiB, the core's): a string asking more is
   * refused before any work (RangeError), so a stored string cannot take
   * more of the machine than the caller allows.
   */
  maxmem?: number;
  /** Stops the call: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

const HASH_OPTIONS = ['t', 'm', 'p', 'dkLen', 'salt', 'key', 'maxmem', 'signal', 'onProgress'] as const;
const VERIFY_OPTIONS = ['key', 'maxmem', 'signal'] as const;

/**
 * The longest string argon2Verify reads. The PHC format sets no bound;
 * this one keeps the work of reading any input small, and covers every
 * string the usual parameters make (libsodium's fit its 128-byte
 * crypto_pwhash_STRBYTES); argon2idHash writes none longer.
 */
const MAX_LENGTH = 1024;

/** RFC 9106 §3.1: at most 2^32 - 1 for t and m, 2^24 - 1 lanes, salts from 8 bytes, tags from 4. */
const U32_MAX = 2 ** 32 - 1;
const MAX_LANES = 2 ** 24 - 1;
const MIN_SALT = 8;
const MIN_HASH = 4;

/** The version a PHC string writes and reads as v=: 19 for 0x13 (RFC 9106's), 16 for 0x10, the earlier one. */
const VERSIONS = { 16: 0x10, 19: 0x13 } as const;

// ---------------------------------------------------------------- the string

/** A PHC string's fields, read and checked. */
interface Parsed {
  algorithm: Algorithm;
  version: 0x10 | 0x13;
  m: number;
  t: number;
  p: number;
  salt: Bytes;
  hash: Bytes;
}

/**
 * A decimal field of the string: digits only, no leading zero, no sign,
 * at most 2^32 - 1, as encoding.c's decode_decimal and DECIMAL_U32 require
 * (one number, one spelling).
 */
function decimal(text: string, name: string): number {
  if (!/^(?:0|[1-9][0-9]{0,9})$/.test(text)) {
    throw new TypeError(`the PHC string's ${name} must be a decimal number without sign or leading zero, got '${text}'`);
  }
  const n = Number(text);
  if (n > U32_MAX) throw new RangeError(`the PHC string's ${name} must be at most 2^32 - 1, got ${text}`);
  return n;
}

/** The bytes the parameters' blocks take: m' = 4p * floor(m / 4p) blocks of 1 KiB (RFC 9106 §3.2). */
const memoryOf = (m: number, p: number): number => 4 * p * Math.floor(m / (4 * p)) * 1024;

/** `bytes` exactly, then in KiB, MiB or GiB for a person: "67108864 bytes (64.0 MiB)". */
function size(bytes: number): string {
  const unit =
    bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GiB` : bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 2 ** 10).toFixed(1)} KiB`;
  return `${bytes} bytes (${unit})`;
}

/** The parameters' memory, refused above `maxmem` before any work; `whose` as for checkRanges. */
function boundMemory(m: number, p: number, maxmem: number, whose: string): void {
  const needs = memoryOf(m, p);
  if (needs > maxmem) {
    throw new RangeError(`${whose}m = ${m} (KiB) needs ${size(needs)}, above maxmem (${size(maxmem)}); raise maxmem if this is meant`);
  }
}

/** RFC 9106 §3.1's ranges of t, m and p; `whose` starts the message ("the PHC string's ", or nothing for options). */
function checkRanges(t: number, m: number, p: number, whose: string): void {
  if (t < 1 || t > U32_MAX) throw new RangeError(`${whose}t must be from 1 to 2^32 - 1, got ${t}`);
  if (p < 1 || p > MAX_LANES) throw new RangeError(`${whose}p must be from 1 to 2^24 - 1, got ${p}`);
  if (m < 8 * p || m > U32_MAX) throw new RangeError(`${whose}m must be from 8 * p = ${8 * p} to 2^32 - 1 (KiB), got ${m}`);
}

/**
 * The parameters field: exactly m=<m>,t=<t>,p=<p>, in that order, as
 * encoding.c's decode_string reads it. keyid= and data= are refused: the
 * reference's encoder writes neither and libsodium's decoder reads
 * neither, so a string with one was made elsewhere, and verifying it
 * without them would give a wrong answer.
 */
function parameterField(field: string): { m: number; t: number; p: number } {
  const pairs = field.split(',').map((pair) => pair.split('='));
  for (const [name] of pairs) {
    if (name === 'keyid' || name === 'data') {
      throw new TypeError(`the PHC string's ${name}= parameter is not supported (the reference's encoder writes none, and libsodium refuses them)`);
    }
  }
  if (pairs.map(([name]) => name).join(',') !== 'm,t,p' || pairs.some((pair) => pair.length !== 2)) {
    throw new TypeError(`the PHC string's parameters must be m=<m>,t=<t>,p=<p>, in that order, got '${field.slice(0, 60)}'`);
  }
  return { m: decimal(pairs[0]![1]!, 'm'), t: decimal(pairs[1]![1]!, 't'), p: decimal(pairs[2]![1]!, 'p') };
}

/**
 * Reads `phc` once, left to right, as the format's grammar for Argon2
 * writes it: $<id>[$v=<version>]$m=<m>,t=<t>,p=<p>$<salt>$<hash>. The
 * first thing wrong is the one the error names.
 */
function parse(phc: unknown, maxmem: number): Parsed {
  if (typeof phc !== 'string') throw new TypeError(`the PHC string must be a string, got ${check.describe(phc)}`);
  if (phc.length > MAX_LENGTH) throw new RangeError(`the PHC string must be at most ${MAX_LENGTH} characters, got ${phc.length}`);
  const fields = phc.split('$');
  if (fields[0] !== '' || fields.length < 2) throw new TypeError("a PHC string starts with '$' and the algorithm's name: '$argon2id$...'");
  const algorithm = fields[1]!;
  if (algorithm !== 'argon2id' && algorithm !== 'argon2i' && algorithm !== 'argon2d') {
    const shown = algorithm.length > 20 ? `${algorithm.slice(0, 20)}...` : algorithm;
    throw new TypeError(`the PHC string's algorithm must be argon2id, argon2i or argon2d, got '${shown}'`);
  }
  // The version is optional: encoding.c's decode_string reads a string without it as 0x10.
  let at = 2;
  let version: 0x10 | 0x13 = 0x10;
  if (fields[at]?.startsWith('v=')) {
    const v = decimal(fields[at]!.slice(2), 'v');
    if (v !== 16 && v !== 19) throw new RangeError(`the PHC string's version must be v=19 (0x13) or v=16 (0x10), got v=${v}`);
    version = VERSIONS[v];
    at++;
  }
  const [parameters, saltText, hashText, ...rest] = fields.slice(at);
  const form = `$${algorithm}$v=19$m=<m>,t=<t>,p=<p>$<salt>$<hash>`;
  if (parameters === undefined) throw new TypeError(`the PHC string has no parameters: Argon2's is ${form}`);
  const { m, t, p } = parameterField(parameters);
  checkRanges(t, m, p, "the PHC string's ");
  boundMemory(m, p, maxmem, "the PHC string's ");
  if (saltText === undefined) throw new TypeError(`the PHC string has no salt: Argon2's is ${form}`);
  if (saltText === '') throw new TypeError('the PHC string has an empty salt');
  if (hashText === undefined) throw new TypeError(`the PHC string has no hash: Argon2's is ${form}`);
  if (hashText === '') throw new TypeError('the PHC string has an empty hash');
  if (rest.length > 0) throw new TypeError("the PHC string has more after its hash (a '$' past the hash field)");
  const salt = fromB64(saltText, "the PHC string's salt");
  if (salt.length < MIN_SALT) throw new RangeError(`the PHC string's salt must be at least ${MIN_SALT} bytes (RFC 9106 §3.1), got ${salt.length}`);
  const hash = fromB64(hashText, "the PHC string's hash");
  if (hash.length < MIN_HASH) {
    zeroize(hash);
    throw new RangeError(`the PHC string's hash must be at least ${MIN_HASH} bytes (RFC 9106 §3.1), got ${hash.length}`);
  }
  return { algorithm, version, m, t, p, salt, hash };
}

/** Characters of `n` bytes in B64 (no padding). */
const b64Length = (n: number): number => Math.ceil((n * 4) / 3);

// ---------------------------------------------------------------- hashing

/** A count option: its default, or a non-negative safe integer (check.count's TypeError and RangeError). */
const countOr = (value: unknown, name: string, fallback: number): number => (value === undefined ? fallback : check.count(value, name));

/** The salt: given (text as UTF-8, bytes copied), or 16 random bytes. */
function saltOf(value: unknown): Bytes {
  if (value === undefined) return crypto.getRandomValues(new Uint8Array(16));
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
  const t = countOr(tOpt, 't', 2);
  const m = countOr(mOpt, 'm', 19456);
  const p = countOr(pOpt, 'p', 1);
  const dkLen = countOr(dkOpt, 'dkLen', 32);
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
 * Whether `password` is the one `phc` was made from: `phc` is an Argon2
 * PHC string (argon2id, argon2i or argon2d; v=19, v=16, or no v=, which is
 * 0x10 as the reference reads it), such as argon2idHash, libsodium's
 * crypto_pwhash_str, the reference's argon2 and hash-wasm write. The hash
 * is recomputed with the string's parameters and compared in constant
 * time. A wrong password gives false; a string that is not one throws a
 * TypeError or RangeError that says what is wrong with it, as does one
 * whose parameters need more than `maxmem`.
 *
 * The string's t is taken as it is (RFC 9106 allows up to 2^32 - 1
 * passes): the strings are the caller's own, from its database. Its
 * memory is bounded by `maxmem`.
 */
export function argon2Verify(phc: string, password: string | Uint8Array, opts?: Argon2VerifyOpts): Promise<boolean> {
  return verifyWith(CORES, phc, password, opts);
}

/** argon2Verify with `cores` computing the hash and `extra` options passed to them (fourfold/parallel's). */
export async function verifyWith(
  cores: Argon2Cores,
  phc: string,
  password: string | Uint8Array,
  opts: Argon2VerifyOpts | undefined,
  extra: readonly string[] = [],
): Promise<boolean> {
  const o = (check.options(opts, 'opts', [...VERIFY_OPTIONS, ...extra]) ?? {}) as Argon2VerifyOpts;
  const { key, maxmem: memOpt, signal } = o;
  const maxmem = countOr(memOpt, 'maxmem', MAXMEM);
  const { algorithm, version, m, t, p, salt, hash } = parse(phc, maxmem);
  try {
    const core: Argon2AsyncOpts = { t, m, p, dkLen: hash.length, version, maxmem };
    if (key !== undefined) core.key = key;
    if (signal !== undefined) core.signal = signal;
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
