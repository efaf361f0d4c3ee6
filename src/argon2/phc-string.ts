/**
 * A stored Argon2 hash read: the PHC string format's grammar for Argon2
 * (github.com/P-H-C/phc-string-format, its Argon2 section), strictly, as
 * encoding.c's decode_string reads it, but for the parameters' order
 * (free, each name once: node-argon2 writes m,p,t) and keyid= and data=,
 * which it reads; and the bounds on the work a string may ask for, which
 * argon2Verify applies before any (phc.ts).
 */
import * as check from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';
import { fromB64 } from './phc-base64.js';

/** The three variants of RFC 9106 §3.4, by the name a PHC string gives them. */
export type Algorithm = 'argon2id' | 'argon2i' | 'argon2d';

/**
 * The longest string argon2Verify reads. The PHC format sets no bound;
 * this one keeps the work of reading any input small, and covers every
 * string the usual parameters make (libsodium's fit its 128-byte
 * crypto_pwhash_STRBYTES); argon2idHash writes none longer.
 */
export const MAX_LENGTH = 1024;

/** RFC 9106 §3.1: at most 2^32 - 1 for t and m, 2^24 - 1 lanes, salts from 8 bytes, tags from 4. */
const U32_MAX = 2 ** 32 - 1;
const MAX_LANES = 2 ** 24 - 1;
export const MIN_SALT = 8;
export const MIN_HASH = 4;

/** The version a PHC string writes and reads as v=: 19 for 0x13 (RFC 9106's), 16 for 0x10, the earlier one. */
const VERSIONS = { 16: 0x10, 19: 0x13 } as const;

/** A PHC string's fields, read and checked. */
export interface PhcFields {
  algorithm: Algorithm;
  version: 0x10 | 0x13;
  m: number;
  t: number;
  p: number;
  /** The keyid= parameter's bytes: which key (pepper) the hash was made with; empty for none. */
  keyid: Bytes;
  /** The data= parameter's bytes: RFC 9106's associated data X; empty for none. */
  data: Bytes;
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
export function boundMemory(m: number, p: number, maxmem: number, whose: string): void {
  const needs = memoryOf(m, p);
  if (needs > maxmem) {
    throw new RangeError(`${whose}m = ${m} (KiB) needs ${size(needs)}, above maxmem (${size(maxmem)}); raise maxmem if this is meant`);
  }
}

/**
 * The string's work, t passes over its memory, refused above `maxWork`
 * before any: the memory bound alone leaves t free, and a stored t of
 * 2^32 - 1 at 8 KiB is 32 TiB of blocks to compute, hours.
 */
export function boundWork(t: number, m: number, p: number, maxWork: number): void {
  const memory = memoryOf(m, p);
  const work = t * memory;
  if (work > maxWork) {
    throw new RangeError(
      `the PHC string's t = ${t} passes over ${size(memory)} are ${size(work)} of work, above maxWork (${size(maxWork)}); raise maxWork if this is meant`,
    );
  }
}

/** RFC 9106 §3.1's ranges of t, m and p; `whose` starts the message ("the PHC string's ", or nothing for options). */
export function checkRanges(t: number, m: number, p: number, whose: string): void {
  if (t < 1 || t > U32_MAX) throw new RangeError(`${whose}t must be from 1 to 2^32 - 1, got ${t}`);
  if (p < 1 || p > MAX_LANES) throw new RangeError(`${whose}p must be from 1 to 2^24 - 1, got ${p}`);
  if (m < 8 * p || m > U32_MAX) throw new RangeError(`${whose}m must be from 8 * p = ${8 * p} to 2^32 - 1 (KiB), got ${m}`);
}

/** The names the parameters field may give, each at most once; m, t and p are required. */
const PARAMETERS = ['m', 't', 'p', 'keyid', 'data'] as const;
type ParameterName = (typeof PARAMETERS)[number];
const PARAMETER_FORM = 'm=<m>,t=<t>,p=<p>, in any order, and optionally keyid=<B64> and data=<B64>';

/**
 * The parameters field: name=value pairs separated by commas, each of m,
 * t and p once, keyid= and data= at most once, nothing else. The PHC
 * format's Argon2 section writes them in the order m,t,p,keyid,data;
 * node-argon2 writes m,p,t, and a stored string from it must verify, so
 * the order is free, but each name is given once (a string that gave one
 * twice would mean two things). keyid= names the key (pepper) the hash
 * was made with; data= is RFC 9106's associated data X, which
 * node-argon2's associatedData writes and the hash depends on.
 */
function parameterField(field: string): { m: number; t: number; p: number; keyid: Bytes; data: Bytes } {
  const given = new Map<ParameterName, string>();
  for (const pair of field.split(',')) {
    const parts = pair.split('=');
    if (parts.length !== 2) throw new TypeError(`the PHC string's parameters must be ${PARAMETER_FORM}, got '${field.slice(0, 60)}'`);
    const [name, value] = parts as [string, string];
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw new TypeError(`the PHC string has an unknown parameter '${name.slice(0, 20)}' (Argon2's are ${PARAMETER_FORM})`);
    }
    if (given.has(name as ParameterName)) throw new TypeError(`the PHC string gives its ${name}= parameter twice`);
    given.set(name as ParameterName, value);
  }
  for (const name of ['m', 't', 'p'] as const) {
    if (!given.has(name)) throw new TypeError(`the PHC string has no ${name}= parameter (Argon2's are ${PARAMETER_FORM})`);
  }
  const m = decimal(given.get('m')!, 'm');
  const t = decimal(given.get('t')!, 't');
  const p = decimal(given.get('p')!, 'p');
  const keyid = fromB64(given.get('keyid') ?? '', "the PHC string's keyid");
  const data = fromB64(given.get('data') ?? '', "the PHC string's data");
  return { m, t, p, keyid, data };
}

/** The stored hash, a string of at most MAX_LENGTH characters. */
export function storedText(stored: unknown): string {
  if (typeof stored !== 'string') throw new TypeError(`the stored hash must be a string, got ${check.describe(stored)}`);
  if (stored.length > MAX_LENGTH) throw new RangeError(`the stored hash must be at most ${MAX_LENGTH} characters, got ${stored.length}`);
  return stored;
}

/**
 * Reads `phc` once, left to right, as the format's grammar for Argon2
 * writes it: $<id>[$v=<version>]$<parameters>$<salt>$<hash>. The first
 * thing wrong is the one the error names.
 */
export function parse(phc: string): PhcFields {
  const fields = phc.split('$');
  if (fields[0] !== '' || fields.length < 2) throw new TypeError("a PHC string starts with '$' and the algorithm's name: '$argon2id$...'");
  const algorithm = fields[1]!;
  if (algorithm !== 'argon2id' && algorithm !== 'argon2i' && algorithm !== 'argon2d') {
    const shown = algorithm.length > 20 ? `${algorithm.slice(0, 20)}...` : algorithm;
    throw new TypeError(`the stored hash's algorithm must be argon2id, argon2i or argon2d, or bcrypt's $2a$, $2b$ or $2y$, got '${shown}'`);
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
  const { m, t, p, keyid, data } = parameterField(parameters);
  checkRanges(t, m, p, "the PHC string's ");
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
  return { algorithm, version, m, t, p, keyid, data, salt, hash };
}
