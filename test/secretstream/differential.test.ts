/**
 * fourfold/secretstream against libsodium-wrappers'
 * crypto_secretstream_xchacha20poly1305, in both tiers:
 * - byte for byte: fourfold started from libsodium's state pushes the very
 *   bytes libsodium pushes, and the states stay equal, over every message
 *   length 0..1100, slice and SIMD-group boundaries, 64 KiB +- 1 and 1 MiB,
 *   every tag, aad, explicit rekeys, and the counter wrap after 2^32 messages;
 * - interoperation without shared state: fourfold pushes, libsodium pulls,
 *   and the reverse, from each other's headers;
 * - unaligned views of message, aad and ciphertext.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { initPull, initPush, TAG_FINAL, TAG_MESSAGE, TAG_PUSH, TAG_REKEY } from 'fourfold/secretstream';
import { stateOf } from '../internal.js';
import { assertBytes, forEachTier, guarded, loadSodium, NO_SODIUM, rand, randInt } from '../helpers.js';
import { sodiumStream, type SodiumState } from './peer.js';

const TAGS = [TAG_MESSAGE, TAG_PUSH, TAG_REKEY, TAG_FINAL];
const SMALL = Array.from({ length: 1101 }, (_, i) => i);
const LARGE = [4095, 4096, 4097, 32767, 32768, 32769, 65535, 65536, 65537, (1 << 20) + 7];
const AAD_LENGTHS = [0, 1, 15, 16, 17, 100, 40000];

interface Step {
  message: Uint8Array;
  tag: number;
  aad?: Uint8Array;
  /** Both sides rekey explicitly after this message. */
  rekey: boolean;
}

/** Messages of the given lengths with tags cycling through all four, aad on every third, a rekey every 97th. */
function steps(lengths: number[]): Step[] {
  return lengths.map((len, i) => ({
    message: rand(len),
    tag: TAGS[i % 4]!,
    aad: i % 3 === 1 ? rand(AAD_LENGTHS[i % AAD_LENGTHS.length]!) : undefined,
    rekey: i % 97 === 96,
  }));
}

const internal = (owner: object) => {
  const state = stateOf(owner);
  assert.ok(state, 'the test hook finds the state');
  return state;
};

/** Asserts fourfold's state behind `owner` equals libsodium's `state`. */
function assertSameState(owner: object, state: SodiumState, label: string): void {
  const theirs = sodiumStream.read(state);
  assertBytes(internal(owner).key, theirs.key, `${label}: key`);
  assertBytes(internal(owner).nonce, theirs.nonce, `${label}: nonce`);
}

/** A fourfold pusher whose state is libsodium's pusher's, so the two must push the same bytes. */
function twinPushers(key: Uint8Array) {
  const sodium = sodiumStream.initPush(key);
  const ours = initPush(key);
  const theirs = sodiumStream.read(sodium.state);
  internal(ours).key.set(theirs.key);
  internal(ours).nonce.set(theirs.nonce);
  return { sodium: sodium.state, ours };
}

forEachTier('secretstream: byte for byte with libsodium', () => {
  before(loadSodium);

  it("headers give the same state: init_pull from either side's header", { skip: NO_SODIUM }, () => {
    for (let i = 0; i < 20; i++) {
      const key = rand(32);
      const ours = initPush(key);
      assertSameState(ours, sodiumStream.initPull(ours.header, key), 'initPush header');
      const theirs = sodiumStream.initPush(key);
      assertSameState(initPull(theirs.header, key), theirs.state, 'libsodium header, initPull');
      assertSameState(initPull(theirs.header, key), sodiumStream.initPull(theirs.header, key), 'both init_pull');
    }
  });

  for (const [name, lengths] of [
    ['every length 0..1100', SMALL],
    ['block, slice and 64 KiB boundaries, 1 MiB', LARGE],
  ] as const) {
    it(`the same pushes, tags, aad and rekeys: ${name}`, { skip: NO_SODIUM }, () => {
      const { sodium, ours } = twinPushers(rand(32));
      for (const [i, step] of steps(lengths).entries()) {
        const label = `message ${i} (${step.message.length} bytes, tag ${step.tag}, aad ${step.aad?.length ?? '-'})`;
        const expected = sodiumStream.push(sodium, step.message, step.tag, step.aad);
        assertBytes(ours.push(step.message, step.tag, step.aad), expected, label);
        if (step.rekey) {
          sodiumStream.rekey(sodium);
          ours.rekey();
        }
        assertSameState(ours, sodium, label);
      }
    });
  }

  it('the counter wrap after 2^32 messages rekeys, as in libsodium (push and pull)', { skip: NO_SODIUM }, () => {
    const key = rand(32);
    const { sodium, ours } = twinPushers(key);
    const puller = initPull(new Uint8Array(24), key);
    for (const start of [0xfffffffd, 0xffffffff]) {
      sodiumStream.setCounter(sodium, start);
      internal(ours).counter = start;
      // The puller takes the pusher's state, as if it had pulled all the messages before.
      internal(puller).key.set(internal(ours).key);
      internal(puller).nonce.set(internal(ours).nonce);
      for (let i = 0; i < 4; i++) {
        const m = rand(100 + i);
        const counterBefore = internal(ours).counter;
        const keyBefore = internal(ours).key.slice();
        const sealed = ours.push(m);
        assertBytes(sealed, sodiumStream.push(sodium, m), `push at counter ${counterBefore}`);
        assertSameState(ours, sodium, `after the push at counter ${counterBefore}`);
        const wrapped = counterBefore === 0xffffffff;
        assert.equal(internal(ours).counter, wrapped ? 1 : counterBefore + 1, 'the counter after the push');
        assert.equal(Buffer.from(internal(ours).key).equals(Buffer.from(keyBefore)), !wrapped, 'the key changes exactly at the wrap');
        const pulled = puller.pull(sealed);
        assertBytes(pulled.message, m, `pull at counter ${counterBefore}`);
        assertBytes(internal(puller).nonce, internal(ours).nonce, 'puller nonce follows');
        assertBytes(internal(puller).key, internal(ours).key, 'puller key follows');
      }
    }
  });
});

