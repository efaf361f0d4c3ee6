/**
 * What a receiver must refuse, in both tiers: modified, reordered,
 * duplicated, dropped (truncated) and foreign messages, wrong aad, key or
 * header. A failed pull throws AuthenticationError and leaves the state
 * unusable, even for the message that was due. Bad arguments throw
 * TypeError / RangeError naming the argument, and do not harm the state.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { ABYTES, HEADER_BYTES, initPull, initPush, KEY_BYTES, TAG_FINAL, TAG_MESSAGE, TAG_PUSH, TAG_REKEY } from 'fourfold/secretstream';
import { assertBytes, forEachTier, loadSodium, NO_SODIUM, rand } from '../helpers.js';
import { sodiumStream } from './peer.js';

/** A stream of `count` messages (the last FINAL) pushed by fourfold, with its key and header. */
function stream(count: number, lengths = [0, 1, 17, 64, 100, 1000, 40000]) {
  const key = rand(32);
  const pusher = initPush(key);
  const messages = Array.from({ length: count }, (_, i) => rand(lengths[i % lengths.length]!));
  const sealed = messages.map((m, i) => pusher.push(m, i === count - 1 ? TAG_FINAL : TAG_MESSAGE));
  return { key, header: pusher.header, messages, sealed };
}

/** Pulls `sealed` in order until one fails; returns how many were accepted and the error. */
function pullAll(header: Uint8Array, key: Uint8Array, sealed: Uint8Array[], aad?: Uint8Array) {
  const puller = initPull(header, key);
  let accepted = 0;
  for (const c of sealed) {
    try {
      puller.pull(c, aad);
    } catch (error) {
      return { accepted, error, puller };
    }
    accepted++;
  }
  return { accepted, error: undefined, puller };
}

forEachTier('secretstream: rejected streams', () => {
  before(loadSodium);

  it('the untouched stream pulls entirely (the control for the cases below)', () => {
    const s = stream(7);
    const { accepted, error } = pullAll(s.header, s.key, s.sealed);
    assert.equal(error, undefined);
    assert.equal(accepted, 7);
  });

  it('a flipped bit anywhere in a message (tag byte, ciphertext, MAC) is refused', () => {
    const s = stream(4);
    for (let m = 0; m < 4; m++) {
      const len = s.sealed[m]!.length;
      const positions = new Set([0, 1, len >> 1, len - 17, len - 16, len - 1].filter((p) => p >= 0 && p < len));
      for (const p of positions) {
        for (const bit of [0, 7]) {
          const copy = s.sealed.map((c) => c.slice());
          copy[m]![p]! ^= 1 << bit;
          const { accepted, error } = pullAll(s.header, s.key, copy);
          assert.ok(error instanceof AuthenticationError, `message ${m} byte ${p} bit ${bit}: ${String(error)}`);
          assert.equal(accepted, m, `messages before ${m} still pull`);
        }
      }
    }
  });

  it('reordered, duplicated, dropped and foreign messages are refused', () => {
    const s = stream(5);
    const other = stream(5);
    const cases: [string, Uint8Array[], number][] = [
      ['swapped 1 and 2', [s.sealed[0]!, s.sealed[2]!, s.sealed[1]!], 1],
      ['duplicated 0', [s.sealed[0]!, s.sealed[0]!], 1],
      ['dropped 2', [s.sealed[0]!, s.sealed[1]!, s.sealed[3]!], 2],
      ['dropped the first', [s.sealed[1]!], 0],
      ['message of another stream', [s.sealed[0]!, other.sealed[1]!], 1],
      ['message pushed with a longer body', [s.sealed[0]!, new Uint8Array([...s.sealed[1]!, 0])], 1],
      ['message cut short', [s.sealed[0]!, s.sealed[1]!.subarray(0, s.sealed[1]!.length - 1)], 1],
    ];
    for (const [name, sealed, acceptedBefore] of cases) {
      const { accepted, error } = pullAll(s.header, s.key, sealed);
      assert.ok(error instanceof AuthenticationError, `${name}: ${String(error)}`);
      assert.equal(accepted, acceptedBefore, name);
    }
  });

  it('wrong key, wrong header, wrong or missing aad are refused', () => {
    const s = stream(2);
    const aad = rand(20);
    const key = rand(32);
    const pusher = initPush(key);
    const withAad = pusher.push(rand(50), TAG_MESSAGE, aad);
    assert.ok(pullAll(s.header, rand(32), s.sealed).error instanceof AuthenticationError, 'wrong key');
    const header = s.header.slice();
    header[23]! ^= 1;
    assert.ok(pullAll(header, s.key, s.sealed).error instanceof AuthenticationError, 'wrong header (inonce byte)');
    header[23]! ^= 1;
    header[0]! ^= 1;
    assert.ok(pullAll(header, s.key, s.sealed).error instanceof AuthenticationError, 'wrong header (HChaCha20 input byte)');
    assert.ok(pullAll(pusher.header, key, [withAad]).error instanceof AuthenticationError, 'aad missing');
    const otherAad = aad.slice();
    otherAad[19]! ^= 0x80;
    assert.ok(pullAll(pusher.header, key, [withAad], otherAad).error instanceof AuthenticationError, 'other aad');
    assert.equal(pullAll(pusher.header, key, [withAad], aad).error, undefined, 'the right aad');
    assert.ok(pullAll(s.header, s.key, s.sealed, aad).error instanceof AuthenticationError, 'aad where none was pushed');
  });

  it('a rekey on one side only, or an explicit rekey instead of TAG_REKEY, is refused', () => {
    const key = rand(32);
    const pusher = initPush(key);
    const a = pusher.push(rand(10));
    pusher.rekey();
    const b = pusher.push(rand(10));
    const puller = initPull(pusher.header, key);
    puller.pull(a);
    assert.throws(() => puller.pull(b), AuthenticationError, 'the receiver did not rekey');
    const tagged = initPush(key);
    const c = tagged.push(rand(10), TAG_REKEY);
    const d = tagged.push(rand(10));
    const explicit = initPull(tagged.header, key);
    explicit.pull(c);
    explicit.rekey();
    assert.throws(() => explicit.pull(d), AuthenticationError, 'TAG_REKEY already rekeyed; a second rekey desynchronises');
  });

  it('a failed pull leaves the state unusable, and releases no plaintext', { skip: NO_SODIUM }, () => {
    const s = stream(4, [300, 40000]);
    const puller = initPull(s.header, s.key);
    assertBytes(puller.pull(s.sealed[0]!).message, s.messages[0]!, 'first message');
    const bad = s.sealed[1]!.slice();
    bad[5]! ^= 1;
    let result: unknown;
    assert.throws(() => (result = puller.pull(bad)), AuthenticationError);
    assert.equal(result, undefined);
    // The message that was due, intact, is refused now, and so is everything after.
    assert.throws(() => puller.pull(s.sealed[1]!), /failed authentication/);
    assert.throws(() => puller.pull(s.sealed[2]!), /failed authentication/);
    assert.throws(() => puller.rekey(), /failed authentication/);
    // libsodium agrees that the untouched stream was fine.
    const sodium = sodiumStream.initPull(s.header, s.key);
    for (const [i, c] of s.sealed.entries())
      assertBytes((sodiumStream.pull(sodium, c) || { message: new Uint8Array(1) }).message, s.messages[i]!, `libsodium pulls ${i}`);
  });

  it('a message shorter than its tag byte and MAC is AuthenticationError, and the state is unusable after it', () => {
    for (let n = 0; n < ABYTES; n++) {
      const key = rand(32);
      const pusher = initPush(key);
      const puller = initPull(pusher.header, key);
      // A message cut short: any of its first n bytes.
      const sealed = pusher.push(rand(40)).subarray(0, n);
      assert.throws(() => puller.pull(sealed), AuthenticationError, `${n} bytes`);
      assert.throws(() => puller.pull(pusher.push(rand(3))), /failed authentication/, `${n} bytes: the state after it`);
    }
  });

  it('destroy() wipes the state; push and pull refuse afterwards', () => {
    const key = rand(32);
    const pusher = initPush(key);
    const puller = initPull(pusher.header, key);
    pusher.destroy();
    puller.destroy();
    assert.throws(() => pusher.push(rand(3)), /destroyed/);
    assert.throws(() => puller.pull(rand(40)), /destroyed/);
  });
});

