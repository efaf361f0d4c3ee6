/**
 * BLAKE2b argument and state errors: TypeError for wrong types, RangeError
 * for wrong lengths and values, each naming the argument; Error for
 * misuse of a finished hasher. Nothing is hashed with a bad argument.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { blake2b } from 'fourfold/blake2';
import { assertBytes, detach, forEachTier, NO_DETACH, rand } from '../helpers.js';
import { noble } from './reference.js';

const typeErr = (arg: string) => (e: unknown) => e instanceof TypeError && e.message.includes(arg);
const rangeErr = (arg: string) => (e: unknown) => e instanceof RangeError && e.message.includes(arg);

const NOT_BYTES: unknown[] = [
  undefined,
  null,
  'abc',
  [1, 2, 3],
  new Uint16Array(16),
  new Int8Array(32),
  new ArrayBuffer(32),
  new DataView(new ArrayBuffer(32)),
  {},
  42,
];

forEachTier('blake2b errors', () => {
  it('data must be a Uint8Array (TypeError naming data), one-shot and update()', () => {
    for (const bad of NOT_BYTES) {
      assert.throws(() => blake2b(bad as never), typeErr('data'), String(bad));
      assert.throws(() => blake2b.create().update(bad as never), typeErr('data'), String(bad));
    }
  });

  it('detached data is a TypeError naming data, one-shot and update()', { skip: NO_DETACH }, () => {
    assert.throws(() => blake2b(detach(rand(16))), typeErr('data'), 'detached');
    assert.throws(() => blake2b.create().update(detach(rand(16))), typeErr('data'), 'detached, update');
  });

  it('opts: an object of known options; dkLen an integer 1..64; key up to 64 bytes; salt and personalization 16 bytes', () => {
    for (const bad of ['x', 5, null, true, 0n, Promise.resolve()]) {
      assert.throws(() => blake2b(rand(4), bad as never), typeErr('opts'), String(bad));
      assert.throws(() => blake2b.create(bad as never), typeErr('opts'), String(bad));
    }
    assert.throws(() => blake2b(rand(4), { length: 32 } as never), typeErr('length'), 'unknown option');
    for (const bad of [0, 65, -1, 1.5, NaN, Infinity, 2 ** 53]) {
      assert.throws(() => blake2b(rand(4), { dkLen: bad }), rangeErr('dkLen'), String(bad));
      assert.throws(() => blake2b.create({ dkLen: bad }), rangeErr('dkLen'), String(bad));
    }
    for (const bad of ['32', 32n, null]) {
      assert.throws(() => blake2b(rand(4), { dkLen: bad as never }), typeErr('dkLen'), String(bad));
      assert.throws(() => blake2b.create({ dkLen: bad as never }), typeErr('dkLen'), String(bad));
    }
    for (const n of [65, 128]) {
      assert.throws(() => blake2b(rand(4), { key: rand(n) }), rangeErr('key'), `key of ${n}`);
      assert.throws(() => blake2b.create({ key: rand(n) }), rangeErr('key'), `create, key of ${n}`);
    }
    for (const name of ['key', 'salt', 'personalization']) {
      for (const bad of NOT_BYTES.slice(1)) {
        assert.throws(() => blake2b(rand(4), { [name]: bad as never }), typeErr(name), `${name}: ${String(bad)}`);
        assert.throws(() => blake2b.create({ [name]: bad as never }), typeErr(name), `create, ${name}: ${String(bad)}`);
      }
    }
    for (const name of ['salt', 'personalization']) {
      for (const n of [0, 8, 15, 17, 32]) {
        assert.throws(() => blake2b(rand(4), { [name]: rand(n) }), rangeErr(name), `${name} of ${n}`);
        assert.throws(() => blake2b.create({ [name]: rand(n) }), rangeErr(name), `create, ${name} of ${n}`);
      }
    }
  });

  it('digestInto takes a Uint8Array of at least outputLen bytes, and a bad one consumes nothing', () => {
    const msg = rand(5);
    const h = blake2b.create({ dkLen: 40 }).update(msg);
    for (const bad of NOT_BYTES) assert.throws(() => h.digestInto(bad as never), typeErr('output'), String(bad));
    assert.throws(() => h.digestInto(new Uint8Array(39)), rangeErr('output'));
    assertBytes(h.digest(), noble(msg, { dkLen: 40 }));
  });

  it('a finished hasher: digest() once, nothing after destroy()', () => {
    const d = blake2b.create().update(rand(10));
    d.digest();
    assert.throws(() => d.digest(), /destroyed/);
    assert.throws(() => d.update(rand(1)), /destroyed/);
    assert.throws(() => d.digestInto(new Uint8Array(64)), /destroyed/);
    assert.throws(() => d.clone(), /destroyed/);
    const z = blake2b.create({ key: rand(16) });
    z.update(rand(2000));
    z.destroy();
    assert.throws(() => z.update(rand(1)), /destroyed/);
    assert.throws(() => z.digest(), /destroyed/);
  });
});
