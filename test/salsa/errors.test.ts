/**
 * Argument checking of the Salsa20 family (each error names its argument),
 * the 64-bit counter limit, and AuthenticationError (no plaintext left in
 * the caller's buffer after one), in both tiers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { hsalsa20, salsa20, salsa2012, salsa208, secretbox, xsalsa20, xsalsa20poly1305 } from 'fourfold/salsa';
import { detach, forEachTier, NO_DETACH, rand, TWO64 } from '../helpers.js';

type StreamFn = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Uint8Array;

const typeErr = (arg: string) => (e: unknown) => e instanceof TypeError && e.message.includes(arg);
const rangeErr = (arg: string) => (e: unknown) => e instanceof RangeError && e.message.includes(arg);
const NOT_BYTES: unknown[] = [
  'abcdefghijklmnopqrstuvwxyz012345',
  [1, 2, 3],
  new Uint16Array(16),
  new Int8Array(32),
  new ArrayBuffer(32),
  {},
  42,
  undefined,
  null,
];

const STREAMS: { name: string; fn: StreamFn; keys: number[]; nonce: number }[] = [
  { name: 'salsa20', fn: salsa20, keys: [16, 32], nonce: 8 },
  { name: 'salsa2012', fn: salsa2012, keys: [16, 32], nonce: 8 },
  { name: 'salsa208', fn: salsa208, keys: [16, 32], nonce: 8 },
  { name: 'xsalsa20', fn: xsalsa20, keys: [32], nonce: 24 },
];

forEachTier('errors', () => {
  for (const { name, fn, keys, nonce } of STREAMS) {
    it(`${name}: wrong types and lengths name the argument`, () => {
      const key = rand(32);
      const n = rand(nonce);
      for (const bad of NOT_BYTES) {
        assert.throws(() => fn(bad as Uint8Array, n, rand(10)), typeErr('key'), `${name} key ${String(bad)}`);
        assert.throws(() => fn(key, bad as Uint8Array, rand(10)), typeErr('nonce'), `${name} nonce ${String(bad)}`);
        assert.throws(() => fn(key, n, bad as Uint8Array), typeErr('data'), `${name} data ${String(bad)}`);
        if (bad !== undefined) assert.throws(() => fn(key, n, rand(10), bad as Uint8Array), typeErr('output'), `${name} output ${String(bad)}`);
      }
      for (const len of [0, 1, 15, 17, 24, 31, 33, 64]) {
        if (!keys.includes(len)) assert.throws(() => fn(rand(len), n, rand(10)), rangeErr('key'), `${name} key length ${len}`);
      }
      for (const len of [0, 7, 9, 12, 16, 23, 25]) {
        if (len !== nonce) assert.throws(() => fn(key, rand(len), rand(10)), rangeErr('nonce'), `${name} nonce length ${len}`);
      }
      assert.throws(() => fn(key, n, rand(10), new Uint8Array(9)), rangeErr('output'));
      assert.throws(() => fn(key, n, rand(10), new Uint8Array(11)), rangeErr('output'));
      const buf = rand(100);
      assert.throws(() => fn(key, n, buf.subarray(0, 50), buf.subarray(1, 51)), rangeErr('output'), 'partial overlap');
    });

    it(`${name}: a detached key or data is a TypeError naming it`, { skip: NO_DETACH }, () => {
      const n = rand(nonce);
      assert.throws(() => fn(rand(32), n, detach(rand(16))), typeErr('data'), 'detached data');
      assert.throws(() => fn(detach(rand(32)), n, rand(4)), typeErr('key'), 'detached key');
    });

    it(`${name}: the 64-bit block counter`, () => {
      const key = rand(32);
      const n = rand(nonce);
      for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 53, -1n, TWO64]) {
        assert.throws(() => fn(key, n, rand(10), undefined, bad), rangeErr('counter'), `${name} counter ${String(bad)}`);
      }
      for (const bad of ['1', null, {}]) assert.throws(() => fn(key, n, rand(10), undefined, bad as never), typeErr('counter'));
      // The last block is 2^64 - 1: 64 bytes fit there, 65 do not; no wrap to block 0.
      assert.equal(fn(key, n, rand(64), undefined, TWO64 - 1n).length, 64);
      assert.throws(() => fn(key, n, rand(65), undefined, TWO64 - 1n), rangeErr('counter'));
      assert.throws(() => fn(key, n, rand(64 * 10 + 1), undefined, TWO64 - 10n), rangeErr('counter'));
      assert.equal(fn(key, n, rand(0), undefined, TWO64 - 1n).length, 0);
      assert.equal(fn(key, n, rand(100), undefined, Number.MAX_SAFE_INTEGER).length, 100);
    });
  }

  it('hsalsa20: key must be 32 bytes, the input 16', () => {
    assert.throws(() => hsalsa20(rand(16), rand(16)), rangeErr('key'));
    assert.throws(() => hsalsa20(rand(32), rand(24)), rangeErr('nonce'));
    assert.throws(() => hsalsa20('k' as never, rand(16)), typeErr('key'));
    assert.throws(() => hsalsa20(rand(32), [1] as never), typeErr('nonce'));
  });

  it('xsalsa20poly1305 / secretbox: construction and argument errors', () => {
    assert.throws(() => xsalsa20poly1305(rand(16), rand(24)), rangeErr('key'));
    assert.throws(() => xsalsa20poly1305(rand(32), rand(12)), rangeErr('nonce'));
    assert.throws(() => secretbox(rand(32), rand(8)), rangeErr('nonce'));
    assert.throws(() => xsalsa20poly1305(rand(32), rand(24), rand(4) as never), typeErr('associated data'));
    assert.throws(() => (secretbox as (...a: unknown[]) => unknown)(rand(32), rand(24), rand(4)), typeErr('associated data'));
    const box = xsalsa20poly1305(rand(32), rand(24));
    for (const bad of NOT_BYTES) {
      assert.throws(() => box.encrypt(bad as Uint8Array), typeErr('plaintext'));
      assert.throws(() => box.decrypt(bad as Uint8Array), typeErr('ciphertext'));
    }
    assert.throws(() => box.encrypt(rand(10), new Uint8Array(10)), rangeErr('output'));
    assert.throws(() => box.encrypt(rand(10), new Uint8Array(27)), rangeErr('output'));
    // Too short to hold a tag: a failed authentication, with or without an output.
    for (let n = 0; n < 16; n++) {
      assert.throws(() => box.decrypt(rand(n)), AuthenticationError, `${n} bytes`);
      assert.throws(() => secretbox(rand(32), rand(24)).open(rand(n), new Uint8Array(0)), AuthenticationError, `${n} bytes, with an output`);
    }
    assert.throws(() => box.decrypt(rand(26), new Uint8Array(11)), rangeErr('output'));
    assert.equal(box.decrypt(box.encrypt(new Uint8Array(0))).length, 0);
  });

  it('a wrong tag throws AuthenticationError and leaves no plaintext in the output, at every size', () => {
    for (const len of [0, 1, 100, 224, 225, 4097, 32736, 32737, 100000]) {
      const key = rand(32);
      const nonce = rand(24);
      const pt = rand(len);
      const sealed = secretbox(key, nonce).seal(pt);
      for (const at of [0, Math.min(16, sealed.length - 1), sealed.length - 1]) {
        const bad = sealed.slice();
        bad[at] ^= 1;
        const out = new Uint8Array(len).fill(0x77);
        assert.throws(() => xsalsa20poly1305(key, nonce).decrypt(bad, out), AuthenticationError, `len ${len} byte ${at}`);
        assert.ok(
          out.every((b) => b === 0),
          `len ${len}: output not wiped`,
        );
        const inPlace = bad.slice();
        assert.throws(() => secretbox(key, nonce).open(inPlace, inPlace.subarray(16)), AuthenticationError);
        assert.ok(
          inPlace.subarray(16).every((b) => b === 0),
          `len ${len}: in-place output not wiped`,
        );
      }
      assert.throws(() => secretbox(rand(32), nonce).open(sealed), AuthenticationError, 'wrong key');
      assert.throws(() => secretbox(key, rand(24)).open(sealed), AuthenticationError, 'wrong nonce');
    }
  });
});
