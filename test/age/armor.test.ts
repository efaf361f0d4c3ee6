/**
 * age's ASCII armor on its own (C2SP age, "ASCII armor"): the encoder's
 * text is a reference base64's, line for line, however its input is
 * written (a whole file to end() among the ways); the decoder gives
 * the same bytes, or the same error, however its input is cut (in two at
 * every byte, a byte at a time, at random), for armor of every length
 * around a line and the decoders' groups (0, 1, 11 to 13, 47 to 49 bytes,
 * two and three lines and one around them), with LF, CRLF or both,
 * whitespace around the block, and for malformed armor made from each: a
 * character out of the alphabet in a full or the last line, padding
 * missing or not canonical, lines too long, too short or empty, a bare
 * CR, whitespace past age's limits, data after END, no END, a line longer
 * than any armor's; and the test kit's armored files. Where the decoder
 * accepts, dearmoredLength tells its length from the layout alone.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as age from 'fourfold/age';
import { base64 } from '@scure/base';
import { assertBytes, concat, loadJson, rand, randInt } from '../helpers.js';
import { ArmorDecoder, ArmoredLines, ArmoredRun, ArmorEncoder, armoredLength, dearmoredLength, headLength } from '../internal.js';

const BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
const END = '-----END AGE ENCRYPTED FILE-----';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** The armor of `bytes` from a reference base64, a 48-byte line at a time. */
function reference(bytes: Uint8Array): string {
  const lines = [BEGIN];
  for (let at = 0; at < bytes.length; at += 48) lines.push(base64.encode(bytes.subarray(at, at + 48)));
  return `${[...lines, END].join('\n')}\n`;
}

/** What the decoder makes of `text` written in pieces ending at `cuts`: its bytes, or its error's message. */
function decoded(text: Uint8Array, cuts: readonly number[] = []): Uint8Array | string {
  const d = new ArmorDecoder();
  const parts: Uint8Array[] = [];
  try {
    let at = 0;
    for (const cut of [...cuts, text.length]) {
      parts.push(d.push(text.subarray(at, cut)));
      at = cut;
    }
    parts.push(d.end());
    return concat(...parts);
  } catch (e) {
    if (!(e instanceof age.AgeFormatError) || !e.message.startsWith('invalid armor')) throw e;
    return e.message;
  }
}

/** Random cuts of `length` bytes: `count` of them, sorted. */
const randomCuts = (length: number, count: number): number[] => Array.from({ length: count }, () => randInt(length + 1)).sort((a, b) => a - b);

/**
 * Checks that every way of cutting `text` tells what one piece tells, and
 * that where the decoder accepts it, dearmoredLength (a one-shot call's
 * result size) is the length it decodes to; returns what one piece tells.
 */
function sameHoweverCut(text: Uint8Array, label: string): Uint8Array | string {
  const whole = decoded(text);
  if (typeof whole !== 'string') assert.equal(dearmoredLength(text), whole.length, `${label}: the length told from the layout`);
  const twoPieces = text.length <= 600 ? Array.from({ length: text.length + 1 }, (_, i) => [i]) : Array.from({ length: 200 }, () => randomCuts(text.length, 1));
  const ways = [...twoPieces, Array.from({ length: text.length }, (_, i) => i), ...Array.from({ length: 20 }, () => randomCuts(text.length, 1 + randInt(8)))];
  for (const cuts of ways) {
    const got = decoded(text, cuts);
    if (typeof whole === 'string') assert.equal(got, whole, `${label}, cut at ${cuts.slice(0, 8).join(',')}`);
    else assertBytes(got, whole, `${label}, cut at ${cuts.slice(0, 8).join(',')}`);
  }
  return whole;
}

/** Lengths around a line (48 bytes), the 12- and 16-byte groups the full lines are coded in, and several lines. */
const SIZES = [0, 1, 2, 3, 11, 12, 13, 47, 48, 49, 95, 96, 97, 143, 144, 145, 1000];

/** The armor of `bytes` with each line ended by CRLF where `crlf(line)` says, LF elsewhere. */
function withLineEnds(text: string, crlf: (line: number) => boolean): string {
  const lines = text.split('\n');
  const last = lines.pop()!;
  return lines.map((l, i) => `${l}${crlf(i) ? '\r\n' : '\n'}`).join('') + last;
}

