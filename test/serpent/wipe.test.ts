/**
 * The simd tier copies the key, its schedule, the chaining block and the
 * data through the Serpent kernel's linear memory. After every call
 * (successful or not) each kernel's whole memory must be zero again.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { cbc, ctr, ecb, PaddingError } from 'fourfold/serpent';
import { assertBytes, assertKernelsWiped, NO_SIMD, rand, wiped } from '../helpers.js';
import { refCtr } from './reference.js';

const SIZES = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1000, 4097, 32769, 65537, 100 * 1024 + 3];
const NOPAD = { disablePadding: true };
const whole = (n: number) => n - (n % 16);

describe('Serpent: kernel memories are wiped (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('every mode and size: new output, caller output, in place, unaligned', () => {
    for (const len of SIZES) {
      const key = rand([16, 24, 32][len % 3]!);
      const iv = rand(16);
      const data = rand(len);
      wiped(`ctr ${len}`, () => ctr(key, iv).encrypt(data), undefined, 'serpent');
      wiped(`ctr output ${len}`, () => ctr(key, iv).decrypt(data, new Uint8Array(len)));
      const buf = data.slice();
      wiped(`ctr in place ${len}`, () => ctr(key, iv).encrypt(buf, buf));
      const u = new Uint8Array(len + 3);
      wiped(`ctr unaligned ${len}`, () => ctr(key, iv).encrypt(u.subarray(3), u.subarray(3)));
      let ct: Uint8Array = new Uint8Array(0);
      wiped(`cbc encrypt ${len}`, () => (ct = cbc(key, iv).encrypt(data)));
      wiped(`cbc decrypt ${len}`, () => cbc(key, iv).decrypt(ct));
      wiped(`ecb encrypt ${len}`, () => (ct = ecb(key).encrypt(data)));
      wiped(`ecb decrypt ${len}`, () => ecb(key).decrypt(ct, new Uint8Array(ct.length)));
      const blocks = data.subarray(0, whole(len));
      wiped(`cbc nopad ${len}`, () => cbc(key, iv, NOPAD).decrypt(cbc(key, iv, NOPAD).encrypt(blocks)));
      wiped(`ecb nopad ${len}`, () => ecb(key, NOPAD).decrypt(ecb(key, NOPAD).encrypt(blocks)));
    }
    // The values are right too (so the simd tier did the work).
    const key = rand(32);
    const iv = rand(16);
    const d = rand(5000);
    assertBytes(ctr(key, iv).encrypt(d), refCtr(key, iv, d));
    assertKernelsWiped('after the value check', 'serpent');
  });

  it('failing calls', () => {
    const key = rand(32);
    const iv = rand(16);
    const badPadding = ecb(key, NOPAD).encrypt(new Uint8Array(48));
    wiped('bad padding', () => ecb(key).decrypt(badPadding), PaddingError);
    wiped('bad padding, cbc, large', () => cbc(key, iv).decrypt(cbc(key, iv, NOPAD).encrypt(new Uint8Array(70000 - (70000 % 16)))), PaddingError);
    wiped('wrong key', () => ctr(rand(31), iv).encrypt(rand(10)), RangeError);
    wiped('not whole blocks', () => cbc(key, iv, NOPAD).encrypt(rand(33)), RangeError);
    wiped('wrong output', () => ctr(key, iv).encrypt(rand(10), new Uint8Array(9)), RangeError);
    wiped('bad data', () => ecb(key).encrypt('text' as never), TypeError);
  });
});
