/**
 * crypto_pwhash_scryptsalsa208sha256 (a key from a password, with
 * libsodium's choice of N, r and p for its opslimit and memlimit), _ll
 * (N, r and p given) and _str / _str_verify (libsodium's "$7$" strings)
 * in libsodium-wrappers' shape, on fourfold/scrypt.
 */
import { libsodiumCall } from '../scrypt/args.js';
import { deriveNow } from '../scrypt/derive.js';
import { format, formatOf, type Input, input, type Out, sized, unsigned, type OutputFormat } from './codecs.js';
import { boundStoredWork } from './stored-work.js';

const invalidUsage = (): Error => new Error('invalid usage');

/** scrypt by libsodium's rules (args.ts libsodiumCall): the memory its parameters need, N up to 2^32 - 1 whatever r, any key length. */
const derive = (password: Uint8Array, salt: Uint8Array, N: number, r: number, p: number, dkLen: number): Uint8Array =>
  deriveNow(libsodiumCall(password, salt, N, r, p, dkLen));

/**
 * libsodium's parameters for (opslimit, memlimit): r = 8; N the largest
 * power of two within the operations (p = 1) or, when memory is the
 * bound, within memlimit, with p taking the operations left.
 */
function pick(opsLimit: number, memLimit: number): { logN: number; r: number; p: number } {
  const ops = Math.max(opsLimit, 32768);
  const r = 8;
  const largest = (maxN: number): number => {
    let logN = 1;
    while (logN < 63 && 2 ** logN <= Math.floor(maxN / 2)) logN++;
    return logN;
  };
  if (ops < Math.floor(memLimit / 32)) return { logN: largest(Math.floor(ops / (r * 4))), r, p: 1 };
  const logN = largest(Math.floor(memLimit / (r * 128)));
  const rp = Math.min(Math.floor(Math.floor(ops / 4) / 2 ** logN), 0x3fffffff);
  return { logN, r, p: Math.floor(rp / r) };
}

/** A `keyLength`-byte key from a password and a 32-byte salt, N, r and p chosen by libsodium's rule for the limits. */
export function crypto_pwhash_scryptsalsa208sha256<F extends OutputFormat | null = 'uint8array'>(
  keyLength: number,
  password: Input,
  salt: Uint8Array,
  opsLimit: number,
  memLimit: number,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const length = unsigned(keyLength, 'keyLength');
  const pw = input(password, 'password');
  const s = sized(salt, 'salt', 32);
  const { logN, r, p } = pick(unsigned(opsLimit, 'opsLimit'), unsigned(memLimit, 'memLimit'));
  // crypto_pwhash_scryptsalsa208sha256_BYTES_MIN: a shorter key is refused (_ll derives any length).
  if (length < 16) throw invalidUsage();
  return format(derive(pw, s, 2 ** logN, r, p, length), outputFormat);
}

/** scrypt with N (`opsLimit`), r and p as given, any salt. */
export function crypto_pwhash_scryptsalsa208sha256_ll<F extends OutputFormat | null = 'uint8array'>(
  password: Input,
  salt: Input,
  opsLimit: number,
  r: number,
  p: number,
  keyLength: number,
  outputFormat?: F,
): Out<F> {
  formatOf(outputFormat);
  const pw = input(password, 'password');
  const s = input(salt, 'salt');
  const N = unsigned(opsLimit, 'opsLimit');
  const rr = unsigned(r, 'r');
  const pp = unsigned(p, 'p');
  return format(derive(pw, s, N, rr, pp, unsigned(keyLength, 'keyLength')), outputFormat);
}

/** The "$7$" strings' alphabet (crypt's): a value's 6 bits, least significant first. */
const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bits` bits of `value` as characters, 6 at a time from the lowest. */
function encodeBits(value: number, bits: number): string {
  let s = '';
  for (let b = 0; b < bits; b += 6) s += ITOA64[(value >>> b) & 63];
  return s;
}

/** Bytes as characters, 3 bytes (24 bits, little-endian) at a time. */
function encodeBytes(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = Math.min(3, bytes.length - i);
    let value = 0;
    for (let j = 0; j < n; j++) value |= bytes[i + j] << (8 * j);
    s += encodeBits(value, 8 * n);
  }
  return s;
}

/** The value of `text`'s characters (30 bits from 5), or -1 for one outside the alphabet. */
function decodeBits(text: string): number {
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = ITOA64.indexOf(text[i]!);
    if (c < 0) return -1;
    value += c * 2 ** (6 * i);
  }
  return value;
}

/** The string for a setting ("$7$" N r p salt) and a password: setting$hash, the salt's characters the salt. */
function hashString(setting: string, password: Uint8Array, logN: number, r: number, p: number): string {
  const salt = new TextEncoder().encode(setting.slice(14));
  const hash = derive(password, salt, 2 ** logN, r, p, 32);
  const text = `${setting}$${encodeBytes(hash)}`;
  hash.fill(0);
  return text;
}

/** A "$7$" password hash (101 characters), N, r and p by libsodium's rule for the limits, a random 32-byte salt. */
export function crypto_pwhash_scryptsalsa208sha256_str(password: Input, opsLimit: number, memLimit: number, outputFormat?: OutputFormat | null): string {
  formatOf(outputFormat);
  const pw = input(password, 'password');
  const { logN, r, p } = pick(unsigned(opsLimit, 'opsLimit'), unsigned(memLimit, 'memLimit'));
  const setting = `$7$${ITOA64[logN]}${encodeBits(r, 30)}${encodeBits(p, 30)}${encodeBytes(crypto.getRandomValues(new Uint8Array(32)))}`;
  return hashString(setting, pw, logN, r, p);
}

/** Whether `password` is the one of the "$7$" string `hashed_password` (false for a string libsodium would not read). */
export function crypto_pwhash_scryptsalsa208sha256_str_verify(hashed_password: string, password: Input, outputFormat?: OutputFormat | null): boolean {
  formatOf(outputFormat);
  if (typeof hashed_password !== 'string') throw new TypeError('hashed_password must be a string');
  const pw = input(password, 'password');
  const stored = hashed_password;
  if (stored.length !== 101 || !stored.startsWith('$7$') || stored[57] !== '$') return false;
  const logN = ITOA64.indexOf(stored[3]!);
  const r = decodeBits(stored.slice(4, 9));
  const p = decodeBits(stored.slice(9, 14));
  if (logN < 1 || r < 1 || p < 1) return false;
  boundStoredWork(128 * r * 2 ** logN * p, 'crypto_pwhash_scryptsalsa208sha256_str_verify');
  let computed: string;
  try {
    computed = hashString(stored.slice(0, 57), pw, logN, r, p);
  } catch {
    return false;
  }
  let diff = 0;
  for (let i = 0; i < 101; i++) diff |= computed.charCodeAt(i) ^ stored.charCodeAt(i);
  // constant-time: public return: the verdict the caller asked for.
  return diff === 0;
}
