/**
 * The fuzzing's properties of secretstream: messages with every tag
 * against libsodium's, and the whole-stream calls cut anywhere, both ways,
 * a flipped bit erroring the stream before its plaintext (also run on
 * fourfold/parallel's streams by async-properties.ts).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AuthenticationError } from 'fourfold';
import * as ss from 'fourfold/secretstream';
import { loadSodium } from '../helpers.js';
import { sodiumStream } from '../secretstream/peer.js';
import { bytesOf, cut, dataArb, drain, equal, flipped, join, keyArb, layoutArb, place, splitArb, streamOf, tiersOf } from './gen.js';
import type { FuzzProperty } from './property.js';

const TAGS = [ss.TAG_MESSAGE, ss.TAG_PUSH, ss.TAG_REKEY, ss.TAG_FINAL];

export const secretstreamMessages: FuzzProperty = {
  name: 'secretstream-messages',
  cases: 120,
  tiers: tiersOf(false),
  setup: loadSodium,
  property: () =>
    fc.asyncProperty(
      keyArb(32),
      fc.array(fc.record({ data: dataArb(1200, [64, 256, 512]), tag: fc.constantFrom(...TAGS), aad: dataArb(40, [16]), rekey: fc.boolean() }), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.record({ at: fc.nat(), bit: fc.nat() }),
      layoutArb,
      async (key, messages, tamper, layout) => {
        // fourfold pushes, libsodium pulls.
        const push = ss.initPush(key);
        const theirs = sodiumStream.initPull(push.header, key);
        const sodiumPush = sodiumStream.initPush(key);
        const pull = ss.initPull(sodiumPush.header, key);
        const sealed: Uint8Array[] = [];
        for (const m of messages) {
          const data = bytesOf(m.data.length, m.data.seed);
          const aad = bytesOf(m.aad.length, m.aad.seed);
          const c = push.push(place(data, layout).view, m.tag, aad);
          sealed.push(c);
          const got = sodiumStream.pull(theirs, c, aad);
          if (got === false || !equal(got.message, data) || got.tag !== m.tag) return false;
          // libsodium pushes, fourfold pulls.
          const c2 = sodiumStream.push(sodiumPush.state, data, m.tag, aad);
          const back = pull.pull(place(c2, layout).view, aad);
          if (!equal(back.message, data) || back.tag !== m.tag) return false;
          if (m.rekey) {
            push.rekey();
            sodiumStream.rekey(theirs);
            sodiumStream.rekey(sodiumPush.state);
            pull.rekey();
          }
        }
        // A flipped bit in one message: that message fails to pull (AuthenticationError).
        const replay = ss.initPull(push.header, key);
        const i = tamper.at % sealed.length;
        for (let j = 0; j < i; j++) {
          replay.pull(sealed[j]!, bytesOf(messages[j]!.aad.length, messages[j]!.aad.seed));
          if (messages[j]!.rekey) replay.rekey();
        }
        const aad = bytesOf(messages[i]!.aad.length, messages[i]!.aad.seed);
        assert.throws(() => replay.pull(flipped(sealed[i]!, tamper.bit), aad), AuthenticationError);
        return true;
      },
    ),
};

/**
 * The whole-stream calls: encryptStream's output, cut anywhere, is the
 * header and one libsodium message per chunkSize bytes (TAG_MESSAGE, then
 * a TAG_FINAL one with the rest), which libsodium opens; decryptStream
 * opens it cut anywhere else; a flipped bit errors the stream with
 * AuthenticationError before any plaintext of that message comes out.
 */
export function secretstreamStreams(
  name: string,
  api: { encryptStream: typeof ss.encryptStream; decryptStream: typeof ss.decryptStream },
  max: number,
  cases: number,
): FuzzProperty {
  return {
    name,
    cases,
    tiers: tiersOf(false),
    setup: loadSodium,
    property: () =>
      fc.asyncProperty(
        keyArb(32),
        dataArb(max, [64, 1024, 4096, 65536]),
        fc.constantFrom(undefined, 1, 16, 100, 4096, 65535, 65536),
        splitArb,
        splitArb,
        fc.nat(),
        async (key, d, chunkSize, inCuts, outCuts, bit) => {
          const size = chunkSize ?? 65536;
          // At most 40 messages: libsodium opens each one by one.
          const data = bytesOf(Math.min(d.length, 40 * size + (d.length % size)), d.seed);
          const options = chunkSize === undefined ? undefined : { chunkSize };
          const sealed = await drain(streamOf(cut(data, inCuts)).pipeThrough(api.encryptStream(key, options)));
          const whole = Math.floor(data.length / size);
          if (sealed.length !== 24 + data.length + 17 * (whole + 1)) return false;
          const state = sodiumStream.initPull(sealed.subarray(0, 24), key);
          const opened: Uint8Array[] = [];
          for (let at = 24, i = 0; at < sealed.length; i++) {
            const n = i < whole ? size + 17 : sealed.length - at;
            const got = sodiumStream.pull(state, sealed.subarray(at, at + n));
            if (got === false || got.tag !== (i < whole ? ss.TAG_MESSAGE : ss.TAG_FINAL)) return false;
            opened.push(got.message);
            at += n;
          }
          if (!equal(join(opened), data)) return false;
          if (!equal(await drain(streamOf(cut(sealed, outCuts)).pipeThrough(api.decryptStream(key, options))), data)) return false;
          // Tampered: the stream errors, and what came out before is plaintext of the messages before the changed one.
          const at = bit % (sealed.length * 8);
          const released: Uint8Array[] = [];
          const reader = streamOf(cut(flipped(sealed, at), outCuts))
            .pipeThrough(api.decryptStream(key, options))
            .getReader();
          await assert.rejects(
            (async () => {
              for (let r = await reader.read(); !r.done; r = await reader.read()) released.push(r.value);
            })(),
            (e: Error) => e.name === 'AuthenticationError',
          );
          const message = at < 24 * 8 ? 0 : Math.floor((at / 8 - 24) / (size + 17));
          return join(released).length <= message * size && equal(join(released), data.subarray(0, join(released).length));
        },
      ),
  };
}
