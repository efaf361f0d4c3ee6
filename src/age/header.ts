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
import { base64nopad } from '@scure/base';
import { AgeFormatError } from './errors.js';

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
/** Base64 characters per body line, and bytes each full line holds. */
const COLUMNS = 64;
const LINE_BYTES = 48;

const LF = 0x0a;
const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

/** Canonical unpadded base64 (RFC 4648 §3.5), or an AgeFormatError naming `what`. */
export function decodeBase64(text: string, what: string): Uint8Array {
  try {
    return base64nopad.decode(text);
  } catch {
    throw new AgeFormatError(`${what} is not canonical unpadded base64: ${JSON.stringify(text)}`);
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
 * The longest header line taken: the format bounds body lines (64
 * columns) but not argument lines, and a parser must not hold a whole
 * file while it looks for a line feed. age's own stanzas are far shorter;
 * plugins' post-quantum ones run to about 1,500 bytes.
 */
const MAX_LINE = 8192;

/** Thrown (and caught by parseHeader) when the bytes end inside the header. */
const INCOMPLETE = Symbol('incomplete');

/** Reads the lines of `bytes` from `at`, each without its line feed. */
class Lines {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  /** The next line; throws INCOMPLETE when `bytes` ends before its line feed, AgeFormatError for a line too long to be a header's. */
  next(): string {
    const end = this.bytes.indexOf(LF, this.at);
    const length = (end < 0 ? this.bytes.length : end) - this.at;
    if (length > MAX_LINE) throw new AgeFormatError(`a header line of more than ${MAX_LINE} bytes: not an age header`);
    if (end < 0) throw INCOMPLETE;
    const text = latin1(this.bytes.subarray(this.at, end));
    this.at = end + 1;
    return text;
  }
}

const line = (lines: Lines): string => lines.next();

/** A stanza from its argument line (already read: "-> " and the arguments) on. */
function stanza(first: string, lines: Lines): Stanza {
  const args = first.slice(3).split(' ');
  if (!first.startsWith('-> ') || args.some((a) => !isArgument(a))) throw new AgeFormatError(`malformed stanza line: ${JSON.stringify(first)}`);
  const parts: Uint8Array[] = [];
  for (;;) {
    const l = line(lines);
    if (l.length > COLUMNS) throw new AgeFormatError(`a stanza body line of ${l.length} columns (at most ${COLUMNS})`);
    const part = decodeBase64(l, 'a stanza body line');
    parts.push(part);
    // A body always ends with a line shorter than 64 columns, which may be empty.
    if (part.length < LINE_BYTES) break;
  }
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.length;
  }
  return { type: args[0]!, args: args.slice(1), body };
}

/**
 * The header at the start of `bytes`, or undefined when `bytes` ends
 * before the header does (give it more). Throws AgeFormatError for a
 * header that breaks a rule, as soon as what it has shows it.
 */
export function parseHeader(bytes: Uint8Array): Header | undefined {
  const intro = latin1(bytes.subarray(0, Math.min(bytes.length, INTRO.length)));
  if (!INTRO.startsWith(intro)) throw notAnAgeFile(bytes);
  const lines = new Lines(bytes, 0);
  try {
    const version = line(lines);
    if (`${version}\n` !== VERSION_LINE) throw new AgeFormatError(`unsupported age version or malformed version line: ${JSON.stringify(version)}`);
    const stanzas: Stanza[] = [];
    for (;;) {
      const start = lines.at;
      const l = line(lines);
      if (l.startsWith('---')) {
        if (!l.startsWith('--- ') || stanzas.length === 0) throw new AgeFormatError(`malformed MAC line: ${JSON.stringify(l)}`);
        const mac = decodeBase64(l.slice(4), 'the header MAC');
        if (mac.length !== 32) throw new AgeFormatError(`a header MAC of ${mac.length} bytes (32 expected)`);
        return { stanzas, macked: bytes.slice(0, start + 3), mac, length: lines.at };
      }
      stanzas.push(stanza(l, lines));
    }
  } catch (e) {
    if (e === INCOMPLETE) return undefined;
    throw e;
  }
}

/** A stanza as the header carries it: its argument line, then its body wrapped at 64 columns, ending with a shorter line. */
function stanzaText(s: Stanza): string {
  const encoded = encodeBase64(s.body);
  let text = `-> ${[s.type, ...s.args].join(' ')}\n`;
  for (let at = 0; at <= encoded.length; at += COLUMNS) text += `${encoded.slice(at, at + COLUMNS)}\n`;
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
