/**
 * age's ASCII armor (C2SP age, "ASCII armor"): strict PEM (RFC 7468 §3)
 * with the label "AGE ENCRYPTED FILE", padded base64 in lines of 64
 * columns, no headers. The decoder takes LF or CRLF line ends, up to
 * 1024 bytes of whitespace before the block and 1023 after it, and refuses
 * anything else (the rules of age's own armor reader): an armored file is
 * malleable unless a parser is this strict. Both work on a stream, a line
 * at a time.
 */
import { base64 } from '@scure/base';
import { AgeFormatError } from './errors.js';

export const BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
export const END = '-----END AGE ENCRYPTED FILE-----';
const COLUMNS = 64;
const LINE_BYTES = 48;
/** Whitespace allowed before and after the block, as age allows. */
const MAX_WHITESPACE = 1024;

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const EMPTY = new Uint8Array(0);
const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0b || b === 0x0c;

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
  const start = new TextDecoder().decode(bytes.subarray(at, at + BEGIN.length));
  if (start === BEGIN) return true;
  if (ended || bytes.length > MAX_WHITESPACE + BEGIN.length) return false;
  const intro = new TextDecoder().decode(bytes.subarray(0, AGE_INTRO.length));
  return intro.length === AGE_INTRO.length && intro === AGE_INTRO ? false : undefined;
}

/** Armors a byte stream: the BEGIN line, then 64-column lines as bytes come, then the END line. */
export class ArmorEncoder {
  private started = false;
  private rest = new Uint8Array(0);

  /** The armored text for `bytes`, as ASCII bytes (whole lines only; the rest waits). */
  write(bytes: Uint8Array): Uint8Array {
    const all = this.rest.length === 0 ? bytes : concat(this.rest, bytes);
    const whole = all.length - (all.length % LINE_BYTES);
    let text = this.started ? '' : `${BEGIN}\n`;
    this.started = true;
    for (let at = 0; at < whole; at += LINE_BYTES) text += `${base64.encode(all.subarray(at, at + LINE_BYTES))}\n`;
    this.rest = all.slice(whole);
    return ascii(text);
  }

  /** The last line (shorter than 64 columns; none when the bytes filled whole lines) and the END line. */
  end(): Uint8Array {
    const head = this.started ? '' : `${BEGIN}\n`;
    const last = this.rest.length > 0 ? `${base64.encode(this.rest)}\n` : '';
    return ascii(`${head}${last}${END}\n`);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Decodes an armored byte stream a line at a time (push, then end); each
 * call returns the bytes decoded so far. Errors are AgeFormatErrors that
 * say which rule the armor breaks.
 */
export class ArmorDecoder {
  private pending = new Uint8Array(0);
  private state: 'before' | 'body' | 'after' = 'before';
  /** Whether the last data line was short: only the END line may follow it. */
  private short = false;
  private whitespace = 0;

  push(bytes: Uint8Array): Uint8Array {
    if (this.state === 'after') {
      this.trailing(bytes);
      return EMPTY;
    }
    const all = this.pending.length === 0 ? bytes : concat(this.pending, bytes);
    const out: Uint8Array[] = [];
    let at = 0;
    while (!this.done()) {
      const lf = all.indexOf(0x0a, at);
      if (lf < 0) break;
      this.line(all.subarray(at, lf), out, lf - at + 1);
      at = lf + 1;
    }
    if (this.done()) {
      this.pending = EMPTY;
      this.trailing(all.subarray(at));
    } else {
      this.pending = all.slice(at);
      if (this.pending.length > MAX_WHITESPACE + BEGIN.length) throw new AgeFormatError('invalid armor: a line longer than any armor has');
    }
    return join(out);
  }

  /** The input ended: what its last line (without a line feed) holds; throws unless the armor was complete. */
  end(): Uint8Array {
    const out: Uint8Array[] = [];
    if (this.state !== 'after' && this.pending.length > 0) this.line(this.pending, out, this.pending.length);
    if (this.state !== 'after') throw new AgeFormatError(`invalid armor: the input ends before the END line`);
    return join(out);
  }

  private line(raw: Uint8Array, out: Uint8Array[], size: number): void {
    const bytes = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
    const text = new TextDecoder().decode(bytes);
    if (this.state === 'before') {
      if (bytes.every(isSpace)) {
        this.whitespace += size;
        if (this.whitespace > MAX_WHITESPACE) throw new AgeFormatError('invalid armor: too much whitespace before the BEGIN line');
        return;
      }
      if (text !== BEGIN) throw new AgeFormatError(`invalid armor: the first line is ${JSON.stringify(text.slice(0, 80))}, not ${JSON.stringify(BEGIN)}`);
      this.state = 'body';
      return;
    }
    if (text === END) {
      this.state = 'after';
      this.whitespace = 0;
      return;
    }
    if (this.short) throw new AgeFormatError(`invalid armor: a short line is followed by ${JSON.stringify(text.slice(0, 80))}, not the END line`);
    if (text.length === 0) throw new AgeFormatError('invalid armor: an empty line');
    if (text.length > COLUMNS) throw new AgeFormatError(`invalid armor: a line of ${text.length} columns (at most ${COLUMNS})`);
    let decoded: Uint8Array;
    try {
      decoded = base64.decode(text);
    } catch {
      throw new AgeFormatError(`invalid armor: a line that is not canonical padded base64: ${JSON.stringify(text.slice(0, 80))}`);
    }
    // Only the last line may be short (and carry padding); the END line must follow it.
    this.short = decoded.length < LINE_BYTES;
    out.push(decoded);
  }

  /** Whether the END line came (line() moves the state on). */
  private done(): boolean {
    return this.state === 'after';
  }

  /** After the END line, only whitespace, and less of it than before BEGIN: age refuses 1024 bytes after END, and takes 1024 before BEGIN. */
  private trailing(bytes: Uint8Array): void {
    if (!bytes.every(isSpace)) throw new AgeFormatError('invalid armor: data after the END line');
    this.whitespace += bytes.length;
    if (this.whitespace >= MAX_WHITESPACE) throw new AgeFormatError('invalid armor: too much whitespace after the END line');
  }
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
