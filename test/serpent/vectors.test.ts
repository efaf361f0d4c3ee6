/**
 * Known-answer tests: every NESSIE Serpent vector for 128-, 192- and
 * 256-bit keys (sets 1-8: encryption, decryption, and the 100- and
 * 1000-fold iterated encryptions), and the AES-submission tables (ECB
 * variable key, variable text, the S-box tables and the intermediate
 * values file), which match after reversing the bytes of key, plaintext
 * and ciphertext (test/vectors/serpent.json, about). Both tiers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { cbc, ecb } from 'fourfold/serpent';
import { assertBytes, forEachTier, hex, loadJson } from '../helpers.js';
import { refEncryptBlock } from './reference.js';

const { files } = loadJson<{ files: Record<string, string> }>('vectors/serpent.json');
const NOPAD = { disablePadding: true };

interface Nessie {
  label: string;
  fields: Record<string, Uint8Array>;
}

/** "Set N, vector# M:" records; a value continued on the next line (256-bit keys) is joined. */
function nessie(text: string, bits: number): Nessie[] {
  const out: Nessie[] = [];
  for (const record of text.split(/\n(?=Set \d+, vector#)/).slice(1)) {
    const lines = record.split('\n');
    const fields: Record<string, string> = {};
    let last = '';
    for (const line of lines.slice(1)) {
      const m = /^\s*([A-Za-z][\w ]*?)=([0-9A-F]+)\s*$/.exec(line);
      if (m) {
        last = m[1]!;
        fields[last] = m[2]!;
      } else if (/^\s+[0-9A-F]+\s*$/.test(line) && last) fields[last] += line.trim();
      else if (line.trim() !== '') last = '';
    }
    out.push({ label: `${bits}-bit ${lines[0]!.trim()}`, fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, hex(v)])) });
  }
  return out;
}

const SETS = [128, 192, 256].map((bits) => ({ bits, vectors: nessie(files[`serpent_nessie-${bits}.txt`]!, bits) }));

interface Kat {
  key: Uint8Array;
  plain: Uint8Array;
  cipher: Uint8Array;
}

const reversed = (s: string): Uint8Array => hex(s).reverse();

/** ecb_tbl, ecb_vk, ecb_vt: KEY=, PT=, CT= lines; KEY and PT carry over until replaced. */
function submissionKats(text: string): Kat[] {
  const out: Kat[] = [];
  let key: string | undefined;
  let pt: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^(KEY|PT|CT)=([0-9a-fA-F]+)\s*$/.exec(line);
    if (!m) continue;
    if (m[1] === 'KEY') key = m[2];
    else if (m[1] === 'PT') pt = m[2];
    else out.push({ key: reversed(key!), plain: reversed(pt!), cipher: reversed(m[2]!) });
  }
  return out;
}

/**
 * ecb_iv: per key, blank-line separated paragraphs that run from PT= to
 * CT= (an encryption) or from CT= to PT= (a decryption: the CT is the input).
 */
function intermediateKats(text: string): Kat[] {
  const out: Kat[] = [];
  let key: string | undefined;
  for (const paragraph of text.split(/\n\s*\n/)) {
    const k = /^KEY=([0-9a-f]+)/m.exec(paragraph);
    if (k) key = k[1];
    const values = [...paragraph.matchAll(/^(PT|CT)=([0-9a-f]+)/gm)];
    if (values.length !== 2 || values[0]![1] === values[1]![1]) continue;
    const [pt, ct] = values[0]![1] === 'PT' ? [values[0]![2]!, values[1]![2]!] : [values[1]![2]!, values[0]![2]!];
    out.push({ key: reversed(key!), plain: reversed(pt), cipher: reversed(ct) });
  }
  return out;
}

const SUBMISSION = {
  'ecb_tbl (S-box tables)': submissionKats(files['serpent_ecb_tbl.txt']!),
  'ecb_vk (variable key)': submissionKats(files['serpent_ecb_vk.txt']!),
  'ecb_vt (variable text)': submissionKats(files['serpent_ecb_vt.txt']!),
  'ecb_iv (intermediate values)': intermediateKats(files['serpent_ecb_iv.txt']!),
};

it('the vector files parse into the expected numbers of vectors', () => {
  assert.deepEqual(
    SETS.map((s) => s.vectors.length),
    [1028, 1156, 1284],
  );
  for (const { vectors } of SETS) {
    for (const v of vectors) {
      assert.ok([16, 24, 32].includes(v.fields.key!.length), `${v.label}: key`);
      for (const [name, value] of Object.entries(v.fields)) if (name !== 'key') assert.equal(value.length, 16, `${v.label}: ${name}`);
    }
    assert.equal(vectors.filter((v) => v.fields['Iterated 1000 times']).length, vectors.filter((v) => v.fields.plain && v.fields.decrypted).length);
  }
  assert.deepEqual(
    Object.values(SUBMISSION).map((k) => k.length),
    [1536, 576, 384, 12],
  );
});

