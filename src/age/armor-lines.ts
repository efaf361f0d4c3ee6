/**
 * The lines of age's ASCII armor (C2SP age, "ASCII armor"): padded base64
 * (RFC 4648 §4) in lines of 64 columns, 48 bytes each, between the BEGIN
 * and END lines. The encoding the armor's encoder (armor.ts) and the file
 * calls' pieces share: a worker that writes its lines of an armored file
 * loads this, not the decoder's tables.
 */
import type { Bytes } from '../runtime/bytes.js';
import { BEGIN, LF, LINE_BYTES, LINE_COLUMNS } from './armor-begin.js';

export { BEGIN, LF, LINE_BYTES, LINE_COLUMNS };
export const END = '-----END AGE ENCRYPTED FILE-----';
/** Base64's padding, '='. */
export const BASE64_PAD = 0x3d;

export const ascii = (s: string): Bytes => new TextEncoder().encode(s) as Bytes;
export const BEGIN_LINE: Bytes = ascii(`${BEGIN}\n`);
export const END_LINE: Bytes = ascii(`${END}\n`);

/** base64's alphabet (RFC 4648 §4), as bytes. */
export const ALPHABET: Bytes = ascii('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
/** The full lines' encoding table, two characters at a time: 12 bits to their two characters (the first in the low byte). */
const PAIR_CHARS = new Uint16Array(1 << 12);
for (let a = 0; a < 64; a++) for (let b = 0; b < 64; b++) PAIR_CHARS[(a << 6) | b] = ALPHABET[a]! | (ALPHABET[b]! << 8);

export const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Encodes `lines` full lines of `src` from `from` into `out` at `to`,
 * each 64 columns and a line feed; the index after them. Twelve bytes at
 * a time: three 32-bit loads, four 24-bit groups, sixteen characters.
 */
export function encodeLines(src: Uint8Array, from: number, lines: number, out: Uint8Array, to: number): number {
  const input = viewOf(src);
  const output = viewOf(out);
  for (let line = 0; line < lines; line++) {
    for (let twelve = 0; twelve < LINE_BYTES / 12; twelve++) {
      const w0 = input.getUint32(from);
      const w1 = input.getUint32(from + 4);
      const w2 = input.getUint32(from + 8);
      const a = w0 >>> 8;
      const b = ((w0 & 0xff) << 16) | (w1 >>> 16);
      const c = ((w1 & 0xffff) << 8) | (w2 >>> 24);
      const d = w2 & 0xffffff;
      output.setUint32(to, PAIR_CHARS[a >>> 12]! | (PAIR_CHARS[a & 0xfff]! << 16), true);
      output.setUint32(to + 4, PAIR_CHARS[b >>> 12]! | (PAIR_CHARS[b & 0xfff]! << 16), true);
      output.setUint32(to + 8, PAIR_CHARS[c >>> 12]! | (PAIR_CHARS[c & 0xfff]! << 16), true);
      output.setUint32(to + 12, PAIR_CHARS[d >>> 12]! | (PAIR_CHARS[d & 0xfff]! << 16), true);
      from += 12;
      to += 16;
    }
    out[to++] = LF;
  }
  return to;
}

/** The columns of a last line of `bytes` bytes (1 to 48): padded base64 (RFC 4648 §4) rounds up to whole groups of four. */
const columnsOf = (bytes: number): number => Math.ceil(bytes / 3) * 4;

/** Encodes `src` (1 to 48 bytes) as padded base64 and a line feed into `out` at `to`; the index after them. */
export function encodeLastLine(src: Uint8Array, out: Uint8Array, to: number): number {
  for (let from = 0; from < src.length; from += 3) {
    const left = src.length - from;
    const v = (src[from]! << 16) | ((left > 1 ? src[from + 1]! : 0) << 8) | (left > 2 ? src[from + 2]! : 0);
    out[to] = ALPHABET[v >>> 18]!;
    out[to + 1] = ALPHABET[(v >>> 12) & 63]!;
    out[to + 2] = left > 1 ? ALPHABET[(v >>> 6) & 63]! : BASE64_PAD;
    out[to + 3] = left > 2 ? ALPHABET[v & 63]! : BASE64_PAD;
    to += 4;
  }
  out[to++] = LF;
  return to;
}

/** A last line's length with its line feed: none when the bytes filled whole lines. */
export const lastLineLength = (bytes: number): number => (bytes > 0 ? columnsOf(bytes) + 1 : 0);

/**
 * Armor at computed offsets, for a file whose pieces are written by
 * several threads: byte `at` of the binary file is in line floor(at / 48)
 * of the armored text, which starts at BEGIN_LINE.length + 65 x line.
 * Each piece armors the lines it holds whole (ArmoredRun); the lines it
 * shares with a neighbour, at its edges, are joined and written by the
 * call (ArmoredLines), which writes BEGIN and END too.
 */

/** The armored text's length for a binary file of `bytes` bytes. */
export const armoredLength = (bytes: number): number =>
  BEGIN_LINE.length + Math.floor(bytes / LINE_BYTES) * (LINE_COLUMNS + 1) + lastLineLength(bytes % LINE_BYTES) + END_LINE.length;

/** Where the text of line `line` starts. */
const lineOffset = (line: number): number => BEGIN_LINE.length + line * (LINE_COLUMNS + 1);

/** The length of the head of a run from `start` to `end`: its bytes before the first line boundary, which a neighbour's line shares. */
export const headLength = (start: number, end: number): number => Math.min(end, Math.ceil(start / LINE_BYTES) * LINE_BYTES) - start;

/** The text of whole lines, reused: coded lines are ciphertext, so nothing to wipe. */
let lineText = new Uint8Array(0);

/**
 * The binary file's bytes [start, end), pushed front to back, armored:
 * each whole line it holds written at its offset (write), its edges (the
 * bytes before its first line boundary, and those after its last) kept
 * for edges().
 */
export class ArmoredRun {
  private at: number;
  private readonly head: Uint8Array;
  private readonly tail = new Uint8Array(LINE_BYTES);
  private held = 0;

  constructor(
    private readonly start: number,
    end: number,
    private readonly write: (text: Uint8Array, offset: number) => void,
  ) {
    this.at = start;
    this.head = new Uint8Array(headLength(start, end));
  }

  push(bytes: Uint8Array): void {
    // Byte i of `bytes` is byte base + i of the file; lines start at multiples of 48 of the file.
    const base = this.at;
    this.at += bytes.length;
    let from = Math.max(0, Math.min(bytes.length, this.start + this.head.length - base));
    if (from > 0) this.head.set(bytes.subarray(0, from), base - this.start);
    if (this.held > 0) {
      const n = Math.min(LINE_BYTES - this.held, bytes.length - from);
      this.tail.set(bytes.subarray(from, from + n), this.held);
      this.held += n;
      from += n;
      if (this.held < LINE_BYTES) return;
      this.lines(this.tail, 0, 1, base + from - LINE_BYTES);
      this.held = 0;
    }
    const lines = Math.floor((bytes.length - from) / LINE_BYTES);
    this.lines(bytes, from, lines, base + from);
    from += lines * LINE_BYTES;
    this.tail.set(bytes.subarray(from));
    this.held = bytes.length - from;
  }

  /** The edges: the head's bytes, then the tail's (from the last line boundary before `end`; a run cut short has lines missing, which ArmoredLines.finish finds). */
  edges(): Uint8Array {
    const out = new Uint8Array(this.head.length + this.held);
    out.set(this.head);
    out.set(this.tail.subarray(0, this.held), this.head.length);
    return out;
  }

  /** Writes `lines` whole lines of `src` from `from`, the first of which starts at byte `binaryAt` of the file. */
  private lines(src: Uint8Array, from: number, lines: number, binaryAt: number): void {
    if (lines === 0) return;
    const length = lines * (LINE_COLUMNS + 1);
    if (lineText.length < length) lineText = new Uint8Array(length);
    encodeLines(src, from, lines, lineText, 0);
    this.write(lineText.subarray(0, length), lineOffset(binaryAt / LINE_BYTES));
  }
}

/**
 * The armored lines a call writes itself, of a binary file of `total`
 * bytes: those the pieces share (their edges) and the header's, each
 * written once all its bytes came; then BEGIN and END (finish).
 */
export class ArmoredLines {
  private readonly open = new Map<number, { bytes: Uint8Array; held: number }>();
  private readonly writes: Promise<unknown>[] = [];

  constructor(
    private readonly total: number,
    private readonly write: (text: Uint8Array, offset: number) => Promise<unknown>,
  ) {}

  /** Bytes of the file from `at`. */
  add(bytes: Uint8Array, at: number): void {
    for (let from = 0; from < bytes.length; ) {
      const line = Math.floor((at + from) / LINE_BYTES);
      const lineStart = line * LINE_BYTES;
      const length = Math.min(LINE_BYTES, this.total - lineStart);
      const entry = this.open.get(line) ?? { bytes: new Uint8Array(length), held: 0 };
      const n = Math.min(bytes.length - from, lineStart + length - (at + from));
      entry.bytes.set(bytes.subarray(from, from + n), at + from - lineStart);
      entry.held += n;
      from += n;
      if (entry.held < length) {
        this.open.set(line, entry);
        continue;
      }
      this.open.delete(line);
      const text = new Uint8Array(length === LINE_BYTES ? LINE_COLUMNS + 1 : lastLineLength(length));
      if (length === LINE_BYTES) encodeLines(entry.bytes, 0, 1, text, 0);
      else encodeLastLine(entry.bytes, text, 0);
      this.writing(this.write(text, lineOffset(line)));
    }
  }

  /** Writes BEGIN and END, and waits for every write; fails if a line did not get all its bytes. */
  async finish(): Promise<void> {
    if (this.open.size > 0) throw new Error(`fourfold: ${this.open.size} armored lines did not get all their bytes`);
    this.writing(this.write(BEGIN_LINE, 0));
    this.writing(this.write(END_LINE, armoredLength(this.total) - END_LINE.length));
    await Promise.all(this.writes);
  }

  /** Resolves once no write is pending, however they ended (a call that fails waits for them before it removes its file). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.writes);
  }

  private writing(write: Promise<unknown>): void {
    // Reported by finish(); a call that fails before it must not leave the rejection unhandled.
    write.catch(() => {});
    this.writes.push(write);
  }
}
