/**
 * Argument checking (each error names its argument), PKCS#7 padding
 * errors (a caller's output holds no plaintext after one), in both tiers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { cbc, ctr, ecb, PaddingError } from 'fourfold/serpent';
import { detach, forEachTier, isAllZero, NO_DETACH, rand } from '../helpers.js';
import { refEncrypt } from './reference.js';

const typeErr = (arg: string) => (e: unknown) => e instanceof TypeError && e.message.includes(arg);
const rangeErr = (arg: string) => (e: unknown) => e instanceof RangeError && e.message.includes(arg);
const NOPAD = { disablePadding: true };
const NOT_BYTES: unknown[] = [undefined, null, 'abc', 16, [1, 2, 3], new ArrayBuffer(16), new Uint16Array(8), new DataView(new ArrayBuffer(16))];

/** A block whose decryption ends in `tail` (the rest random), under `key` in ECB. */
function ciphertextEnding(key: Uint8Array, tail: number[]): Uint8Array {
  const block = rand(16);
  block.set(tail, 16 - tail.length);
  return refEncrypt(key, undefined, block);
}

forEachTier('Serpent errors', () => {
  it('key: 16, 24 or 32 bytes, a Uint8Array', () => {
    for (const len of [0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64]) {
      assert.throws(() => ecb(rand(len)), rangeErr('key'), `ecb key ${len}`);
      assert.throws(() => cbc(rand(len), rand(16)), rangeErr('key'), `cbc key ${len}`);
      assert.throws(() => ctr(rand(len), rand(16)), rangeErr('key'), `ctr key ${len}`);
    }
    assert.throws(() => ecb(rand(15)), /key must be 16, 24 or 32 bytes, got 15/);
    for (const bad of NOT_BYTES) {
      assert.throws(() => ecb(bad as Uint8Array), typeErr('key'));
      assert.throws(() => ctr(bad as Uint8Array, rand(16)), typeErr('key'));
    }
  });

  it('iv: 16 bytes, a Uint8Array', () => {
    for (const len of [0, 8, 12, 15, 17, 24, 32]) {
      assert.throws(() => cbc(rand(32), rand(len)), rangeErr('iv'), `cbc iv ${len}`);
      assert.throws(() => ctr(rand(32), rand(len)), rangeErr('iv'), `ctr iv ${len}`);
    }
    for (const bad of NOT_BYTES) {
      assert.throws(() => cbc(rand(32), bad as Uint8Array), typeErr('iv'));
      assert.throws(() => ctr(rand(32), bad as Uint8Array), typeErr('iv'));
    }
  });

  it('options: an object; disablePadding a boolean (no truthy strings)', () => {
    assert.throws(() => ecb(rand(16), 'nopad' as never), typeErr('options'));
    assert.throws(() => cbc(rand(16), rand(16), null as never), typeErr('options'));
    for (const bad of ['yes', 'false', 1, 0, null, {}]) {
      assert.throws(() => ecb(rand(16), { disablePadding: bad as boolean }), typeErr('disablePadding'), String(bad));
      assert.throws(() => cbc(rand(16), rand(16), { disablePadding: bad as boolean }), typeErr('disablePadding'), String(bad));
    }
    assert.equal(ecb(rand(16), {}).encrypt(rand(16)).length, 32, 'empty options: padding');
    // disablePadding: false is the default.
    assert.equal(ecb(rand(16), { disablePadding: false }).encrypt(rand(16)).length, 32);
  });

  it('without padding, input must be whole blocks', () => {
    for (const len of [1, 15, 17, 31, 33, 1000]) {
      assert.throws(() => ecb(rand(16), NOPAD).encrypt(rand(len)), rangeErr('plaintext'), `ecb encrypt ${len}`);
      assert.throws(() => cbc(rand(16), rand(16), NOPAD).encrypt(rand(len)), rangeErr('plaintext'), `cbc encrypt ${len}`);
      assert.throws(() => ecb(rand(16), NOPAD).decrypt(rand(len)), rangeErr('ciphertext'), `ecb decrypt ${len}`);
      assert.throws(() => cbc(rand(16), rand(16), NOPAD).decrypt(rand(len)), rangeErr('ciphertext'), `cbc decrypt ${len}`);
    }
    assert.throws(() => ecb(rand(16), NOPAD).encrypt(rand(15)), /plaintext must be a multiple of 16 bytes without padding, got 15/);
    // Empty input is a whole number (zero) of blocks.
    assert.equal(ecb(rand(16), NOPAD).encrypt(new Uint8Array(0)).length, 0);
    assert.equal(cbc(rand(16), rand(16), NOPAD).decrypt(new Uint8Array(0)).length, 0);
  });

  it('with padding, ciphertext must be whole blocks and at least one', () => {
    for (const len of [0, 1, 15, 17, 47]) {
      assert.throws(() => ecb(rand(16)).decrypt(rand(len)), rangeErr('ciphertext'), `ecb ${len}`);
      assert.throws(() => cbc(rand(16), rand(16)).decrypt(rand(len)), rangeErr('ciphertext'), `cbc ${len}`);
    }
  });

  it('bad padding throws PaddingError, and a caller output is wiped', () => {
    const key = rand(24);
    const bad = [
      [0],
      [17],
      [255],
      [1, 2],
      [3, 3, 2],
      [4, 4, 4, 5],
      Array(16)
        .fill(16)
        .map((v, i) => (i === 0 ? 15 : v)),
    ];
    for (const tail of bad) {
      const ct = ciphertextEnding(key, tail);
      assert.throws(() => ecb(key).decrypt(ct), PaddingError, `tail ${tail}`);
      const out = new Uint8Array(16).fill(0x77);
      assert.throws(() => ecb(key).decrypt(ct, out), PaddingError);
      assert.ok(isAllZero(out), 'the output holds no plaintext');
      const inPlace = ct.slice();
      assert.throws(() => ecb(key).decrypt(inPlace, inPlace), PaddingError);
      assert.ok(isAllZero(inPlace), 'in place: no plaintext left');
    }
    // Good paddings of every length decrypt.
    for (let pad = 1; pad <= 16; pad++) {
      const ct = ciphertextEnding(key, Array(pad).fill(pad));
      assert.equal(ecb(key).decrypt(ct).length, 16 - pad);
    }
    // CBC: 30 bytes end in padding 02 02; a bit flipped in the first ciphertext
    // block's last byte flips the same bit of the last plaintext byte: 0x42.
    const iv = rand(16);
    const ct = cbc(key, iv).encrypt(rand(30));
    ct[15]! ^= 0x40;
    assert.throws(() => cbc(key, iv).decrypt(ct), PaddingError);
  });

  it('data and output: Uint8Arrays of the right length, not partly overlapping', () => {
    const key = rand(16);
    const iv = rand(16);
    for (const bad of NOT_BYTES.filter((b) => b !== undefined)) {
      assert.throws(() => ecb(key).encrypt(bad as Uint8Array), typeErr('plaintext'));
      assert.throws(() => ecb(key).decrypt(bad as Uint8Array), typeErr('ciphertext'));
      assert.throws(() => ctr(key, iv).encrypt(bad as Uint8Array), typeErr('plaintext'));
      assert.throws(() => ctr(key, iv).decrypt(bad as Uint8Array), typeErr('ciphertext'));
      assert.throws(() => cbc(key, iv).encrypt(rand(16), bad as Uint8Array), typeErr('output'));
    }
    assert.throws(() => ecb(key).encrypt(rand(16), new Uint8Array(16)), rangeErr('output'), 'padded output is 32 bytes');
    assert.throws(() => ecb(key, NOPAD).encrypt(rand(16), new Uint8Array(32)), rangeErr('output'));
    assert.throws(() => cbc(key, iv).decrypt(rand(32), new Uint8Array(16)), rangeErr('output'), 'decrypt output is the ciphertext length');
    assert.throws(() => ctr(key, iv).encrypt(rand(10), new Uint8Array(11)), rangeErr('output'));
    const buf = rand(100);
    assert.throws(() => ctr(key, iv).encrypt(buf.subarray(0, 50), buf.subarray(1, 51)), rangeErr('output'));
    assert.throws(() => cbc(key, iv, NOPAD).decrypt(buf.subarray(0, 48), buf.subarray(16, 64)), rangeErr('output'));
  });

  it('a detached key or data is a TypeError', { skip: NO_DETACH }, () => {
    assert.throws(() => ecb(detach(rand(16))), TypeError);
    assert.throws(() => ctr(rand(16), rand(16)).encrypt(detach(rand(16))), TypeError);
  });
});
