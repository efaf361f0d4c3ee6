/**
 * libsodium-wrappers' conventions for fourfold/sodium: inputs as
 * Uint8Array or string (UTF-8), the optional last `outputFormat`
 * ('uint8array', 'text', 'hex', 'base64'), the checks and their messages,
 * and the codecs (from_hex, to_hex, from_base64, to_base64, from_string,
 * to_string). Hexadecimal and base64 are encoded and decoded without
 * branches or tables on the bytes: keys pass through them.
 */
import { isShared, within } from '../runtime/bytes.js';

/** An output format of libsodium-wrappers: bytes, or a string. */
export type OutputFormat = 'uint8array' | 'text' | 'hex' | 'base64';
/** The formats that give a string. */
export type StringOutputFormat = 'text' | 'hex' | 'base64';
/** What a call with `outputFormat` F returns in place of bytes. */
export type Out<F> = F extends StringOutputFormat ? string : Uint8Array;
/** An object of bytes (a key pair, a detached box), each formatted as F. */
export type OutObject<T, F> = { [K in keyof T]: T[K] extends Uint8Array ? Out<F> : T[K] };
/** A detached AEAD's output (crypto_aead_*_encrypt_detached). */
export interface Detached {
  /** The ciphertext, as long as the message. */
  ciphertext: Uint8Array;
  /** The 16-byte tag. */
  mac: Uint8Array;
}

/** A detached secretbox (crypto_secretbox_detached): libsodium-wrappers' field names. */
export interface SecretboxDetached {
  /** The 16-byte tag. */
  mac: Uint8Array;
  /** The ciphertext, as long as the message. */
  cipher: Uint8Array;
}

/** A byte input: bytes, or a string taken as its UTF-8 bytes. */
export type Input = Uint8Array | string;

/** libsodium-wrappers' output formats, in its order. */
export const output_formats = (): OutputFormat[] => ['uint8array', 'text', 'hex', 'base64'];

/** libsodium's base64 variants (sodium_base64_VARIANT_*): bit 1 no padding, bit 2 URL-safe. */
export const base64_variants = Object.freeze({ ORIGINAL: 1, ORIGINAL_NO_PADDING: 3, URLSAFE: 5, URLSAFE_NO_PADDING: 7 });
/** A base64 variant: one of base64_variants' numbers (libsodium-wrappers' typings name the type so too). */
export type base64_variants = number;

const encoder = /*#__PURE__*/ new TextEncoder();

