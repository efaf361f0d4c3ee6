/**
 * What tells an armored age file from its first bytes (C2SP age, "ASCII
 * armor": the BEGIN line after at most 1024 bytes of whitespace), and the
 * line layout the armor shares with the header's stanza bodies: all that
 * a call needs before it knows a file is armored. The armor's code
 * (armor.ts, armor-lines.ts: tables, encoder and decoder) is imported
 * when a file is armored or armor is asked for (codec.ts armorCode), so a page
 * that reads and writes binary files never loads it.
 */

export const BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
/** A full line's base64 columns, and the bytes they hold (the armor's, and a header stanza body's). */
export const LINE_COLUMNS = 64;
export const LINE_BYTES = 48;

export const LF = 0x0a;

/** Whitespace allowed before the block, as age allows (after it, less than this). */
export const MAX_WHITESPACE = 1024;

export const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0b || b === 0x0c;

/** How binary age files start. */
const AGE_INTRO = 'age-encryption.org/';

/**
 * Whether `bytes` (the start of a file) is armored: the BEGIN line after
 * at most MAX_WHITESPACE bytes of whitespace. Undefined while too few
 * bytes came to tell: until they show the binary format's start or the
 * BEGIN line, or enough of what else they are for a useful error.
 */
export function isArmored(bytes: Uint8Array, ended: boolean): boolean | undefined {
  let at = 0;
  while (at < bytes.length && at <= MAX_WHITESPACE && isSpace(bytes[at]!)) at++;
  if (holdsAscii(bytes, at, BEGIN)) return true;
  if (ended || bytes.length > MAX_WHITESPACE + BEGIN.length) return false;
  return holdsAscii(bytes, 0, AGE_INTRO) ? false : undefined;
}

/**
 * Whether `bytes` holds the ASCII text `text` at `at`, compared byte by
 * byte: a TextDecoder would refuse the caller's bytes where they are a
 * view of a SharedArrayBuffer (browsers do).
 */
function holdsAscii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length - at < text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}
