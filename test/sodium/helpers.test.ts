/**
 * fourfold/sodium's codecs and helpers against libsodium-wrappers-sumo:
 * hexadecimal and every base64 variant both ways (valid and invalid text),
 * UTF-8, the constant-time comparisons and arithmetic, padding, the
 * deterministic random bytes, and the errors each throws for wrong input.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as sodium from 'fourfold/sodium';
import { NO_SODIUM, rand, randInt } from '../helpers.js';
import { loadSumo, outcome, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };
const VARIANTS = [undefined, 1, 3, 5, 7, 0, 9];

it('to_hex and from_hex: every length to 70, both cases, and invalid text', opts, () => {
  for (let n = 0; n <= 70; n++) {
    const b = rand(n);
    const h = same('to_hex', [b]) as string;
    same('from_hex', [h]);
    same('from_hex', [h.toUpperCase()]);
  }
  same('to_hex', ['text is UTF-8: é']);
  for (const bad of ['a', 'abc', 'zz', 'az', 'abz', 'ab cd', ' ab', 'ab ', '0g', 'gg00', '-1', 'ÿÿ', 'abcd\n']) same('from_hex', [bad], bad);
  for (const wrong of [5, null, undefined, new Uint8Array(2), [1]]) {
    same('from_hex', [wrong]);
    same('to_hex', [wrong]);
  }
});

it('to_base64 and from_base64: every variant, every length to 70, and invalid text', opts, () => {
  for (const v of VARIANTS) {
    for (let n = 0; n <= 70; n++) {
      const b = rand(n);
      const text = same('to_base64', [b, v], `variant ${v} length ${n}`) as string;
      // A variant libsodium refuses throws in both (above): nothing to decode.
      if (text !== undefined) same('from_base64', [text, v], `variant ${v} length ${n}`);
    }
    same('to_base64', ['UTF-8 text é', v]);
    const bad = [
      '',
      'Q',
      'QQ',
      'QQ=',
      'QQ==',
      'QQ===',
      'QR==',
      'QUI',
      'QUI=',
      'QUJ=',
      'QUJD',
      'QUJD=',
      'QUJDR',
      '====',
      '=',
      'Q-_/',
      'A+/B',
      ' QQ',
      'QQ ',
      'QQ\n',
      'Q Q',
      'QUJD\nQUJD',
      'ab+c',
      'ab-c',
      'ab/c',
      'ab_c',
      'é',
      '@@',
    ];
    for (const text of bad) same('from_base64', [text, v], `variant ${v}: ${JSON.stringify(text)}`);
  }
  for (const wrong of [5, null, undefined, [1]]) same('from_base64', [wrong]);
  // A variant given is checked, null too (only a missing one is the default), and before the input.
  for (const v of [null, 0, 2, 8, '7', 7.5]) {
    same('to_base64', [new Uint8Array([1, 2]), v], `variant ${v}`);
    same('from_base64', ['AQI', v], `variant ${v}`);
    same('to_base64', [7, v], `variant ${v}, no input`);
    same('from_base64', [5, v], `variant ${v}, no input`);
  }
  assert.deepEqual(sodium.base64_variants, peer().base64_variants);
});

it('from_string and to_string: UTF-8 both ways; bytes that are not UTF-8 throw as there', opts, () => {
  for (const text of ['', 'a', 'hello, world', 'é€𝄞', '\u0000', 'x'.repeat(100000)]) {
    const b = same('from_string', [text]) as Uint8Array;
    same('to_string', [b]);
  }
  for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf, 0x41]]) same('to_string', [new Uint8Array(bytes)]);
  assert.deepEqual(sodium.output_formats(), (peer().output_formats as () => string[])());
});

it('memcmp, compare and is_zero: equal, unequal at every position, lengths, and non-arrays', opts, () => {
  for (const n of [0, 1, 2, 7, 16, 33]) {
    const a = rand(n);
    same('memcmp', [a, a.slice()]);
    same('compare', [a, a.slice()]);
    same('is_zero', [a]);
    same('is_zero', [new Uint8Array(n)]);
    for (let i = 0; i < n; i++) {
      for (const delta of [1, 255, 128]) {
        const b = a.slice();
        b[i] = (b[i] + delta) & 0xff;
        same('memcmp', [a, b], `${n}/${i}`);
        same('compare', [a, b], `${n}/${i}`);
        same('compare', [b, a], `${n}/${i}`);
        const z = new Uint8Array(n);
        z[i] = delta;
        same('is_zero', [z]);
      }
    }
  }
  for (let k = 0; k < 200; k++) {
    const n = 1 + randInt(4);
    same('compare', [rand(n), rand(n)]);
  }
  same('memcmp', [new Uint8Array(2), new Uint8Array(3)]);
  same('compare', [new Uint8Array(2), new Uint8Array(3)]);
  for (const wrong of [[1], 'ab', null, undefined]) {
    same('memcmp', [wrong, new Uint8Array(1)]);
    same('compare', [new Uint8Array(1), wrong]);
    same('is_zero', [wrong]);
  }
});

it('increment and add: carries through every byte, modulo the length; the arrays written in place', opts, () => {
  const cases = [
    new Uint8Array(0),
    new Uint8Array([255]),
    new Uint8Array([255, 255, 255]),
    new Uint8Array([255, 0, 255]),
    rand(24),
    rand(1),
    new Uint8Array(8).fill(255),
  ];
  for (const c of cases) {
    const x = c.slice();
    const y = c.slice();
    assert.deepEqual(
      outcome(() => sodium.increment(x)),
      outcome(() => (peer().increment as (b: Uint8Array) => void)(y)),
    );
    assert.deepEqual(x, y);
    for (const other of [c.slice(), rand(c.length), new Uint8Array(c.length).fill(255)]) {
      const p = c.slice();
      const q = c.slice();
      sodium.add(p, other);
      (peer().add as (a: Uint8Array, b: Uint8Array) => void)(q, other);
      assert.deepEqual(p, q);
    }
  }
  for (const wrong of [[1], 'ab', null]) {
    same('increment', [wrong]);
    same('add', [wrong, new Uint8Array(1)]);
  }
  same('add', [new Uint8Array(2), new Uint8Array(3)]);
});

it('pad and unpad: every length to 40 and block size to 17, invalid paddings refused as there', opts, () => {
  for (let n = 0; n <= 40; n++) {
    for (let size = 1; size <= 17; size++) {
      const b = rand(n);
      const padded = same('pad', [b, size], `${n}/${size}`) as Uint8Array;
      same('unpad', [padded, size], `${n}/${size}`);
      same('unpad', [b, size], `unpadded ${n}/${size}`);
      if (padded.length > 0) {
        const broken = padded.slice();
        broken[broken.length - 1] ^= 1;
        same('unpad', [broken, size], `broken ${n}/${size}`);
      }
    }
  }
  for (const bad of [
    [0, 0, 0, 0],
    [0x80, 1, 0, 0],
    [1, 2, 3, 0x81],
    [0x80, 0, 0, 0, 0, 0],
  ]) {
    for (const size of [1, 4, 5, 8]) same('unpad', [new Uint8Array(bad), size]);
  }
  // The block size's signed 32 bits, as libsodium-wrappers reads it: 2^31 is no size, 2^32 + 4 and 4 - 2^32 are 4.
  for (const size of [0, -1, 1.5, null, undefined, '4', 2 ** 31, 2 ** 32 - 1, 2 ** 32 + 4, 4 - 2 ** 32]) {
    same('pad', [new Uint8Array(3), size], `block size ${size}`);
    same('unpad', [new Uint8Array([0x80]), size], `block size ${size}`);
  }
  // A bigint: a TypeError on both (libsodium-wrappers' is the engine's own, a BigInt mixed with a number).
  for (const call of [sodium.pad, sodium.unpad, peer().pad, peer().unpad] as ((b: Uint8Array, s: unknown) => unknown)[]) {
    assert.throws(() => call(new Uint8Array([0x80]), 4n), TypeError);
  }
  same('pad', [[1], 4]);
  same('pad', ['ab', 4]);
});

it('memzero zeroes; randombytes_buf, _uniform and _buf_deterministic give what libsodium gives', opts, () => {
  const b = rand(40);
  sodium.memzero(b);
  assert.deepEqual(b, new Uint8Array(40));
  same('memzero', [[1]]);
  for (const n of [0, 1, 31, 32, 33, 64, 65, 1000, 100000]) {
    const seed = rand(32);
    for (const f of [undefined, 'hex', 'base64']) same('randombytes_buf_deterministic', [n, seed, f], `${n}`);
    assert.equal(sodium.randombytes_buf(n).length, n);
  }
  same('randombytes_buf_deterministic', [3, new Uint8Array(31)]);
  assert.equal(typeof sodium.randombytes_buf(16, 'hex'), 'string');
  for (const wrong of [-1, 1.5, '3', null]) {
    same('randombytes_buf', [wrong]);
    same('randombytes_uniform', [wrong]);
  }
  same('randombytes_uniform', [0]);
  same('randombytes_uniform', [1]);
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const r = sodium.randombytes_uniform(10);
    assert.ok(Number.isInteger(r) && r >= 0 && r < 10);
    seen.add(r);
  }
  assert.equal(seen.size, 10, 'every value below the bound comes');
  same('randombytes_uniform', [2 ** 31]);
  assert.ok(sodium.randombytes_uniform(2 ** 31 - 1) < 2 ** 31 - 1);
});

it('a wrong output format throws as there, before any work', opts, () => {
  same('randombytes_buf', [4, 'foo']);
  same('randombytes_buf', [4, 'UINT8ARRAY']);
  same('crypto_secretbox_keygen', ['binary']);
});