/** The UTF-8 bytes of `input`. */
export function from_string(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The text of UTF-8 bytes; throws TypeError on bytes that are not UTF-8 (as libsodium-wrappers does). */
export function to_string(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** Throws TypeError "<name> cannot be null or undefined" (libsodium-wrappers' message). */
function required(value: unknown, name: string): void {
  // constant-time: public value: only whether an argument was given is read here, never its contents.
  if (value === null || value === undefined) throw new TypeError(`${name} cannot be null or undefined`);
}

/**
 * Up to this many bytes, an input that must be read once is copied without
 * asking whether it is shared. V8 keeps a new array this small on its own
 * heap, and reading its .buffer (the only way to ask) moves it off: about
 * 250 ns in Node 20 and 26, where the copy takes about 20. A fresh nonce
 * from randombytes_buf or a short message from from_string is such an array.
 */
const ALWAYS_COPIED = 64;

/**
 * A required byte input that the call verifies or reads more than once: a
 * Uint8Array, a string as its UTF-8 bytes. One on shared memory is a copy:
 * another thread could change it between a tag's check and the decryption
 * the check allows, or between Ed25519's two hashes of a message. The copy
 * is a plain Uint8Array made from the array's internal slots (a Buffer's
 * slice() is a view of the same memory).
 */
export function input(value: unknown, name: string): Uint8Array {
  const bytes = once(value, name);
  // constant-time exception (secret-branch): which array it is, its length and its memory's kind, never its contents.
  // constant-time exception (early-exit): the same: whether the caller's array is copied.
  if (bytes === value && (bytes.length <= ALWAYS_COPIED || isShared(bytes))) return new Uint8Array(bytes);
  return bytes;
}

/**
 * A required byte input that the call reads once, in one pass of one
 * primitive (a stream cipher's XOR, a hash, a MAC computed, a seal): as it
 * is, on shared memory or not, since what another thread writes meanwhile
 * changes only the output, never what is checked.
 */
export function once(value: unknown, name: string): Uint8Array {
  required(value, name);
  if (typeof value === 'string') return from_string(value);
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`unsupported input type for ${name}`);
}

/** An optional byte input (null or undefined: none), as input() takes it. */
export function optional(value: unknown, name: string): Uint8Array | null {
  return value === null || value === undefined ? null : input(value, name);
}

/** An optional byte input read once (once()). */
export function optionalOnce(value: unknown, name: string): Uint8Array | null {
  return value === null || value === undefined ? null : once(value, name);
}

/** A required byte input of exactly `length` bytes ("invalid <name> length" otherwise), as input() takes it. */
export function sized(value: unknown, name: string, length: number): Uint8Array {
  return lengthChecked(input(value, name), name, length);
}

/** A byte input of exactly `length` bytes read once (once()). */
export function sizedOnce(value: unknown, name: string, length: number): Uint8Array {
  return lengthChecked(once(value, name), name, length);
}

function lengthChecked(b: Uint8Array, name: string, length: number): Uint8Array {
  if (b.length !== length) throw new TypeError(`invalid ${name} length`);
  return b;
}

/** A non-negative integer argument (a length, a counter) below 2^31, as libsodium-wrappers takes them. */
export function unsigned(value: unknown, name: string): number {
  required(value, name);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
    throw new TypeError(`${name} must be an unsigned integer`);
  }
  return value;
}

/** An integer argument within [min, max], as libsodium-wrappers' ranged arguments (a TypeError outside). */
export function ranged(value: unknown, name: string, min: number, max: number): number {
  const n = unsigned(value, name);
  if (n < min || n > max) throw new TypeError(`${name} must be >= ${min} and <= ${max}`);
  return n;
}

/**
 * A 64-bit unsigned argument (a block counter, a subkey id) as
 * libsodium-wrappers takes one: a bigint below 2^64, or a number below 2^31.
 */
export function unsigned64(value: unknown, name: string): bigint {
  required(value, name);
  if (typeof value === 'bigint' && value >= 0n) {
    if (value >= 1n << 64n) throw new TypeError(`${name} cannot be more than 64 bits`);
    return value;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
    throw new TypeError(`${name} must be an unsigned integer or bigint`);
  }
  return BigInt(value);
}

/** The checked output format: a valid one, or 'uint8array' for none. */
export function formatOf(requested: unknown): OutputFormat {
  if (requested === null || requested === undefined) return 'uint8array';
  if (typeof requested !== 'string') throw new TypeError('When defined, the output format must be a string');
  // constant-time exception (secret-branch): requested is the output format the caller names, a string compared as text, never bytes.
  // constant-time exception (early-exit): the same comparison of the format's name.
  if (requested === 'uint8array' || requested === 'text' || requested === 'hex' || requested === 'base64') return requested;
  throw new Error(`${String(requested)} is not a supported output format`);
}

/** `bytes` in `format` (checked by formatOf first, so that a wrong format fails before any work). */
export function format<F>(bytes: Uint8Array, outputFormat: F | null | undefined): Out<F> {
  const f = formatOf(outputFormat);
  const out = f === 'uint8array' ? bytes : f === 'text' ? to_string(bytes) : f === 'hex' ? to_hex(bytes) : to_base64(bytes, base64_variants.URLSAFE_NO_PADDING);
  return out as Out<F>;
}

/** Each byte field of `object` in `format`; other fields as they are. */
export function formatObject<T extends object, F>(object: T, f: F | null | undefined): OutObject<T, F> {
  // Bytes stay bytes: the caller's object (a new one, made for the result) is the result.
  // constant-time exception (early-exit): the output format the caller names, a string compared as text, never bytes.
  if (formatOf(f) === 'uint8array') return object as OutObject<T, F>;
  const out: Record<string, unknown> = {};
  // constant-time: public k: a result object's field names, the same for every call.
  for (const [k, v] of Object.entries(object)) out[k] = v instanceof Uint8Array ? format(v, f) : v;
  return out as OutObject<T, F>;
}

/** The text to decode: a string, or bytes taken as Latin-1 characters (libsodium-wrappers reads them so). */
function textOf(value: unknown): string {
  if (value instanceof Uint8Array) {
    let s = '';
    for (let i = 0; i < value.length; i += 8192) s += String.fromCharCode(...value.subarray(i, i + 8192));
    return s;
  }
  required(value, 'input');
  if (typeof value !== 'string') throw new TypeError('unsupported input type for input');
  return value;
}

/** The lowercase hexadecimal digit of a nibble, by arithmetic (87 = 'a' - 10; 48 = '0'). */
const hexDigit = (n: number): number => n + 48 + (((9 - n) >> 8) & 39);

/** `input`'s bytes (a string: its UTF-8 bytes) in lowercase hexadecimal. */
export function to_hex(value: Input): string {
  const b = input(value, 'input');
  const codes = new Uint16Array(b.length * 2);
  for (let i = 0; i < b.length; i++) {
    codes[2 * i] = hexDigit(b[i] >> 4);
    codes[2 * i + 1] = hexDigit(b[i] & 15);
  }
  return decodeCodes(codes);
}

/** A string of UTF-16 code units, in chunks (String.fromCharCode takes a bounded argument list). */
function decodeCodes(codes: Uint16Array): string {
  let s = '';
  for (let i = 0; i < codes.length; i += 8192) s += String.fromCharCode(...codes.subarray(i, i + 8192));
  return s;
}

/** A hexadecimal digit's value, or -1, without a branch on it. */
function nibble(c: number): number {
  const digit = within(c, 48, 57);
  const lower = within(c | 32, 97, 102);
  return ((c - 48) & digit) | (((c | 32) - 87) & lower) | ~(digit | lower);
}

/**
 * The bytes of hexadecimal `input` (either case). libsodium's rules: it
 * reads pairs of digits; a character that is not a digit ends the input,
 * which fails as "invalid input" in the middle of a pair or after an odd
 * number of digits, and as "incomplete input" otherwise.
 */
export function from_hex(hex: string): Uint8Array {
  const value = textOf(hex);
  // The first character that is not a digit (the length when none), found with masks, not a branch on the characters.
  let stop = value.length;
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    const bad = nibble(value.charCodeAt(i)) >> 31;
    const first = bad & ~seen;
    stop = (stop & ~first) | (i & first);
    seen |= bad;
  }
  // constant-time: public stop: where the text stops being hexadecimal, which the error or the result's length shows.
  if (stop < value.length) throw new Error(stop % 2 === 0 ? 'incomplete input' : 'invalid input');
  if (value.length % 2 === 1) throw new Error('invalid input');
  const out = new Uint8Array(value.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibble(value.charCodeAt(2 * i)) << 4) | nibble(value.charCodeAt(2 * i + 1));
  return out;
}