forEachTier('secretstream: interoperation with libsodium', () => {
  before(loadSodium);

  for (const [name, lengths] of [
    ['every length 0..1100', SMALL],
    ['large', LARGE],
  ] as const) {
    it(`fourfold pushes, libsodium pulls: ${name}`, { skip: NO_SODIUM }, () => {
      const key = rand(32);
      const ours = initPush(key);
      const sodium = sodiumStream.initPull(ours.header, key);
      for (const [i, step] of steps(lengths).entries()) {
        const pulled = sodiumStream.pull(sodium, ours.push(step.message, step.tag, step.aad), step.aad);
        assert.ok(pulled, `libsodium rejects message ${i}`);
        assert.equal(pulled.tag, step.tag, `tag of message ${i}`);
        assertBytes(pulled.message, step.message, `message ${i}`);
        if (step.rekey) {
          ours.rekey();
          sodiumStream.rekey(sodium);
        }
      }
    });

    it(`libsodium pushes, fourfold pulls: ${name}`, { skip: NO_SODIUM }, () => {
      const key = rand(32);
      const sodium = sodiumStream.initPush(key);
      const ours = initPull(sodium.header, key);
      for (const [i, step] of steps(lengths).entries()) {
        const pulled = ours.pull(sodiumStream.push(sodium.state, step.message, step.tag, step.aad), step.aad);
        assert.equal(pulled.tag, step.tag, `tag of message ${i}`);
        assertBytes(pulled.message, step.message, `message ${i}`);
        if (step.rekey) {
          ours.rekey();
          sodiumStream.rekey(sodium.state);
        }
      }
    });
  }

  it('unaligned views of message, aad and ciphertext, and a message pulled from a larger buffer', { skip: NO_SODIUM }, () => {
    const key = rand(32);
    const ours = initPush(key);
    const sodium = sodiumStream.initPull(ours.header, key);
    const theirs = sodiumStream.initPush(key);
    const puller = initPull(theirs.header, key);
    for (const offset of [1, 2, 3]) {
      for (const len of [0, 1, 63, 64, 65, 200, 4097, 32769, 70001]) {
        const m = guarded(rand(len), offset);
        const aad = guarded(rand(randInt(40)), offset);
        const pulled = sodiumStream.pull(sodium, ours.push(m.view, TAG_MESSAGE, aad.view), aad.view);
        assert.ok(pulled, `libsodium pulls offset ${offset}, ${len} bytes`);
        assertBytes(pulled.message, m.view, `offset ${offset}, ${len} bytes`);
        assert.ok(m.intact() && aad.intact(), 'inputs untouched');
        const sealed = guarded(sodiumStream.push(theirs.state, m.view, TAG_PUSH, aad.view), offset);
        const back = puller.pull(sealed.view, aad.view);
        assertBytes(back.message, m.view, `fourfold pulls offset ${offset}, ${len} bytes`);
        assert.equal(back.tag, TAG_PUSH);
        assert.ok(sealed.intact(), 'ciphertext untouched');
      }
    }
  });
});
