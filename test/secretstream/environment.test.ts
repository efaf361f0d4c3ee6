/**
 * secretstream where the engine lacks what it needs, as React Native does
 * until an app adds it: without crypto.getRandomValues, initPush and
 * encryptStream throw a TypeError that says to install
 * react-native-get-random-values; without TransformStream, encryptStream
 * and decryptStream (fourfold/secretstream's and fourfold/parallel's) say
 * to use initPush / initPull. The globals are taken
 * away for the duration of each check and put back.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { secretstream as parallel } from 'fourfold/parallel';
import { decryptStream, encryptStream, initPull, initPush, HEADER_BYTES } from 'fourfold/secretstream';
import { rand } from '../helpers.js';

before(() => ready());

/** Runs `body` with globalThis[name] replaced by `value` (an own property shadows a prototype getter, as in browsers), then restores it. */
function without(name: 'crypto' | 'TransformStream', value: unknown, body: () => void): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const own = Object.getOwnPropertyDescriptor(g, name);
  Object.defineProperty(g, name, { value, configurable: true, writable: true });
  try {
    assert.equal(g[name], value, `globalThis.${name} could not be replaced for the test`);
    body();
  } finally {
    if (own) Object.defineProperty(g, name, own);
    else delete g[name];
  }
}

const NEEDS_RANDOM = /crypto\.getRandomValues.*react-native-get-random-values/s;

it('without crypto, or a crypto without getRandomValues: initPush and encryptStream throw a TypeError naming the polyfill', () => {
  const key = rand(32);
  for (const crypto of [undefined, {}, { subtle: {} }]) {
    without('crypto', crypto, () => {
      assert.throws(
        () => initPush(key),
        (e: unknown) => e instanceof TypeError && NEEDS_RANDOM.test(e.message),
        `crypto = ${JSON.stringify(crypto)}`,
      );
      if (typeof TransformStream === 'function') {
        assert.throws(
          () => encryptStream(key),
          (e: unknown) => e instanceof TypeError && NEEDS_RANDOM.test(e.message),
          'encryptStream',
        );
      }
    });
  }
  // Restored: a header of random bytes again, and receiving needs no randomness at all.
  const push = initPush(key);
  assert.equal(push.header.length, HEADER_BYTES);
  without('crypto', undefined, () => {
    const pulled = initPull(push.header, key).pull(push.push(new Uint8Array([1, 2, 3])));
    assert.deepEqual([...pulled.message], [1, 2, 3]);
  });
});

it("without TransformStream: encryptStream and decryptStream (also fourfold/parallel's) throw a TypeError pointing to initPush / initPull", () => {
  const key = rand(32);
  const streams = [
    ['encryptStream', encryptStream],
    ['decryptStream', decryptStream],
    ['encryptStream', parallel.encryptStream],
    ['decryptStream', parallel.decryptStream],
  ] as const;
  for (const [name, make] of streams) {
    without('TransformStream', undefined, () => {
      assert.throws(
        () => make(key),
        (e: unknown) => e instanceof TypeError && e.message.includes(name) && /initPush \/ initPull/.test(e.message),
        name,
      );
    });
  }
});
