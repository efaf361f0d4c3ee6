/**
 * Differential tests of ECB, CBC and CTR against the reference of
 * reference.ts (mipher's block cipher under SP 800-38A modes written in the
 * test): every CTR length 0..1100 and every plaintext length 0..1100 for
 * the padded modes, group, pair and slice boundaries, counters carrying
 * across 32-, 64- and 96-bit word boundaries and wrapping at 2^128,
 * unaligned views, caller outputs and in place, in both tiers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { cbc, ctr, ecb } from 'fourfold/serpent';
import { assertBytes, forEachTier, guarded, rand, randInt } from '../helpers.js';
import { TWO128, counterBlock, pkcs7, refCtr, refDecrypt, refEncrypt } from './reference.js';

const SMALL_MAX = 1100;
/** Group (64), pair (128) and slice (32768) boundaries, +-1 block and +-1 byte. */
const LARGE = [48, 63, 64, 65, 80, 112, 127, 128, 129, 144, 192, 1024, 4095, 4096, 4097, 32752, 32767, 32768, 32769, 32784, 65535, 65536, 65537, 100003];
const KEY_LENGTHS = [16, 24, 32];
const NOPAD = { disablePadding: true };

const wholeBlocks = (n: number) => n - (n % 16);

/** Every calling mode of one cipher call: new output, caller output, in place, unaligned (guarded), Buffer. */
function checkModes(label: string, call: (data: Uint8Array, output?: Uint8Array) => Uint8Array, data: Uint8Array, expected: Uint8Array): void {
  const input = data.slice();
  assertBytes(call(input), expected, `${label}: new output`);
  assertBytes(input, data, `${label}: input unchanged`);
  const out = new Uint8Array(expected.length);
  assert.equal(call(data, out), out, `${label}: returns the caller's output`);
  assertBytes(out, expected, `${label}: caller output`);
  if (expected.length === data.length) {
    const buf = data.slice();
    assertBytes(call(buf, buf), expected, `${label}: in place`);
    assertBytes(buf, expected, `${label}: in place, buffer`);
  }
  const offset = 1 + randInt(3);
  const g = guarded(data, offset);
  const o = guarded(new Uint8Array(expected.length), 4 - offset);
  assertBytes(call(g.view, o.view), expected, `${label}: unaligned views`);
  assert.ok(g.intact() && o.intact(), `${label}: wrote outside the views`);
  assertBytes(call(Buffer.from(data)), expected, `${label}: Buffer input`);
}

