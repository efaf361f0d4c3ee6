/**
 * age's ASCII armor (C2SP age, "ASCII armor"): strict PEM (RFC 7468 §3)
 * with the label "AGE ENCRYPTED FILE", padded base64 in lines of 64
 * columns, no headers. The decoder takes LF or CRLF line ends, up to
 * 1024 bytes of whitespace before the block and 1023 after it, and refuses
 * anything else (the rules of age's own armor reader): an armored file is
 * malleable unless a parser is this strict. Both work on a stream, whole
 * lines at a time, from bytes to bytes through base64 tables: the full
 * lines that make up nearly all of a file are coded in one loop each, and
 * only the lines around them (whitespace, BEGIN, the last, END) one by one.
 */
import {
  ALPHABET,
  ascii,
  BEGIN,
  BEGIN_LINE,
  LINE_COLUMNS,
  END,
  END_LINE,
  encodeLastLine,
  encodeLines,
  LF,
  LINE_BYTES,
  lastLineLength,
  BASE64_PAD,
  viewOf,
} from './armor-lines.js';
import { isSpace, MAX_WHITESPACE } from './armor-begin.js';
import { joined, EMPTY } from '../runtime/bytes.js';
import { AgeFormatError } from './errors.js';
import { toBeWritten } from '../runtime/native.js';

/**
 * The most a line may hold without its line feed before it breaks a rule
 * whatever follows: whitespace then the BEGIN line. The decoder holds at
 * most this much of an unfinished line.
 */
const LONGEST_LINE = MAX_WHITESPACE + BEGIN.length;

const CR = 0x0d;

const BEGIN_BYTES = ascii(BEGIN);
const END_BYTES = ascii(END);

/** Each byte's 6-bit value in the alphabet; NOT_BASE64 (a bit no value has) for every other byte, "=" among them. */
const NOT_BASE64 = 64;
const VALUE = new Uint8Array(256).fill(NOT_BASE64);
/**
 * The full lines' decoding table, two characters at a time: a pair's 12
 * bits (the first character in the low byte of the index; NOT_PAIR where
 * either is outside the alphabet).
 */
const NOT_PAIR = 1 << 12;
const PAIR_VALUE = new Uint16Array(1 << 16).fill(NOT_PAIR);
for (let a = 0; a < 64; a++) {
  VALUE[ALPHABET[a]!] = a;
  for (let b = 0; b < 64; b++) PAIR_VALUE[ALPHABET[a]! | (ALPHABET[b]! << 8)] = (a << 6) | b;
}

/** The index after the line end (LF or CRLF) at `at` in `text`, or -1 where there is none. */
const afterLineEnd = (text: Uint8Array, at: number): number => (text[at] === LF ? at + 1 : text[at] === CR && text[at + 1] === LF ? at + 2 : -1);

/**
 * The length of the binary file that the armored `text` (whole, in
 * memory) decodes to, told from where its lines end, the BEGIN line's
 * and the END line's places and the last line's padding: exact for any
 * armor the decoder accepts, undefined where the lines are not laid out
 * as armor's (the decoder then says what is wrong). A one-shot decryption
 * sizes its result with it before it decodes anything.
 */
export function dearmoredLength(text: Uint8Array): number | undefined {
  let first = 0;
  while (first < text.length && isSpace(text[first]!)) first++;
  let at = afterLineEnd(text, first + BEGIN.length);
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1]!)) end--;
  const endLine = end - END.length;
  if (at < 0 || endLine < at || text[endLine - 1] !== LF) return undefined;
  if (endLine === at) return 0;
  const lastEnd = text[endLine - 2] === CR ? endLine - 2 : endLine - 1;
  let full = 0;
  while (lastEnd - at > LINE_COLUMNS) {
    at = afterLineEnd(text, at + LINE_COLUMNS);
    if (at < 0) return undefined;
    full++;
  }
  const columns = lastEnd - at;
  if (columns <= 0 || columns % 4 !== 0) return undefined;
  const pads = (text[lastEnd - 1] === BASE64_PAD ? 1 : 0) + (text[lastEnd - 2] === BASE64_PAD ? 1 : 0);
  return full * LINE_BYTES + (columns / 4) * 3 - pads;
}

