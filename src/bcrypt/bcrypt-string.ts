/**
 * bcrypt strings read and checked (bcrypt.ts says what they hold): apart
 * from the hashing, so that fourfold/argon2's calls that only read a
 * string (needsRehash, a malformed one refused) carry no Blowfish, which
 * argon2Verify loads when a bcrypt string comes.
 *
 * The salt and hash are decoded with masks, never a table lookup or a
 * branch (as src/argon2/phc-base64.ts).
 */
import { type Bytes, decodeSextets, within, zeroize } from '../runtime/bytes.js';
/** A bcrypt string's length: '$2b$', two digits of cost, '$', 22 characters of salt and 31 of hash. */
const BCRYPT_LENGTH = 60;
/** Bytes of salt (22 characters) and of hash (31 characters: the first 23 of the 24 bytes encrypted). */
const SALT_BYTES = 16;
export const HASH_BYTES = 23;
/** bcrypt.c's bounds on the cost: 2^4 to 2^31 rounds. */
const MIN_COST = 4;
const MAX_COST = 31;

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
