/**
 * The age v1 header (C2SP age, "Header"): a version line, one or more
 * recipient stanzas, and the MAC line, parsed strictly (every rule of the
 * ABNF: canonical unpadded base64, bodies wrapped at 64 columns and ended
 * by a shorter line, arguments of visible ASCII) and written the one way
 * the format allows.
 *
 *     age-encryption.org/v1
 *     -> X25519 XEl0dJ6y3C7KZkgmgWUicg63EyXJiwBJW8PdYJ/cYBE
 *     qRS0AMjdjPvZ/WT08U2KL4G+PIooA3hy38SvLpvaC1E
 *     --- HK2NmOBN9Dpq0Gw6xMCuhFcQlQLvZ/wQUi/2scLG75s
 */
import { base64nopad } from './text-encodings.js';
import { AgeFormatError } from './errors.js';
import { LF, LINE_BYTES, LINE_COLUMNS } from './armor-begin.js';

/** A recipient stanza: its type (the first argument), the other arguments, and its body. */
export interface Stanza {
  readonly type: string;
  readonly args: readonly string[];
  readonly body: Uint8Array;
}

export interface Header {
  readonly stanzas: readonly Stanza[];
  /** The header's bytes up to and including "---", what the MAC covers. */
  readonly macked: Uint8Array;
  /** The 32-byte HMAC-SHA-256 of `macked`. */
  readonly mac: Uint8Array;
  /** Bytes of the whole header, through the MAC line's line feed: the payload starts there. */
  readonly length: number;
}

export const VERSION_LINE = 'age-encryption.org/v1\n';
/** What every version line starts with: a file that does not is not an age file. */
const INTRO = 'age-encryption.org/';
/** Bytes as one character each, in pieces (an argument list as long as a header line would overflow the stack). */
function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 4096) text += String.fromCharCode(...bytes.subarray(at, at + 4096));
  return text;
}

/** Canonical unpadded base64 (RFC 4648 §3.5), or an AgeFormatError naming `what`. */
export function decodeBase64(text: string, what: string): Uint8Array {
  try {
    return base64nopad.decode(text);
  } catch {
    throw new AgeFormatError(`${what} is not canonical unpadded base64: ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text)}`);
  }
}

export const encodeBase64 = (bytes: Uint8Array): string => base64nopad.encode(bytes);

/** Why `bytes` is not an age file, as precisely as its start tells: a PEM block of another kind, armor after other data, or anything else. */
function notAnAgeFile(bytes: Uint8Array): AgeFormatError {
  const start = latin1(bytes.subarray(0, 1100));
  const first = start.trimStart().split(/\r?\n/)[0]!;
  if (first.startsWith('-----'))
    return new AgeFormatError(`invalid armor: the first line is ${JSON.stringify(first.slice(0, 80))}, not "-----BEGIN AGE ENCRYPTED FILE-----"`);
  if (start.includes('-----BEGIN AGE ENCRYPTED FILE-----')) return new AgeFormatError('invalid armor: data before the BEGIN line');
  return new AgeFormatError('not an age file: it does not start with "age-encryption.org/"');
}

/** An argument: one or more visible ASCII characters (VCHAR, 0x21-0x7E). */
const isArgument = (s: string): boolean => /^[\x21-\x7e]+$/.test(s);

/**
 * The bounds age itself puts on a header (it refuses more), so that a file
 * can ask only so much of its reader: recipient stanzas (each may cost an
 * X25519 multiplication per identity), bytes (the format bounds neither
 * argument lines nor a stanza's body, and a reader must not hold a whole
 * file while it looks for the header's end), and arguments after a
 * stanza's type.
 */
export const MAX_STANZAS = 1024;
export const MAX_HEADER = 2 << 20;
const MAX_ARGUMENTS = 128;

/** A stanza being read: its argument line read, its body lines so far. */
export interface OpenStanza {
  readonly type: string;
  readonly args: readonly string[];
  readonly parts: Uint8Array[];
}

/** The stanza from its argument line ("-> " and the arguments); the plugin protocol's messages are read with it too. */
export function stanzaStart(line: string): OpenStanza {
  const args = line.slice(3).split(' ');
  if (!line.startsWith('-> ') || args.some((a) => !isArgument(a))) throw new AgeFormatError(`malformed stanza line: ${JSON.stringify(line.slice(0, 80))}`);
  if (args.length > MAX_ARGUMENTS + 1) throw new AgeFormatError(`a stanza of more than ${MAX_ARGUMENTS} arguments after its type (age's limit)`);
  return { type: args[0]!, args: args.slice(1), parts: [] };
}

/** A body line of `open`; the stanza once this line ends its body (a line shorter than 64 columns, which may be empty). */
export function bodyLine(open: OpenStanza, line: string): Stanza | undefined {
  if (line.length > LINE_COLUMNS) throw new AgeFormatError(`a stanza body line of ${line.length} columns (at most ${LINE_COLUMNS})`);
  const part = decodeBase64(line, 'a stanza body line');
  open.parts.push(part);
  if (part.length === LINE_BYTES) return undefined;
  const body = new Uint8Array(open.parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of open.parts) {
    body.set(p, at);
    at += p.length;
  }
  return { type: open.type, args: open.args, body };
}

/**
 * Reads a header from the bytes of a file as they come (push), each line
 * once: the bytes it takes are copied into a buffer of its own, which
 * holds the header only (MAX_HEADER at most), so a header read in many
 * small pieces costs what it costs in one. Throws AgeFormatError for a
 * header that breaks a rule as soon as the bytes so far show it.
 */