it('the encoder writes the reference base64 a 48-byte line at a time, however its input is written, the last piece given to end() or not', () => {
  for (const size of [...SIZES, 4096 + 7]) {
    const data = rand(size);
    const want = latin1(reference(data));
    for (const cuts of [[], Array.from({ length: size }, (_, i) => i), randomCuts(size, 5), randomCuts(size, 1)]) {
      for (const lastToEnd of [false, true]) {
        const e = new ArmorEncoder();
        const parts: Uint8Array[] = [];
        let at = 0;
        for (const cut of cuts) {
          parts.push(e.write(data.subarray(at, cut)));
          at = cut;
        }
        if (lastToEnd) parts.push(e.end(data.subarray(at)));
        else parts.push(e.write(data.subarray(at)), e.end());
        assertBytes(concat(...parts), want, `${size} bytes, written in ${cuts.length + 1} pieces${lastToEnd ? ', the last to end()' : ''}`);
      }
    }
  }
});

it('valid armor: its bytes, however it is cut, with LF or CRLF line ends and whitespace around it', () => {
  for (const size of SIZES) {
    const data = rand(size);
    const lf = reference(data);
    const forms: Record<string, string> = {
      LF: lf,
      CRLF: withLineEnds(lf, () => true),
      'CRLF on odd lines': withLineEnds(lf, (i) => i % 2 === 1),
      'no line feed after END': lf.slice(0, -1),
      'CR, no line feed after END': `${lf.slice(0, -1)}\r`,
      'whitespace around': ` \t\n\r\n\v\f\n${lf}\n \t\r\n  `,
      '1024 bytes of whitespace before': `${' '.repeat(1022)}\r\n${lf}`,
      '1023 bytes of whitespace after': `${lf}${'\r\n'.repeat(511)} `,
    };
    for (const [form, text] of Object.entries(forms)) assertBytes(sameHoweverCut(latin1(text), `${size} bytes, ${form}`), data, `${size} bytes, ${form}`);
  }
});

/** Malformed forms of the armor `text` of `size` bytes (lines: BEGIN, the data lines, END). */
function malformed(text: string, size: number): Record<string, string> {
  const lines = text.split('\n').slice(0, -1);
  const data = lines.slice(1, -1);
  const last = data.length - 1;
  const withData = (change: (lines: string[]) => string[]) => `${[BEGIN, ...change(data.slice()), END].join('\n')}\n`;
  const at = (i: number, line: string) => withData((d) => d.map((l, j) => (j === i ? line : l)));
  const forms: Record<string, string> = {
    'data after END': `${text}x`,
    'a NUL after END': `${text}\0`,
    '1024 bytes of whitespace after': `${text}${' '.repeat(1024)}`,
    '1025 bytes of whitespace before': `${' '.repeat(1023)}\r\n${text}`,
    'data before BEGIN': `x\n${text}`,
    'no END line': text.slice(0, -END.length - 1),
    'a lowercase END line': text.replace('END AGE', 'end AGE'),
    'a space after END': text.replace(`${END}\n`, `${END} \n`),
    'a lowercase BEGIN line': text.replace('BEGIN AGE', 'begin AGE'),
    'a header after BEGIN': text.replace(`${BEGIN}\n`, `${BEGIN}\nComment: x\n\n`),
    'CR alone ends the lines': text.replaceAll('\n', '\r'),
    'CR CR LF ends the BEGIN line': text.replace(`${BEGIN}\n`, `${BEGIN}\r\r\n`),
    'an empty line before END': withData((d) => [...d, '']),
    'an empty line after BEGIN': withData((d) => ['', ...d]),
    'a line longer than any armor, unended': `${BEGIN}\n${'A'.repeat(2000)}`,
    'a line longer than any armor, unended, before BEGIN': `${'A'.repeat(2000)}`,
    'whitespace longer than any armor, unended': `${' '.repeat(2000)}`,
  };
  if (size === 0) return forms;
  const lastLine = data[last]!;
  Object.assign(forms, {
    'a character out of the alphabet in the last line': at(last, `!${lastLine.slice(1)}`),
    'a URL-safe character in the last line': at(last, `-${lastLine.slice(1)}`),
    'a bare CR inside the last line': at(last, `${lastLine.slice(0, 2)}\r${lastLine.slice(2)}`),
    'CR CR LF after the last line': at(last, `${lastLine}\r\r`),
    'the last line a character longer': at(last, `${lastLine}A`),
  });
  // Padding bits set: the character before the padding one value up (canonical ones have them zero).
  const pads = lastLine.length - lastLine.replace(/=+$/, '').length;
  if (pads > 0) {
    const i = lastLine.length - pads - 1;
    const up = ALPHABET[ALPHABET.indexOf(lastLine[i]!) + 1]!;
    forms['the last line without padding'] = at(last, lastLine.slice(0, -pads));
    forms['the last line not canonical'] = at(last, `${lastLine.slice(0, i)}${up}${lastLine.slice(i + 1)}`);
  }
  if (size % 48 !== 0) forms['a line after the short last line'] = withData((d) => [...d, 'AAAA']);
  if (data.length < 2) return forms;
  const full = data[0]!;
  Object.assign(forms, {
    'a character out of the alphabet in a full line': at(0, `${full.slice(0, 40)}.${full.slice(41)}`),
    'a byte over 127 in a full line': at(0, `${full.slice(0, 17)}\u00c1${full.slice(18)}`),
    'padding inside a full line': at(0, `${full.slice(0, 62)}==`),
    'a full line of 63 columns': at(0, full.slice(0, 63)),
    'a full line of 65 columns': at(0, `${full}A`),
    'a full line of 60 columns': at(0, full.slice(0, 60)),
    'a full line broken in two': withData((d) => [d[0]!.slice(0, 32), d[0]!.slice(32), ...d.slice(1)]),
    'a bare CR at the end of a full line': `${text.replace(`${full}\n`, `${full}\r`)}`,
  });
  return forms;
}

