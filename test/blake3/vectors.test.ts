/**
 * BLAKE3: the official test vectors (hash, keyed_hash, derive_key; 131
 * bytes of extended output; inputs of 0..102400 bytes), one-shot,
 * incremental and through the XOF, in both tiers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { blake3 } from 'fourfold/blake3';
import { assertBytes, forEachTier, hex, loadJson } from '../helpers.js';
import { nobleBlake3, randomSplit, utf8, vectorInput, type Vectors } from './reference.js';

const vectors = loadJson<Vectors>('vectors/blake3.json');
const KEY = utf8(vectors.key);
const CONTEXT = vectors.context_string;

type Mode = 'hash' | 'keyed_hash' | 'derive_key';
const MODES: Mode[] = ['hash', 'keyed_hash', 'derive_key'];
const optsOf = (mode: Mode) => (mode === 'hash' ? {} : mode === 'keyed_hash' ? { key: KEY } : { context: CONTEXT });

it('the vectors file: 35 cases from 0 to 102400 bytes, 131-byte outputs, and noble agrees', () => {
  assert.equal(vectors.cases.length, 35);
  assert.equal(vectors.cases[vectors.cases.length - 1]!.input_len, 102400); // not .at(-1): Hermes 0.12 has no Array.prototype.at
  for (const c of vectors.cases) {
    assert.equal(c.hash.length, 262);
    const input = vectorInput(c.input_len);
    assertBytes(nobleBlake3(input, { dkLen: 131 }), hex(c.hash), `noble hash ${c.input_len}`);
    assertBytes(nobleBlake3(input, { dkLen: 131, key: KEY }), hex(c.keyed_hash), `noble keyed ${c.input_len}`);
    assertBytes(nobleBlake3(input, { dkLen: 131, context: utf8(CONTEXT) }), hex(c.derive_key), `noble derive ${c.input_len}`);
  }
});

forEachTier('blake3 vectors', () => {
  for (const mode of MODES) {
    it(`${mode}: one-shot, 32 bytes and the full 131-byte output`, () => {
      for (const c of vectors.cases) {
        const input = vectorInput(c.input_len);
        const expected = hex(c[mode]);
        assertBytes(blake3(input, optsOf(mode)), expected.subarray(0, 32), `${mode} ${c.input_len}`);
        assertBytes(blake3(input, { ...optsOf(mode), dkLen: 131 }), expected, `${mode} ${c.input_len} dkLen 131`);
        if (mode === 'hash') assertBytes(blake3(input), expected.subarray(0, 32), `no opts ${c.input_len}`);
      }
    });

    it(`${mode}: incremental (whole, byte runs, random splits), digest and xof`, () => {
      for (const c of vectors.cases) {
        const input = vectorInput(c.input_len);
        const expected = hex(c[mode]);
        const whole = blake3.create(optsOf(mode)).update(input);
        assertBytes(whole.digest(), expected.subarray(0, 32), `${mode} ${c.input_len} update once`);
        for (const sizes of [randomSplit(input.length), [1, 1, 1, 61, 1023, 1, 1024, 1025]]) {
          const h = blake3.create({ ...optsOf(mode), dkLen: 131 });
          let pos = 0;
          for (const n of sizes) {
            h.update(input.subarray(pos, Math.min(pos + n, input.length)));
            pos = Math.min(pos + n, input.length);
          }
          h.update(input.subarray(pos));
          // The stream in pieces of 1, 63 and the rest.
          const out = new Uint8Array(131);
          h.xofInto(out.subarray(0, 1));
          h.xofInto(out.subarray(1, 64));
          out.set(h.xof(67), 64);
          assertBytes(out, expected, `${mode} ${c.input_len} split ${sizes.slice(0, 8).join('+')}...`);
        }
      }
    });
  }
});
