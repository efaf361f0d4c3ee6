/**
 * The PHC string format's B64 (github.com/P-H-C/phc-string-format):
 * standard base64, RFC 4648 §4's alphabet, without '=' padding, whose
 * last character's unused bits are zero. It carries a password hash, so
 * encoding and decoding compute each character or value with masks rather
 * than a table lookup or a branch, as the reference's src/encoding.c does:
 * their time does not depend on the hash. The constant-time lint covers
 * this file (docs/contributing/constant-time.md).
 */
import { type Bytes, decodeSextets, within, zeroize } from '../runtime/bytes.js';

/** The character of the 6-bit value `v`: 'A' to 'Z', 'a' to 'z', '0' to '9', '+', '/'. */
function charOf(v: number): number {
  // Each term moves the code from one range's start to the next's once v
  // passes that range's end ((end - v) >> 8 is all ones then, for v < 64).
  let c = v + 65;
  c += ((25 - v) >> 8) & 6;
  c -= ((51 - v) >> 8) & 75;
  c -= ((61 - v) >> 8) & 15;
  c += ((62 - v) >> 8) & 3;
  return c;
}

/** `bytes` in the PHC format's B64. */
export function toB64(bytes: Uint8Array): string {
  const codes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = ((acc << 8) | bytes[i]) & 0xffff;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      codes.push(charOf((acc >> bits) & 63));
    }
  }
  if (bits > 0) codes.push(charOf((acc << (6 - bits)) & 63));
  return String.fromCharCode(...codes);
}

/** The 6-bit value of the character `c`, or 64 and above for one outside the alphabet. */
function sextetOf(c: number): number {
  const upper = within(c, 65, 90);
  const lower = within(c, 97, 122);
  const digit = within(c, 48, 57);
  const plus = within(c, 43, 43);
  const slash = within(c, 47, 47);
  const v = (upper & (c - 65)) | (lower & (c - 71)) | (digit & (c + 4)) | (plus & 62) | (slash & 63);
  return v | (~(upper | lower | digit | plus | slash) & 64);
}

/**
 * The bytes of `text`, the PHC format's B64 for `what`: every character of
 * the alphabet, no padding or whitespace, no length of 4k + 1 characters,
 * and zero unused bits in the last one, so that each byte string has
 * exactly one encoding (as encoding.c's from_base64 requires). A string
 * that breaks a rule throws a TypeError naming `what`, after every
 * character has been read.
 */
export function fromB64(text: string, what: string): Bytes {
  if (text.length % 4 === 1) throw new TypeError(`${what} is not base64: ${text.length} characters is no whole number of bytes`);
  const out = new Uint8Array((text.length * 6) >> 3);
  const bad = decodeSextets(text, 0, text.length, out, sextetOf);
  // constant-time: public bad: whether the text is well-formed base64, which every string this module writes is: it says nothing of a valid hash's bytes.
  const malformed = bad !== 0;
  if (malformed) {
    zeroize(out);
    throw new TypeError(`${what} is not canonical base64 without padding (the PHC string format's B64)`);
  }
  return out;
}
