/**
 * crypto_pwhash (Argon2id and Argon2i, version 0x13), crypto_pwhash_str,
 * _str_verify and _str_needs_rehash in libsodium-wrappers' shape, on
 * fourfold/argon2. libsodium's memlimit is in bytes: Argon2's m is
 * memlimit / 1024 KiB; its opslimit is t; p is 1.
 */
import { argon2i, argon2id } from '../argon2/index.js';
import { parse } from '../argon2/phc-string.js';
import { base64_variants, format, formatOf, type Input, input, type Out, sized, to_base64, unsigned, type OutputFormat } from './codecs.js';
import { boundStoredWork } from './stored-work.js';

/** libsodium's algorithm numbers: Argon2i version 0x13 (1) and Argon2id version 0x13 (2, the default). */
const ARGON2I13 = 1;
const ARGON2ID13 = 2;
/** The most memory fourfold lets a call take without a caller asking: 1 GiB and 64 KiB, as fourfold/argon2. */
const DEFAULT_MAXMEM = 2 ** 30 + 2 ** 16;

const invalidUsage = (): Error => new Error('invalid usage');

/** Argon2's call for libsodium's arguments: t = opslimit, m = memlimit / 1024 KiB, p = 1; the bounds libsodium puts on each. */
function derive(algorithm: number, password: Uint8Array, salt: Uint8Array, t: number, memLimit: number, dkLen: number, p = 1): Uint8Array {
  const m = Math.floor(memLimit / 1024);
  const maxmem = Math.max(DEFAULT_MAXMEM, m * 1024 + 2 ** 16);
  const opts = { t, m, p, dkLen, maxmem };
  return algorithm === ARGON2I13 ? argon2i(password, salt, opts) : argon2id(password, salt, opts);
}

/** Checks what libsodium checks of (algorithm, opslimit, memlimit, length) before deriving. */
function checkLimits(algorithm: number, opsLimit: number, memLimit: number, keyLength: number): void {
  if (algorithm !== ARGON2I13 && algorithm !== ARGON2ID13) throw invalidUsage();
  if (keyLength < 16 || memLimit < 8192 || opsLimit < (algorithm === ARGON2I13 ? 3 : 1)) throw invalidUsage();
}

/** A `keyLength`-byte key from a password and a 16-byte salt; `memLimit` in bytes; `algorithm` crypto_pwhash_ALG_ARGON2ID13 or _ARGON2I13. */
export function crypto_pwhash<F extends OutputFormat | null = 'uint8array'>(
  keyLength: number,
  password: Input,
  salt: Uint8Array,
  opsLimit: number,
  memLimit: number,
  algorithm: number,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const length = unsigned(keyLength, 'keyLength');
  const pw = input(password, 'password');
  const s = sized(salt, 'salt', 16);
  const t = unsigned(opsLimit, 'opsLimit');
  const mem = unsigned(memLimit, 'memLimit');
  const alg = unsigned(algorithm, 'algorithm');
  checkLimits(alg, t, mem, length);
  return format(derive(alg, pw, s, t, mem, length), outputFormat);
}

/** `bytes` in the PHC format's B64: base64's standard alphabet without padding, which codecs.ts writes without a table (as phc-base64.ts). */
const b64 = (bytes: Uint8Array): string => to_base64(bytes, base64_variants.ORIGINAL_NO_PADDING);

/** An Argon2id password hash as a PHC string ($argon2id$v=19$m=...,t=...,p=1$salt$hash), with a random 16-byte salt and a 32-byte hash. */
export function crypto_pwhash_str(password: Input, opsLimit: number, memLimit: number, outputFormat?: OutputFormat | null): string {
  formatOf(outputFormat);
  const pw = input(password, 'password');
  const t = unsigned(opsLimit, 'opsLimit');
  const mem = unsigned(memLimit, 'memLimit');
  checkLimits(ARGON2ID13, t, mem, 32);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = derive(ARGON2ID13, pw, salt, t, mem, 32);
  const text = `$argon2id$v=19$m=${Math.floor(mem / 1024)},t=${t},p=1$${b64(salt)}$${b64(hash)}`;
  hash.fill(0);
  return text;
}