forEachTier('Serpent modes against the reference', () => {
  it('CTR: every length 0..1100 (random key size, key and IV)', () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(KEY_LENGTHS[len % 3]!);
      const iv = rand(16);
      const data = rand(len);
      const expected = refCtr(key, iv, data);
      assertBytes(ctr(key, iv).encrypt(data), expected, `ctr ${len}`);
      assertBytes(ctr(key, iv).decrypt(expected), data, `ctr decrypt ${len}`);
    }
  });

  it('CTR: large lengths and every calling mode', () => {
    for (const len of [0, 1, 15, 16, 17, 100, ...LARGE]) {
      const key = rand(32);
      const iv = rand(16);
      const data = rand(len);
      checkModes(`ctr ${len}`, (d, o) => ctr(key, iv).encrypt(d, o), data, refCtr(key, iv, data));
    }
  });

  it('CTR: the counter carries across the 32-, 64- and 96-bit word boundaries and wraps at 2^128', () => {
    for (const bits of [8, 32, 64, 96, 128]) {
      for (const before of [0, 1, 3, 4, 5, 7, 8, 9, 12]) {
        const start = ((1n << BigInt(bits)) - BigInt(before)) % TWO128;
        // Random high bits above the boundary, so carries land in random words.
        const high = bits === 128 ? 0n : (BigInt(randInt(2 ** 32)) << BigInt(bits)) % TWO128;
        const iv = counterBlock((high | start) % TWO128);
        const key = rand(16);
        for (const len of [16 * 20 + 5, 16 * before + 1, 300]) {
          const data = rand(len);
          assertBytes(ctr(key, iv).encrypt(data), refCtr(key, iv, data), `ctr from 2^${bits}-${before}, ${len} bytes`);
        }
      }
    }
    // The all-ones IV: the second block's counter is zero.
    const key = rand(32);
    const iv = new Uint8Array(16).fill(0xff);
    const two = ctr(key, iv).encrypt(new Uint8Array(32));
    assertBytes(two.subarray(16), ctr(key, new Uint8Array(16)).encrypt(new Uint8Array(16)), 'ff..ff + 1 = 00..00');
    assertBytes(two.subarray(0, 16), ecb(key, NOPAD).encrypt(iv), 'block 0 is E(iv)');
  });

  it('CTR: a message split at a block boundary continues with the next counter', () => {
    const key = rand(24);
    const iv = counterBlock(TWO128 - 3n);
    const data = rand(200);
    const whole = ctr(key, iv).encrypt(data);
    assertBytes(ctr(key, counterBlock(0n)).encrypt(data.subarray(48)), whole.subarray(48), 'the fourth block uses counter 0');
  });

  it('CBC with padding: every plaintext length 0..1100, encrypt and decrypt', () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(KEY_LENGTHS[len % 3]!);
      const iv = rand(16);
      const data = rand(len);
      const expected = refEncrypt(key, iv, pkcs7(data));
      assert.equal(expected.length, wholeBlocks(len) + 16);
      assertBytes(cbc(key, iv).encrypt(data), expected, `cbc ${len}`);
      assertBytes(cbc(key, iv).decrypt(expected), data, `cbc decrypt ${len}`);
    }
  });

  it('ECB with padding: every plaintext length 0..1100, encrypt and decrypt', () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(KEY_LENGTHS[len % 3]!);
      const data = rand(len);
      const expected = refEncrypt(key, undefined, pkcs7(data));
      assertBytes(ecb(key).encrypt(data), expected, `ecb ${len}`);
      assertBytes(ecb(key).decrypt(expected), data, `ecb decrypt ${len}`);
    }
  });

  it('CBC and ECB without padding: whole blocks up to 1100 bytes and large sizes, every calling mode', () => {
    const sizes = [...Array.from({ length: SMALL_MAX / 16 + 1 }, (_, i) => 16 * i), ...LARGE.map(wholeBlocks)];
    for (const len of sizes) {
      const key = rand(KEY_LENGTHS[randInt(3)]!);
      const iv = rand(16);
      const data = rand(len);
      const all = len % 160 === 0 || len > SMALL_MAX;
      const cbcExpected = refEncrypt(key, iv, data);
      const ecbExpected = refEncrypt(key, undefined, data);
      if (all) {
        checkModes(`cbc encrypt ${len}`, (d, o) => cbc(key, iv, NOPAD).encrypt(d, o), data, cbcExpected);
        checkModes(`cbc decrypt ${len}`, (d, o) => cbc(key, iv, NOPAD).decrypt(d, o), cbcExpected, data);
        checkModes(`ecb encrypt ${len}`, (d, o) => ecb(key, NOPAD).encrypt(d, o), data, ecbExpected);
        checkModes(`ecb decrypt ${len}`, (d, o) => ecb(key, NOPAD).decrypt(d, o), ecbExpected, data);
      } else {
        assertBytes(cbc(key, iv, NOPAD).encrypt(data), cbcExpected, `cbc encrypt ${len}`);
        assertBytes(cbc(key, iv, NOPAD).decrypt(cbcExpected), refDecrypt(key, iv, cbcExpected), `cbc decrypt ${len}`);
        assertBytes(ecb(key, NOPAD).encrypt(data), ecbExpected, `ecb encrypt ${len}`);
        assertBytes(ecb(key, NOPAD).decrypt(ecbExpected), data, `ecb decrypt ${len}`);
      }
    }
  });

  it('padded modes: large sizes and every calling mode (decrypt returns the unpadded part of the output)', () => {
    for (const len of [0, 1, 15, 16, 17, ...LARGE]) {
      const key = rand(16);
      const iv = rand(16);
      const data = rand(len);
      const padded = pkcs7(data);
      checkModes(`cbc encrypt ${len}`, (d, o) => cbc(key, iv).encrypt(d, o), data, refEncrypt(key, iv, padded));
      const ct = refEncrypt(key, undefined, padded);
      checkModes(`ecb encrypt ${len}`, (d, o) => ecb(key).encrypt(d, o), data, ct);
      const out = new Uint8Array(ct.length);
      const pt = ecb(key).decrypt(ct, out);
      assert.equal(pt.buffer, out.buffer);
      assert.equal(pt.byteOffset, out.byteOffset);
      assertBytes(pt, data, `ecb decrypt into output ${len}`);
      const buf = refEncrypt(key, iv, padded);
      assertBytes(cbc(key, iv).decrypt(buf, buf), data, `cbc decrypt in place ${len}`);
    }
  });

  it("a cipher object is reusable, and later changes to the caller's key and IV do not affect it", () => {
    const key = rand(32);
    const iv = rand(16);
    const data = rand(100);
    const c = cbc(key, iv);
    const ct = c.encrypt(data);
    key.fill(0);
    iv.fill(0);
    assertBytes(c.encrypt(data), ct, 'second encrypt');
    assertBytes(c.decrypt(ct), data, 'decrypt');
  });
});