/**
 * Armors a byte stream: the BEGIN line, then 64-column lines as bytes
 * come, then the END line; a whole file is `new ArmorEncoder().end(file)`,
 * one array of its text's length.
 */
export class ArmorEncoder {
  private started = false;
  /** Bytes short of a line, waiting for more: the first `held` of `rest`. */
  private readonly rest = new Uint8Array(LINE_BYTES);
  private held = 0;

  /** The armored text for `bytes`, as ASCII bytes (whole lines only; the rest waits). */
  write(bytes: Uint8Array): Uint8Array {
    return this.encode(bytes, false);
  }

  /** The text of the last `bytes`, the last line (shorter than 64 columns; none when the bytes filled whole lines) and the END line. */
  end(bytes: Uint8Array = EMPTY): Uint8Array {
    return this.encode(bytes, true);
  }

  private encode(bytes: Uint8Array, last: boolean): Uint8Array {
    const all = this.held === 0 ? bytes : joined([this.rest.subarray(0, this.held), bytes]);
    const lines = Math.floor(all.length / LINE_BYTES);
    const tail = all.subarray(lines * LINE_BYTES);
    const head = this.started ? 0 : BEGIN_LINE.length;
    // Every byte is written: the BEGIN line the first time, whole lines, and at the end the last line and END.
    const out = toBeWritten(head + lines * (LINE_COLUMNS + 1) + (last ? lastLineLength(tail.length) + END_LINE.length : 0));
    out.set(BEGIN_LINE.subarray(0, head));
    this.started = true;
    let to = encodeLines(all, 0, lines, out, head);
    if (!last) {
      this.rest.set(tail);
      this.held = tail.length;
      return out;
    }
    if (tail.length > 0) to = encodeLastLine(tail, out, to);
    out.set(END_LINE, to);
    this.held = 0;
    return out;
  }
}

/**
 * Decodes the 64 columns of a full line of `src` from `from` into `out` at
 * `to` (48 bytes); whether every character was in the alphabet ("=" is
 * not: a padded line is a last line, decodeLine's). Sixteen characters at
 * a time: four 32-bit loads, eight pairs, three 32-bit stores. The bytes
 * are written either way.
 */
function decodeFullLine(src: DataView, from: number, out: DataView, to: number): boolean {
  let seen = 0;
  for (let sixteen = 0; sixteen < LINE_COLUMNS / 16; sixteen++) {
    const w0 = src.getUint32(from, true);
    const w1 = src.getUint32(from + 4, true);
    const w2 = src.getUint32(from + 8, true);
    const w3 = src.getUint32(from + 12, true);
    const a0 = PAIR_VALUE[w0 & 0xffff]!;
    const a1 = PAIR_VALUE[w0 >>> 16]!;
    const b0 = PAIR_VALUE[w1 & 0xffff]!;
    const b1 = PAIR_VALUE[w1 >>> 16]!;
    const c0 = PAIR_VALUE[w2 & 0xffff]!;
    const c1 = PAIR_VALUE[w2 >>> 16]!;
    const d0 = PAIR_VALUE[w3 & 0xffff]!;
    const d1 = PAIR_VALUE[w3 >>> 16]!;
    seen |= a0 | a1 | b0 | b1 | c0 | c1 | d0 | d1;
    const a = (a0 << 12) | a1;
    const b = (b0 << 12) | b1;
    const c = (c0 << 12) | c1;
    const d = (d0 << 12) | d1;
    out.setUint32(to, (a << 8) | (b >>> 16));
    out.setUint32(to + 4, (b << 16) | (c >>> 8));
    out.setUint32(to + 8, (c << 24) | d);
    from += 16;
    to += 12;
  }
  return (seen & NOT_PAIR) === 0;
}

/** Decodes `quads` groups of four characters of `src` into `out` at `to`, a character at a time; whether all were in the alphabet. */
function decodeQuads(src: Uint8Array, quads: number, out: Uint8Array, to: number): boolean {
  let seen = 0;
  for (let from = 0; from < quads * 4; from += 4) {
    const a = VALUE[src[from]!]!;
    const b = VALUE[src[from + 1]!]!;
    const c = VALUE[src[from + 2]!]!;
    const d = VALUE[src[from + 3]!]!;
    seen |= a | b | c | d;
    out[to] = (a << 2) | (b >>> 4);
    out[to + 1] = (b << 4) | (c >>> 2);
    out[to + 2] = (c << 6) | d;
    to += 3;
  }
  return (seen & NOT_BASE64) === 0;
}