/** Whether `password` is the one of the Argon2id or Argon2i PHC string `hashed_password` (false for a string libsodium would not read). */
export function crypto_pwhash_str_verify(hashed_password: string, password: Input, outputFormat?: OutputFormat | null): boolean {
  formatOf(outputFormat);
  if (typeof hashed_password !== 'string') throw new TypeError('hashed_password must be a string');
  const pw = input(password, 'password');
  let fields: ReturnType<typeof parse>;
  try {
    fields = parse(hashed_password);
  } catch {
    return false;
  }
  const { algorithm, version, m, t, p, salt, hash, keyid, data } = fields;
  if (algorithm === 'argon2d' || version !== 0x13 || keyid.length > 0 || data.length > 0) return false;
  const alg = algorithm === 'argon2i' ? ARGON2I13 : ARGON2ID13;
  boundStoredWork(t * m * 1024, 'crypto_pwhash_str_verify');
  let mine: Uint8Array;
  try {
    mine = derive(alg, pw, salt, t, m * 1024, hash.length, p);
  } catch {
    // Parameters Argon2 refuses (m below 8p, a salt too short): a string libsodium would not read either.
    return false;
  }
  let diff = 0;
  for (let i = 0; i < hash.length; i++) diff |= mine[i] ^ hash[i];
  mine.fill(0);
  hash.fill(0);
  // constant-time: public return: the verdict the caller asked for.
  return diff === 0;
}

/** libsodium's crypto_pwhash_STRBYTES: a stored string is shorter than this. */
const STR_BYTES = 128;
/** Argon2's most memory, in KiB, where pointers are 32 bits (its ARGON2_MAX_MEMORY_BITS: 32 - 10 - 1). */
const MAX_M_WASM32 = 2 ** 21;

/**
 * The fields of an Argon2id or Argon2i stored string as libsodium's
 * decode_string reads it, or null where it would refuse the string: the
 * canonical spelling only ($argon2id$ or $argon2i$, v=19, m, t and p in
 * that order without leading zeros, base64 without padding or stray
 * bits), under 128 bytes, a salt of 8 bytes or more, a hash of 16 or
 * more and m up to 2^21 KiB (its validate_inputs in libsodium.js's
 * WebAssembly).
 */
function storedArgon2(text: string): { t: number; m: number } | null {
  if (text.length >= STR_BYTES || !/^\$argon2id?\$/.test(text)) return null;
  let fields: ReturnType<typeof parse>;
  try {
    fields = parse(text);
  } catch {
    return null;
  }
  const { algorithm, m, t, p, salt, hash } = fields;
  const canonical = `$${algorithm}$v=19$m=${m},t=${t},p=${p}$${b64(salt)}$${b64(hash)}`;
  // m of at most 2^21 KiB: ARGON2_MAX_MEMORY where pointers are 32 bits, as in libsodium.js's WebAssembly.
  const readable = canonical === text && salt.length >= 8 && hash.length >= 16 && m <= MAX_M_WASM32;
  hash.fill(0);
  return readable ? { t, m } : null;
}

/**
 * Whether `hashed_password` was made with other limits than (`opsLimit`,
 * `memLimit`): then hash the password again. A string that is not an
 * Argon2id or Argon2i one libsodium reads throws "invalid hash", as
 * libsodium.js does after its 0.8.4 release (0.8.4 answered true).
 */
export function crypto_pwhash_str_needs_rehash(hashed_password: string, opsLimit: number, memLimit: number, outputFormat?: OutputFormat | null): boolean {
  formatOf(outputFormat);
  if (typeof hashed_password !== 'string') throw new TypeError('hashed_password must be a string');
  const t = unsigned(opsLimit, 'opsLimit');
  const mem = unsigned(memLimit, 'memLimit');
  const stored = storedArgon2(hashed_password);
  if (stored === null) throw new Error('invalid hash');
  return stored.t !== t || stored.m !== Math.floor(mem / 1024);
}
