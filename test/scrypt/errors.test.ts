/**
 * scrypt's argument checks: RFC 7914 §2's rules on N, r, p and dkLen, the
 * memory bound (a RangeError naming N, r and the bound), options that do
 * not exist, and the types of the password, the salt and the async
 * options; each error names what is wrong, and nothing runs after it.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { forEachTier } from '../helpers.js';

const typeErr = (arg: string) => (e: unknown) => e instanceof TypeError && e.message.includes(arg);
const rangeErr =
  (...words: string[]) =>
  (e: unknown) =>
    e instanceof RangeError && words.every((w) => e.message.includes(w));

forEachTier('scrypt errors', () => {
  it('N: required, a power of two from 2, below 2^(16r)', () => {
    assert.throws(() => scrypt('pw', 'salt', {} as never), typeErr('N'));
    assert.throws(() => scrypt('pw', 'salt', undefined as never), typeErr('N'));
    for (const N of [0, 1, 3, 6, 1000, 2 ** 14 + 1, -2, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => scrypt('pw', 'salt', { N }), rangeErr('N'), `N = ${N}`);
    }
    for (const N of ['1024', 1024n, null, {}]) assert.throws(() => scrypt('pw', 'salt', { N: N as number }), typeErr('N'), `N = ${String(N)}`);
    // r = 1: N must be below 2^16; N = 2^15 is the largest.
    assert.throws(() => scrypt('pw', 'salt', { N: 2 ** 16, r: 1 }), rangeErr('N', '2^16'));
    assert.equal(scrypt('pw', 'salt', { N: 2 ** 15, r: 1, dkLen: 4 }).length, 4);
  });

  it('r, p and dkLen: positive integers, r * p below 2^30, dkLen at most (2^32 - 1) * 32', () => {
    for (const [name, value] of [
      ['r', 0],
      ['r', 1.5],
      ['p', 0],
      ['p', -1],
      ['dkLen', 0],
      ['dkLen', (2 ** 32 - 1) * 32 + 1],
    ] as const) {
      assert.throws(() => scrypt('pw', 'salt', { N: 16, [name]: value }), rangeErr(name), `${name} = ${value}`);
    }
    assert.throws(() => scrypt('pw', 'salt', { N: 16, r: 2 ** 15, p: 2 ** 15 }), rangeErr('r * p', '2^30'));
    assert.throws(() => scrypt('pw', 'salt', { N: 16, r: '8' as unknown as number }), typeErr('r'));
  });

  it('maxmem: a call that needs more is a RangeError naming N, r and the bound, before any work', () => {
    assert.throws(() => scrypt('pw', 'salt', { N: 2 ** 14, r: 8, maxmem: 2 ** 24 }), rangeErr('N = 16384', 'r = 8', 'maxmem', '16 MiB'));
    // 2^21 * 8 * 128 = 2 GiB: above the default bound of 1 GiB and 64 KiB.
    assert.throws(() => scrypt('pw', 'salt', { N: 2 ** 21 }), rangeErr('N = 2097152', 'maxmem'));
    // Exactly at the bound: 128 * r * (N + p + 2) bytes.
    const exact = 128 * 1 * (16 + 1 + 2);
    assert.equal(scrypt('pw', 'salt', { N: 16, r: 1, maxmem: exact }).length, 32);
    assert.throws(() => scrypt('pw', 'salt', { N: 16, r: 1, maxmem: exact - 1 }), rangeErr('maxmem'));
    assert.throws(() => scrypt('pw', 'salt', { N: 16, maxmem: -1 }), rangeErr('maxmem'));
  });

  it('options that do not exist are refused by name, and the sync call takes no onProgress or signal', () => {
    assert.throws(() => scrypt('pw', 'salt', { N: 16, length: 32 } as never), typeErr("'length'"));
    assert.throws(() => scrypt('pw', 'salt', { N: 16, onProgress: () => {} } as never), typeErr("'onProgress'"));
    assert.throws(() => scrypt('pw', 'salt', { N: 16, signal: {} } as never), typeErr("'signal'"));
    assert.throws(() => scrypt('pw', 'salt', 16 as never), typeErr('opts'));
  });

  it('password and salt: strings or Uint8Arrays, each named when wrong', () => {
    for (const bad of [42, null, undefined, [1, 2], new Uint16Array(4), new ArrayBuffer(8), {}]) {
      assert.throws(() => scrypt(bad as never, 'salt', { N: 16 }), typeErr('password'), `password ${String(bad)}`);
      assert.throws(() => scrypt('pw', bad as never, { N: 16 }), typeErr('salt'), `salt ${String(bad)}`);
    }
  });

  it('scryptAsync rejects the same arguments, and a signal that is not an AbortSignal or a progress that is not a function', async () => {
    await assert.rejects(scryptAsync('pw', 'salt', { N: 3 }), rangeErr('N'));
    await assert.rejects(scryptAsync('pw', 'salt', { N: 16, signal: {} as AbortSignal }), typeErr('signal'));
    await assert.rejects(scryptAsync('pw', 'salt', { N: 16, signal: { aborted: false } as AbortSignal }), typeErr('signal'));
    await assert.rejects(scryptAsync('pw', 'salt', { N: 16, onProgress: 'yes' as never }), typeErr('onProgress'));
  });
});