it('the reference (mipher, bytes reversed) agrees with NESSIE, so it can be trusted elsewhere', () => {
  for (const { vectors } of SETS) {
    for (const v of vectors.filter((_, i) => i % 13 === 0)) {
      const { key, plain, cipher } = v.fields;
      assertBytes(refEncryptBlock(key!, plain!), cipher!, v.label);
    }
  }
});

forEachTier('Serpent known answers', () => {
  for (const { bits, vectors } of SETS) {
    it(`NESSIE ${bits}-bit: every vector of sets 1-8 encrypts and decrypts`, () => {
      for (const v of vectors) {
        const { key, plain, cipher } = v.fields;
        assertBytes(ecb(key!, NOPAD).encrypt(plain!), cipher!, `${v.label} encrypt`);
        assertBytes(ecb(key!, NOPAD).decrypt(cipher!), plain!, `${v.label} decrypt`);
        if (v.fields.decrypted) assertBytes(v.fields.decrypted, plain!, `${v.label} file consistency`);
        if (v.fields.encrypted) assertBytes(v.fields.encrypted, cipher!, `${v.label} file consistency`);
      }
    });

    it(`NESSIE ${bits}-bit: the 100- and 1000-fold iterations`, () => {
      // CBC from a zero IV over P followed by zero blocks gives E(P), E(E(P)), ...:
      // block i of the ciphertext is the (i + 1)-fold iterate. One call per vector.
      const zeroIv = new Uint8Array(16);
      for (const v of vectors.filter((x) => x.fields['Iterated 1000 times'])) {
        const { key, plain } = v.fields;
        const message = new Uint8Array(16 * 1000);
        message.set(plain!);
        const iterates = cbc(key!, zeroIv, NOPAD).encrypt(message);
        assertBytes(iterates.subarray(16 * 99, 16 * 100), v.fields['Iterated 100 times']!, `${v.label} x100`);
        assertBytes(iterates.subarray(16 * 999), v.fields['Iterated 1000 times']!, `${v.label} x1000`);
      }
    });

    it(`NESSIE ${bits}-bit: iterating ECB block by block, as the definition says (first vector of each set)`, () => {
      const firsts = vectors.filter((v) => v.label.endsWith('vector#  0:') && v.fields['Iterated 1000 times']);
      assert.ok(firsts.length >= 4);
      for (const v of firsts) {
        const cipher = ecb(v.fields.key!, NOPAD);
        let block = v.fields.plain!;
        for (let i = 1; i <= 1000; i++) {
          block = cipher.encrypt(block);
          if (i === 100) assertBytes(block, v.fields['Iterated 100 times']!, `${v.label} x100`);
        }
        assertBytes(block, v.fields['Iterated 1000 times']!, `${v.label} x1000`);
      }
    });
  }

  for (const [name, kats] of Object.entries(SUBMISSION)) {
    it(`AES submission ${name}: every vector, bytes reversed`, () => {
      for (const [i, { key, plain, cipher }] of kats.entries()) {
        assertBytes(ecb(key, NOPAD).encrypt(plain), cipher, `${name} #${i} encrypt`);
        assertBytes(ecb(key, NOPAD).decrypt(cipher), plain, `${name} #${i} decrypt`);
      }
    });
  }

  it('many NESSIE blocks in one call: every group and tail size (ECB batches of 1..20 blocks)', () => {
    // Set 2 uses one key (all zero) for every plaintext: batch them.
    const v256 = SETS[2]!.vectors.filter((v) => v.label.includes('Set 2,'));
    const key = v256[0]!.fields.key!;
    assert.ok(v256.every((v) => v.fields.key!.every((b, i) => b === key[i])));
    for (let n = 1; n <= 20; n++) {
      const batch = v256.slice(0, n);
      const plain = new Uint8Array(16 * n);
      const cipher = new Uint8Array(16 * n);
      batch.forEach((v, i) => {
        plain.set(v.fields.plain!, 16 * i);
        cipher.set(v.fields.cipher!, 16 * i);
      });
      assertBytes(ecb(key, NOPAD).encrypt(plain), cipher, `${n} blocks encrypt`);
      assertBytes(ecb(key, NOPAD).decrypt(cipher), plain, `${n} blocks decrypt`);
    }
  });
});
