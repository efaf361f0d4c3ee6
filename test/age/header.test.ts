/**
 * The work and memory an age header can ask of its reader are bounded,
 * whichever call reads it, by age's own bounds: 1,024 recipient stanzas,
 * 2 MiB, 128 arguments after a stanza's type. Past one, the header is
 * refused (AgeFormatError) as soon as its reader sees it, before any
 * stanza is tried; within them, any header age accepts decrypts, long
 * argument lines included (the format bounds body lines only). Each file here is the age test
 * kit's `x25519` vector with stanzas added, its MAC made again under the
 * kit's file key, so that it decrypts where the header is accepted.
 * Their times against Go's age: docs/results/age-header-2026-11-26.txt.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import { concat, hex, loadJson, NO_STREAMS, toHex } from '../helpers.js';

interface Vector {
  name: string;
  fields: Record<string, string[]>;
  file: string;
}

const KIT = loadJson<{ vectors: Vector[] }>('vectors/age-testkit.json').vectors;
const X25519 = KIT.find((v) => v.name === 'x25519')!;
const FILE = Uint8Array.from(base64.decode(X25519.file));
const FILE_KEY = hex(X25519.fields['file key']![0]!);
const from = { identities: X25519.fields.identity! };

const MAX_STANZAS = 1024;
const MAX_HEADER = 2 << 20;
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The kit's file with `extra` (stanzas as the header writes them) before its own stanza, and the MAC made again. */
function withStanzas(extra: string): Uint8Array {
  const text = new TextDecoder('latin1').decode(FILE);
  const ownAt = text.indexOf('-> X25519');
  const macAt = text.indexOf('\n---') + 1;
  const macked = ascii(`${text.slice(0, ownAt)}${extra}${text.slice(ownAt, macAt)}---`);
  const mac = hmac(sha256, hkdf(sha256, FILE_KEY, new Uint8Array(0), ascii('header'), 32), macked);
  const payload = FILE.subarray(text.indexOf('\n', macAt) + 1);
  return concat(macked, ascii(` ${base64.encode(mac).replace(/=+$/, '')}\n`), payload);
}

/** `n` stanzas of an unknown type with empty bodies: each costs the reader nothing but its parse. */
const unknownStanzas = (n: number): string => '-> unknown-type\n\n'.repeat(n);

/** Every call that reads a header from bytes: one-shot, random access, a stream fed 1000 bytes at a time, and fourfold/parallel's. */
const READERS: { name: string; read(file: Uint8Array): Promise<Uint8Array>; skip?: false | string }[] = [
  { name: 'decrypt', read: (file) => age.decrypt(file, from) },
  {
    name: 'decryptRange',
    read: (file) => age.decryptRange({ size: file.length, read: async (at: number, n: number) => file.slice(at, at + n) }, 0, file.length, from),
  },
  {
    name: 'decryptStream',
    read: async (file) => {
      const parts: Uint8Array[] = [];
      const stream = age.decryptStream(from);
      const reading = (async () => {
        const reader = stream.readable.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
      })();
      const writer = stream.writable.getWriter();
      try {
        for (let at = 0; at < file.length; at += 1000) await writer.write(file.slice(at, at + 1000));
        await writer.close();
      } finally {
        await reading;
      }
      return concat(...parts);
    },
    skip: NO_STREAMS,
  },
  { name: 'fourfold/parallel decrypt', read: (file) => parallelAge.decrypt(file, from) },
];

/** The payload's SHA-256, as the kit gives it. */
const PAYLOAD = X25519.fields.payload![0]!;

for (const reader of READERS) {
  it(`${reader.name}: ${MAX_STANZAS} stanzas decrypt, one more is refused before any is tried`, { skip: reader.skip }, async () => {
    assert.equal(toHex(sha256(await reader.read(withStanzas(unknownStanzas(MAX_STANZAS - 1))))), PAYLOAD);
    await assert.rejects(reader.read(withStanzas(unknownStanzas(MAX_STANZAS))), (e: Error) => {
      assert.ok(e instanceof age.AgeFormatError, String(e));
      assert.match(e.message, /more than 1024 recipient stanzas/);
      return true;
    });
  });

  it(`${reader.name}: a stanza argument of 9,000 bytes decrypts (age's and rage's readers take it)`, { skip: reader.skip }, async () => {
    const file = withStanzas(`-> long ${'a'.repeat(9000)}\n\n`);
    assert.equal(toHex(sha256(await reader.read(file))), PAYLOAD);
  });

  it(`${reader.name}: 128 arguments after a stanza's type decrypt, 129 are refused`, { skip: reader.skip }, async () => {
    const args = (n: number) => `-> many${' a'.repeat(n)}\n\n`;
    assert.equal(toHex(sha256(await reader.read(withStanzas(args(128))))), PAYLOAD);
    await assert.rejects(reader.read(withStanzas(args(129))), (e: Error) => e instanceof age.AgeFormatError && /more than 128 arguments/.test(e.message));
  });

  it(`${reader.name}: a header of more than ${MAX_HEADER} bytes is refused, in a line or in a body`, { skip: reader.skip }, async () => {
    const body = `${'A'.repeat(64)}\n`.repeat(Math.ceil(MAX_HEADER / 65));
    for (const extra of [`-> long ${'a'.repeat(MAX_HEADER)}\n\n`, `-> long\n${body}\n`]) {
      await assert.rejects(reader.read(withStanzas(extra)), (e: Error) => {
        assert.ok(e instanceof age.AgeFormatError, String(e));
        assert.match(e.message, /a header of more than 2 MiB/);
        return true;
      });
    }
  });
}

it('a header just within MAX_HEADER decrypts', async () => {
  const file = withStanzas(`-> long ${'a'.repeat(MAX_HEADER - FILE.length - 100)}\n\n`);
  assert.ok(file.length < MAX_HEADER + 100);
  assert.equal(toHex(sha256(await age.decrypt(file, from))), PAYLOAD);
});
