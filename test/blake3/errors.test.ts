/**
 * BLAKE3 argument and state errors: TypeError for wrong types, RangeError
 * for wrong lengths and values, each naming the argument; Error for
 * misuse of a finished hasher. Nothing is hashed with a bad argument.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { blake3 } from 'fourfold/blake3';
import { assertBytes, detach, forEachTier, NO_DETACH, rand } from '../helpers.js';
import { nobleBlake3 } from './reference.js';

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
const NOT_LENGTH: unknown[] = [-1, 1.5, NaN, Infinity, 2 ** 53];

forEachTier('blake3 errors', () => {
  it('data must be a Uint8Array (TypeError naming data), one-shot and update()', () => {
    for (const bad of NOT_BYTES) {
      assert.throws(() => blake3(bad as never), typeErr('data'), String(bad));
      assert.throws(() => blake3.create().update(bad as never), typeErr('data'), String(bad));
    }
  });

  it('detached data is a TypeError naming data, one-shot and update()', { skip: NO_DETACH }, () => {
    assert.throws(() => blake3(detach(rand(16))), typeErr('data'), 'detached');
    assert.throws(() => blake3.create().update(detach(rand(16))), typeErr('data'), 'detached, update');
  });

  it('opts: an object; dkLen a non-negative integer; key 32 bytes; context a string or bytes; key and context exclusive', () => {
    for (const bad of ['x', 5, null, true, 0n]) {
      assert.throws(() => blake3(rand(4), bad as never), typeErr('opts'));
      assert.throws(() => blake3.create(bad as never), typeErr('opts'));
    }
    for (const bad of NOT_LENGTH) {
      assert.throws(() => blake3(rand(4), { dkLen: bad as number }), rangeErr('dkLen'), String(bad));
      assert.throws(() => blake3.create({ dkLen: bad as number }), rangeErr('dkLen'), String(bad));
    }
    for (const bad of ['32', 32n, null]) assert.throws(() => blake3(rand(4), { dkLen: bad as never }), typeErr('dkLen'), String(bad));
    // A length no engine can allocate is a RangeError naming it, not the engine's own error.
    assert.throws(() => blake3(rand(4), { dkLen: 2 ** 53 - 1 }), rangeErr('dkLen'), 'one-shot dkLen 2^53 - 1');
    assert.throws(
      () =>
        blake3
          .create({ dkLen: 2 ** 53 - 1 })
          .update(rand(4))
          .digest(),
      rangeErr('dkLen'),
      'digest, dkLen 2^53 - 1',
    );
    assert.throws(
      () =>
        blake3
          .create()
          .update(rand(4))
          .xof(2 ** 53 - 1),
      rangeErr('bytes'),
      'xof(2^53 - 1)',
    );
    for (const n of [0, 1, 16, 31, 33, 64]) {
      assert.throws(() => blake3(rand(4), { key: rand(n) }), rangeErr('key'), `key of ${n}`);
      assert.throws(() => blake3.create({ key: rand(n) }), rangeErr('key'), `create, key of ${n}`);
    }
    for (const bad of NOT_BYTES.slice(1)) assert.throws(() => blake3(rand(4), { key: bad as never }), typeErr('key'), String(bad));
    for (const bad of [null, 42, [1], new Uint16Array(2), {}]) assert.throws(() => blake3(rand(4), { context: bad as never }), typeErr('context'), String(bad));
    assert.throws(() => blake3(rand(4), { key: rand(32), context: 'c' }), typeErr('key'));
    assert.throws(() => blake3.create({ key: rand(32), context: rand(3) }), typeErr('context'));
  });

  it('xof(bytes) takes a non-negative integer; xofInto and digestInto take a Uint8Array (digestInto: at least outputLen)', () => {
    const h = blake3.create({ dkLen: 40 });
    for (const bad of NOT_LENGTH) assert.throws(() => h.xof(bad as number), rangeErr('bytes'), String(bad));
    assert.throws(() => h.xof('4' as never), typeErr('bytes'));
    for (const bad of NOT_BYTES) {
      assert.throws(() => h.xofInto(bad as never), typeErr('output'), String(bad));
      assert.throws(() => h.digestInto(bad as never), typeErr('output'), String(bad));
    }
    assert.throws(() => h.digestInto(new Uint8Array(39)), rangeErr('output'));
    // None of these consumed the hasher.
    assertBytes(h.digest(), nobleBlake3(new Uint8Array(0), { dkLen: 40 }));
  });

  it('a finished hasher: digest() once, no update() after the output started, nothing after destroy()', () => {
    const d = blake3.create().update(rand(10));
    d.digest();
    assert.throws(() => d.digest(), /destroyed/);
    assert.throws(() => d.update(rand(1)), /destroyed/);
    assert.throws(() => d.xof(1), /destroyed/);
    const x = blake3.create().update(rand(10));
    x.xof(10);
    assert.throws(() => x.update(rand(1)), /after xof/);
    assert.throws(() => x.digest(), /after xof/);
    x.xof(10); // the stream goes on
    const z = blake3.create();
    z.update(rand(2000));
    z.destroy();
    assert.throws(() => z.update(rand(1)), /destroyed/);
    assert.throws(() => z.digest(), /destroyed/);
    assert.throws(() => z.clone(), /destroyed/);
  });

  it('dkLen 0 and xof(0) give empty outputs', () => {
    assert.equal(blake3(rand(10), { dkLen: 0 }).length, 0);
    assert.equal(blake3.create({ dkLen: 0 }).update(rand(3)).digest().length, 0);
    const msg = rand(3);
    const h = blake3.create().update(msg);
    assert.equal(h.xof(0).length, 0);
    h.xofInto(new Uint8Array(0));
    assertBytes(h.xof(32), nobleBlake3(msg), 'empty reads do not advance the stream');
  });
});