/** A checked base64 variant: libsodium-wrappers' default, URLSAFE_NO_PADDING, where none is given (null is no variant). */
function variantOf(variant: unknown): number {
  if (variant === undefined) return base64_variants.URLSAFE_NO_PADDING;
  if (variant !== 1 && variant !== 3 && variant !== 5 && variant !== 7) throw new Error('unsupported base64 variant');
  return variant;
}

/** The base64 character of a sextet, by arithmetic: A-Z, a-z, 0-9, then + / or - _. */
function sextetChar(v: number, urlsafe: boolean): number {
  const c62 = urlsafe ? 45 : 43;
  const c63 = urlsafe ? 95 : 47;
  return ((v + 65) & within(v, 0, 25)) | ((v + 71) & within(v, 26, 51)) | ((v - 4) & within(v, 52, 61)) | (c62 & within(v, 62, 62)) | (c63 & within(v, 63, 63));
}

/** A base64 character's sextet, or -1 outside the variant's alphabet, by arithmetic. */
function charSextet(c: number, urlsafe: boolean): number {
  const c62 = urlsafe ? 45 : 43;
  const c63 = urlsafe ? 95 : 47;
  const upper = within(c, 65, 90);
  const lower = within(c, 97, 122);
  const digit = within(c, 48, 57);
  const s62 = within(c, c62, c62);
  const s63 = within(c, c63, c63);
  const any = upper | lower | digit | s62 | s63;
  return ((c - 65) & upper) | ((c - 71) & lower) | ((c + 4) & digit) | (62 & s62) | (63 & s63) | ~any;
}