/**
 * Decodes a line of canonical padded base64 (RFC 4648 §3.5 and §4: whole
 * groups of four, "=" only to pad the last, and padding bits zero, as
 * Go's strict decoder requires) into `out` at `to`: the bytes it holds,
 * or -1 where it is not that.
 */
function decodeLine(line: Uint8Array, out: Uint8Array, to: number): number {
  const n = line.length;
  if (n === 0 || n % 4 !== 0) return -1;
  const pads = line[n - 1] === BASE64_PAD ? (line[n - 2] === BASE64_PAD ? 2 : 1) : 0;
  if (!decodeQuads(line, n / 4 - 1, out, to)) return -1;
  const [a, b, c, d] = [VALUE[line[n - 4]!]!, VALUE[line[n - 3]!]!, VALUE[line[n - 2]!]!, VALUE[line[n - 1]!]!];
  const last = to + (n / 4 - 1) * 3;
  if ((a | b) & NOT_BASE64) return -1;
  out[last] = (a << 2) | (b >>> 4);
  if (pads === 2) return (b & 0x0f) === 0 ? last + 1 - to : -1;
  if (c & NOT_BASE64) return -1;
  out[last + 1] = (b << 4) | (c >>> 2);
  if (pads === 1) return (c & 0x03) === 0 ? last + 2 - to : -1;
  if (d & NOT_BASE64) return -1;
  out[last + 2] = (c << 6) | d;
  return last + 3 - to;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** A line's start, quoted for an error message (from a copy: a TextDecoder refuses views of shared memory in browsers). */
const quoted = (line: Uint8Array): string => JSON.stringify(new TextDecoder().decode(line.slice(0, 80)));

/**
 * Decodes an armored byte stream (push, then end); each call returns the
 * bytes decoded so far, a new array. Errors are AgeFormatErrors that say
 * which rule the armor breaks, the same however the stream is cut.
 */
export class ArmorDecoder {
  /** The start of a line whose line feed has not come (at most LONGEST_LINE bytes). */
  private pending: Uint8Array = EMPTY;
  private state: 'before' | 'body' | 'after' = 'before';
  /** Whether the last data line was short: only the END line may follow it. */
  private short = false;
  private whitespace = 0;
  /** The decoded bytes of the call under way: the first `filled` of `out`. */
  private out: Uint8Array = EMPTY;
  private filled = 0;

  push(bytes: Uint8Array): Uint8Array {
    if (this.state === 'after') {
      this.trailing(bytes);
      return EMPTY;
    }
    // Every decoded byte comes from 4/3 of a character of these.
    this.out = new Uint8Array(Math.floor((this.pending.length + bytes.length) / 4) * 3);
    this.filled = 0;
    let at = 0;
    if (this.pending.length > 0) {
      const lf = bytes.indexOf(LF);
      if (lf < 0) {
        this.hold(joined([this.pending, bytes]));
        return this.decoded();
      }
      this.line(joined([this.pending, bytes.subarray(0, lf + 1)]));
      at = lf + 1;
    }
    at = this.lines(bytes, at);
    if (this.done()) {
      this.pending = EMPTY;
      this.trailing(bytes.subarray(at));
    } else {
      this.hold(bytes.slice(at));
    }
    return this.decoded();
  }

  /** The input ended: what its last line (without a line feed) holds; throws unless the armor was complete. */
  end(): Uint8Array {
    this.out = new Uint8Array(Math.floor(this.pending.length / 4) * 3);
    this.filled = 0;
    if (!this.done() && this.pending.length > 0) this.line(this.pending);
    this.pending = EMPTY;
    if (!this.done()) throw new AgeFormatError('invalid armor: the input ends before the END line');
    return this.decoded();
  }

  /** Whether the END line came (line() moves the state on). */
  private done(): boolean {
    return this.state === 'after';
  }

  private decoded(): Uint8Array {
    const out = this.out.subarray(0, this.filled);
    this.out = EMPTY;
    return out;
  }

  /** Keeps the start of a line; one longer than any armor's breaks a rule already, and line() throws the error its whole would. */
  private hold(start: Uint8Array): void {
    this.pending = start;
    if (start.length > LONGEST_LINE) this.line(start);
  }

  /** The lines of `src` from `at` up to the last line feed, or to the END line: where the rest starts. */
  private lines(src: Uint8Array, at: number): number {
    while (!this.done()) {
      if (this.state === 'body' && !this.short) at = this.fullLines(src, at);
      const lf = src.indexOf(LF, at);
      if (lf < 0) break;
      this.line(src.subarray(at, lf + 1));
      at = lf + 1;
    }
    return at;
  }

  /**
   * The full lines of `src` from `at` (64 columns of the alphabet, then
   * LF or CRLF), decoded in one loop: where the first other line starts,
   * which line() then takes (a short last line, END, or an error).
   */
  private fullLines(src: Uint8Array, at: number): number {
    const text = viewOf(src);
    const out = viewOf(this.out);
    let to = this.filled;
    while (at + LINE_COLUMNS < src.length) {
      let next: number;
      if (src[at + LINE_COLUMNS] === LF) next = at + LINE_COLUMNS + 1;
      else if (src[at + LINE_COLUMNS] === CR && src[at + LINE_COLUMNS + 1] === LF) next = at + LINE_COLUMNS + 2;
      else break;
      if (!decodeFullLine(text, at, out, to)) break;
      to += LINE_BYTES;
      at = next;
    }
    this.filled = to;
    return at;
  }

  /** One line, with its line feed (none at the input's end): whitespace or the BEGIN line, a data line, or the END line. */
  private line(raw: Uint8Array): void {
    let end = raw.length;
    if (end > 0 && raw[end - 1] === LF) end--;
    if (end > 0 && raw[end - 1] === CR) end--;
    if (this.state === 'before') this.beforeBody(raw.subarray(0, end), raw.length);
    else this.bodyLine(raw.subarray(0, end));
  }

  /** A line after BEGIN (its line end taken off): a data line, or the END line. */
  private bodyLine(line: Uint8Array): void {
    if (sameBytes(line, END_BYTES)) {
      this.state = 'after';
      this.whitespace = 0;
      return;
    }
    if (this.short) throw new AgeFormatError(`invalid armor: a short line is followed by ${quoted(line)}, not the END line`);
    if (line.length === 0) throw new AgeFormatError('invalid armor: an empty line');
    if (line.length > LINE_COLUMNS) throw new AgeFormatError(`invalid armor: a line longer than ${LINE_COLUMNS} columns`);
    const bytes = decodeLine(line, this.out, this.filled);
    if (bytes < 0) throw new AgeFormatError(`invalid armor: a line that is not canonical padded base64: ${quoted(line)}`);
    this.filled += bytes;
    // Only the last line may be short (and carry padding); the END line must follow it.
    this.short = bytes < LINE_BYTES;
  }

  /** A line before the body (`size` bytes with its line end): whitespace, then the BEGIN line. */
  private beforeBody(line: Uint8Array, size: number): void {
    if (line.every(isSpace)) {
      this.whitespace += size;
      if (this.whitespace > MAX_WHITESPACE) throw new AgeFormatError('invalid armor: too much whitespace before the BEGIN line');
      return;
    }
    if (!sameBytes(line, BEGIN_BYTES)) throw new AgeFormatError(`invalid armor: the first line is ${quoted(line)}, not ${JSON.stringify(BEGIN)}`);
    this.state = 'body';
  }

  /** After the END line, only whitespace, and less of it than before BEGIN: age refuses 1024 bytes after END, and takes 1024 before BEGIN. */
  private trailing(bytes: Uint8Array): void {
    if (!bytes.every(isSpace)) throw new AgeFormatError('invalid armor: data after the END line');
    this.whitespace += bytes.length;
    if (this.whitespace >= MAX_WHITESPACE) throw new AgeFormatError('invalid armor: too much whitespace after the END line');
  }
}