export class HeaderReader {
  /** The header's bytes so far, in `buffer[0, held)`. */
  private buffer = new Uint8Array(0);
  private held = 0;
  /** Where the line being read starts, in `buffer`. */
  private lineAt = 0;
  private readonly stanzas: Stanza[] = [];
  private open: OpenStanza | undefined;
  private versionRead = false;

  /**
   * Takes the next bytes of the file: the header and how many of `bytes`
   * it ends with (the payload's nonce follows), once its MAC line is
   * complete; undefined while it is not (push more).
   */
  push(bytes: Uint8Array): { header: Header; used: number } | undefined {
    if (this.held < INTRO.length) this.checkIntro(bytes);
    for (let from = 0; from < bytes.length; ) {
      const lf = bytes.indexOf(LF, from);
      const end = lf < 0 ? bytes.length : lf + 1;
      this.take(bytes.subarray(from, end));
      from = end;
      if (lf < 0) break;
      const header = this.line(latin1(this.buffer.subarray(this.lineAt, this.held - 1)));
      this.lineAt = this.held;
      if (header !== undefined) return { header, used: end };
    }
    return undefined;
  }

  /** The file ended before the header did: the error that says so (AgeFormatError). */
  ended(): AgeFormatError {
    if (this.held === 0) return new AgeFormatError('not an age file: the file is empty');
    return new AgeFormatError('the file ends inside its header');
  }

  /** Refuses at once what does not start as an age file does. */
  private checkIntro(bytes: Uint8Array): void {
    const start = new Uint8Array(Math.min(INTRO.length, this.held + bytes.length));
    start.set(this.buffer.subarray(0, this.held));
    start.set(bytes.subarray(0, start.length - this.held), this.held);
    if (!INTRO.startsWith(latin1(start))) throw notAnAgeFile(this.held === 0 ? bytes : start);
  }

  /** Appends `bytes` (a line or part of one) to the held header, within MAX_HEADER. */
  private take(bytes: Uint8Array): void {
    const length = this.held + bytes.length;
    if (length > MAX_HEADER) throw new AgeFormatError(`a header of more than 2 MiB (${MAX_HEADER} bytes, age's limit)`);
    if (length > this.buffer.length) {
      const grown = new Uint8Array(Math.min(MAX_HEADER, Math.max(length, 2 * this.buffer.length, 1024)));
      grown.set(this.buffer.subarray(0, this.held));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.held);
    this.held = length;
  }

  /** One complete line (without its line feed): the header once this is its MAC line. */
  private line(text: string): Header | undefined {
    if (!this.versionRead) {
      if (`${text}\n` !== VERSION_LINE) throw new AgeFormatError(`unsupported age version or malformed version line: ${JSON.stringify(text.slice(0, 80))}`);
      this.versionRead = true;
      return undefined;
    }
    if (this.open !== undefined) {
      const done = bodyLine(this.open, text);
      if (done !== undefined) {
        this.stanzas.push(done);
        this.open = undefined;
      }
      return undefined;
    }
    if (text.startsWith('---')) return this.macLine(text);
    if (this.stanzas.length === MAX_STANZAS) throw new AgeFormatError(`a header of more than ${MAX_STANZAS} recipient stanzas (age's limit)`);
    this.open = stanzaStart(text);
    return undefined;
  }

  private macLine(text: string): Header {
    if (!text.startsWith('--- ') || this.stanzas.length === 0) throw new AgeFormatError(`malformed MAC line: ${JSON.stringify(text.slice(0, 80))}`);
    const mac = decodeBase64(text.slice(4), 'the header MAC');
    if (mac.length !== 32) throw new AgeFormatError(`a header MAC of ${mac.length} bytes (32 expected)`);
    return { stanzas: this.stanzas, macked: this.buffer.slice(0, this.lineAt + 3), mac, length: this.held };
  }
}

/**
 * The header at the start of `bytes`, or undefined when `bytes` ends
 * before the header does. Throws AgeFormatError for a header that breaks
 * a rule, as soon as what it has shows it.
 */
export function parseHeader(bytes: Uint8Array): Header | undefined {
  return new HeaderReader().push(bytes)?.header;
}

/** A stanza as the header carries it (and the plugin protocol): its argument line, then its body wrapped at 64 columns, ending with a shorter line. */
export function stanzaText(s: Stanza): string {
  const encoded = encodeBase64(s.body);
  let text = `-> ${[s.type, ...s.args].join(' ')}\n`;
  for (let at = 0; at <= encoded.length; at += LINE_COLUMNS) text += `${encoded.slice(at, at + LINE_COLUMNS)}\n`;
  return text;
}

/** The header's bytes up to and including "---": what the MAC covers. */
export function headerToMac(stanzas: readonly Stanza[]): Uint8Array {
  return new TextEncoder().encode(`${VERSION_LINE}${stanzas.map(stanzaText).join('')}---`);
}

/** The whole header: `macked` (headerToMac), a space, the MAC and a line feed. */
export function headerBytes(macked: Uint8Array, mac: Uint8Array): Uint8Array {
  const tail = new TextEncoder().encode(` ${encodeBase64(mac)}\n`);
  const out = new Uint8Array(macked.length + tail.length);
  out.set(macked);
  out.set(tail, macked.length);
  return out;
}