/** `input`'s bytes (a string: its UTF-8 bytes) in base64 of `variant` (default URLSAFE_NO_PADDING). */
export function to_base64(value: Input, variant?: number): string {
  // The variant first, as libsodium-wrappers checks it.
  const v = variantOf(variant);
  const b = input(value, 'input');
  const urlsafe = (v & 4) !== 0;
  const padded = (v & 2) === 0;
  const full = Math.floor(b.length / 3);
  const rest = b.length - full * 3;
  const length = full * 4 + (rest === 0 ? 0 : padded ? 4 : rest + 1);
  const codes = new Uint16Array(length);
  let j = 0;
  for (let i = 0; i < b.length; i += 3) {
    const w = (b[i] << 16) | ((i + 1 < b.length ? b[i + 1] : 0) << 8) | (i + 2 < b.length ? b[i + 2] : 0);
    const chars = Math.min(4, b.length - i + 1);
    for (let k = 0; k < chars; k++) codes[j++] = sextetChar((w >> (18 - 6 * k)) & 63, urlsafe);
  }
  while (j < length) codes[j++] = 61;
  return decodeCodes(codes);
}

/**
 * The bytes of base64 `input` in `variant` (default URLSAFE_NO_PADDING),
 * as libsodium decodes it: the characters of the variant's alphabet up to
 * the first other one, the unused bits of the last zero, then exactly the
 * padding that completes the group where the variant has padding ("invalid
 * input" otherwise); anything after that is "incomplete input".
 */
export function from_base64(base64: string, variant?: number): Uint8Array {
  const v = variantOf(variant);
  const value = textOf(base64);
  const urlsafe = (v & 4) !== 0;
  // The first character outside the alphabet (the length when none), found with masks.
  let stop = value.length;
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    const bad = charSextet(value.charCodeAt(i), urlsafe) >> 31;
    const first = bad & ~seen;
    stop = (stop & ~first) | (i & first);
    seen |= bad;
  }
  // Where the alphabet's characters end: stop's value, which the result's length shows.
  const end = stop;
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < end; i++) {
    acc = ((acc << 6) | charSextet(value.charCodeAt(i), urlsafe)) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = acc >> bits;
    }
  }
  // Bad: a last character with more than 4 bits left, or unused bits set; then the padding its bits call for, where the variant has it.
  let bad = (bits > 4 ? 1 : 0) | (acc & ((1 << bits) - 1));
  let at = end;
  if ((v & 2) === 0) {
    for (let pads = bits >> 1; pads > 0; pads--, at++) bad |= at < value.length ? value.charCodeAt(at) ^ 61 : 1;
  }
  // constant-time: public bad: whether the text is base64, the verdict the caller gets.
  if (bad !== 0) throw new Error('invalid input');
  if (at !== value.length) throw new Error('incomplete input');
  return out;
}