it('malformed armor: refused with the same error however it is cut, with LF or CRLF line ends', () => {
  for (const size of SIZES) {
    const lf = reference(rand(size));
    for (const [form, text] of Object.entries(malformed(lf, size))) {
      for (const [ends, t] of [
        ['LF', text],
        ['CRLF', text.replaceAll(/\r?\n/g, '\r\n')],
      ] as const) {
        const got = sameHoweverCut(latin1(t), `${size} bytes, ${form}, ${ends}`);
        assert.equal(typeof got, 'string', `${size} bytes, ${form}, ${ends}: accepted`);
      }
    }
  }
});

it("the test kit's armored files: the same outcome however they are cut", () => {
  const kit = loadJson<{ vectors: { name: string; fields: Record<string, string[]>; file: string }[] }>('vectors/age-testkit.json').vectors;
  const armored = kit.filter((v) => v.fields.armored?.[0] === 'yes' && v.fields.compressed === undefined);
  assert.ok(armored.length >= 25, `only ${armored.length} armored vectors`);
  for (const v of armored) {
    const got = sameHoweverCut(Uint8Array.from(base64.decode(v.file)), v.name);
    if (v.fields.expect?.[0] === 'armor failure') assert.equal(typeof got, 'string', `${v.name}: accepted`);
    if (v.fields.expect?.[0] === 'success') assert.ok(got instanceof Uint8Array, `${v.name}: ${String(got)}`);
  }
});

it('a long armor cut in pieces of about a line, a few lines and a read: the same bytes', () => {
  const data = rand(100_003);
  const text = latin1(withLineEnds(reference(data), (i) => i % 7 === 3));
  for (const piece of [63, 64, 65, 66, 67, 3 * 65 - 1, 3 * 65 + 1, 4095, 4096, 4097]) {
    const cuts = Array.from({ length: Math.floor(text.length / piece) }, (_, i) => (i + 1) * piece);
    assertBytes(decoded(text, cuts), data, `pieces of ${piece}`);
  }
});

it('armor at offsets: a file cut into runs at any bytes, each armoring its whole lines, the edges joined by the call, is the reference text', async () => {
  // Files of every length around a line and two, and longer ones; runs cut at random, at every byte, and a byte at a time.
  const lengths = [0, 1, 2, 3, 47, 48, 49, 95, 96, 97, 200, 1000, 4097];
  for (const length of lengths) {
    const file = rand(length);
    const want = reference(file);
    const cutsOf = [randomCuts(length, 3), randomCuts(length, 20), Array.from({ length: Math.min(length, 100) }, (_, i) => i)];
    for (const cuts of cutsOf) {
      const text = new Uint8Array(armoredLength(length));
      const lines = new ArmoredLines(length, async (bytes: Uint8Array, at: number) => {
        text.set(bytes, at);
      });
      const bounds = [...new Set([0, ...cuts, length])].sort((a, b) => a - b);
      // The runs' own pushes cut again, as a piece pushes a buffer's worth at a time.
      for (let i = 0; i + 1 < bounds.length; i++) {
        const [start, end] = [bounds[i]!, bounds[i + 1]!];
        const run = new ArmoredRun(start, end, (bytes: Uint8Array, at: number) => text.set(bytes, at));
        for (let at = start; at < end; at += 7 + (i % 50)) run.push(file.subarray(at, Math.min(end, at + 7 + (i % 50))));
        const edges = run.edges();
        const head = headLength(start, end);
        lines.add(edges.subarray(0, head), start);
        lines.add(edges.subarray(head), end - (edges.length - head));
      }
      await lines.finish();
      assert.equal(new TextDecoder().decode(text), want, `${length} bytes, runs at ${bounds.join(',')}`);
    }
  }
  // A line never given all its bytes is refused, not written short.
  const lines = new ArmoredLines(100, async () => {});
  lines.add(rand(60), 0);
  await assert.rejects(lines.finish(), /did not get all their bytes/);
});
