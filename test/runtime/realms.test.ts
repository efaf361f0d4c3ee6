/**
 * Uint8Arrays from another realm (an iframe, node:vm, Jest's or jsdom's
 * environment) are Uint8Arrays: every public function takes them in every
 * byte argument, as @noble's functions do, gives the bytes it gives for
 * plain arrays, and returns a caller's output object itself. Other typed
 * arrays of that realm are still TypeErrors naming the argument.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { blake3, chacha20, chacha20poly1305, poly1305, secretstream, serpent } from 'fourfold';
import { assertBytes, forEveryTier, otherRealm, OTHER_REALM_MISSING, rand } from '../helpers.js';
import { calls, plain } from './calls.js';

const realm = otherRealm();
const skip = realm === undefined && OTHER_REALM_MISSING;
const direct = <T>(call: () => T): T => call();

/** A copy of `bytes` as a Uint8Array of the other realm. */
function foreign(bytes: Uint8Array): Uint8Array {
  const a = new realm!.Uint8Array(bytes.length);
  a.set(bytes);
  return a;
}

const typeErr = (arg: string) => (e: unknown) => e instanceof TypeError && (e as Error).message.includes(arg);

it('the other realm really is another one', { skip }, () => {
  const a = foreign(rand(4));
  assert.ok(!(a instanceof Uint8Array), "not an instance of this realm's Uint8Array");
  assert.equal(Object.prototype.toString.call(a), '[object Uint8Array]');
});

forEveryTier("another realm's Uint8Arrays", () => {
  for (const size of [100, 40000]) {
    it(`every public function takes them and gives the same bytes (${size} bytes)`, { skip }, async () => {
      for (const c of calls(size)) {
        const expected = await c.run((b) => b.slice(), direct);
        assertBytes(await c.run(foreign, direct), expected, c.name);
      }
    });
  }

  it('their other typed arrays are TypeErrors naming the argument', { skip }, () => {
    const key = rand(32);
    const nonce = rand(12);
    const data = rand(40);
    const others: unknown[] = [
      new realm!.Uint16Array(16),
      new realm!.Int8Array(32),
      new realm!.Uint8ClampedArray(32),
      new realm!.ArrayBuffer(32),
      new realm!.Array(32),
    ];
    for (const other of others) {
      const what = Object.prototype.toString.call(other);
      const bad = other as Uint8Array;
      assert.throws(() => chacha20(bad, nonce, data), typeErr('key'), `key: ${what}`);
      assert.throws(() => chacha20(key, bad, data), typeErr('nonce'), `nonce: ${what}`);
      assert.throws(() => chacha20(key, nonce, bad), typeErr('data'), `data: ${what}`);
      assert.throws(() => chacha20poly1305(key, nonce, bad), typeErr('aad'), `aad: ${what}`);
      assert.throws(() => poly1305(bad, key), typeErr('message'), `message: ${what}`);
      assert.throws(() => blake3(data, { key: bad }), typeErr('key'), `blake3 key: ${what}`);
      assert.throws(() => serpent.ctr(key, bad), typeErr('iv'), `iv: ${what}`);
    }
  });

  it('a foreign ArrayBuffer, DataView or other typed array is a stream chunk like any other', { skip }, async () => {
    const key = rand(32);
    const data = rand(1000);
    const copy = (b: Uint8Array) => foreign(b).buffer;
    const chunks = [copy(data.subarray(0, 400)), new realm!.DataView(copy(data.subarray(400, 600))), new realm!.Uint16Array(copy(data.subarray(600)))];
    const enc = secretstream.encryptStream(key);
    const dec = secretstream.decryptStream(key);
    const out = enc.readable.pipeThrough(dec);
    const writer = enc.writable.getWriter();
    for (const c of chunks) void writer.write(c as unknown as Uint8Array);
    void writer.close();
    const parts: Uint8Array[] = [];
    for (const reader = out.getReader(); ; ) {
      const r = await reader.read();
      if (r.done) break;
      parts.push(plain(r.value));
    }
    assertBytes(new Uint8Array(parts.flatMap((p) => [...p])), data, 'decrypted');
  });
});