forEachTier('secretstream: argument errors', () => {
  it('keys, headers, tags, messages, aad and ciphertexts are checked by name', () => {
    assert.equal(KEY_BYTES, 32);
    assert.equal(HEADER_BYTES, 24);
    assert.equal(ABYTES, 17);
    assert.deepEqual([TAG_MESSAGE, TAG_PUSH, TAG_REKEY, TAG_FINAL], [0, 1, 2, 3]);
    assert.throws(
      () => initPush(rand(31)),
      (e: Error) => e instanceof RangeError && /key must be 32 bytes/.test(e.message),
    );
    assert.throws(
      () => initPush('k'.repeat(32) as unknown as Uint8Array),
      (e: Error) => e instanceof TypeError && /key must be a Uint8Array/.test(e.message),
    );
    assert.throws(
      () => initPull(rand(23), rand(32)),
      (e: Error) => e instanceof RangeError && /header must be 24 bytes/.test(e.message),
    );
    assert.throws(() => initPull([] as unknown as Uint8Array, rand(32)), /header must be a Uint8Array/);
    const key = rand(32);
    const pusher = initPush(key);
    for (const tag of [-1, 256, 1.5, NaN, Infinity]) {
      assert.throws(
        () => pusher.push(rand(3), tag),
        (e: Error) => e instanceof RangeError && /tag must be/.test(e.message),
        String(tag),
      );
    }
    // Only a number is a tag: no string or bigint is converted.
    for (const tag of ['1', '0', 0n, 1n, null, {}, [0]]) {
      assert.throws(
        () => pusher.push(rand(3), tag as number),
        (e: Error) => e instanceof TypeError && /tag must be a number/.test(e.message),
        String(tag),
      );
    }
    assert.throws(() => pusher.push([1, 2] as unknown as Uint8Array), /message must be a Uint8Array/);
    assert.throws(() => pusher.push(rand(3), TAG_MESSAGE, 'x' as unknown as Uint8Array), /aad must be a Uint8Array/);
    const puller = initPull(pusher.header, key);
    assert.throws(() => puller.pull(new ArrayBuffer(20) as unknown as Uint8Array), /ciphertext must be a Uint8Array/);
    // None of that touched either state: the stream still works.
    const m = rand(99);
    assertBytes(puller.pull(pusher.push(m, TAG_PUSH)).message, m, 'the stream after argument errors');
  });

  it('any byte is a tag, as in libsodium, and pulls back as itself', () => {
    const key = rand(32);
    const pusher = initPush(key);
    const puller = initPull(pusher.header, key);
    for (const tag of [4, 0x80, 0xfe, 0xff]) assert.equal(puller.pull(pusher.push(rand(5), tag)).tag, tag);
  });
});
