/**
 * The simd tier moves the stream key, nonce, keystream, plaintext and
 * Poly1305 state through the ChaCha kernel's linear memory. After every
 * call (init, push, pull, rekey, a failed pull, a whole stream through
 * the TransformStreams) the memory of every kernel must be zero again.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { decryptStream, encryptStream, initPull, initPush, TAG_FINAL, TAG_REKEY } from 'fourfold/secretstream';
import { assertKernelsWiped, NO_SIMD, rand, wiped } from '../helpers.js';
import { AuthenticationError } from 'fourfold';

const SIZES = [0, 1, 15, 16, 17, 64, 128, 129, 1000, 32768, 32769, 65537, 100003];
const AADS = [0, 5, 40000];

describe('secretstream: kernel memories are wiped (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('init, push, pull and rekey, every size, with and without aad', () => {
    const key = rand(32);
    let pusher!: ReturnType<typeof initPush>;
    wiped('initPush', () => (pusher = initPush(key)), undefined, 'chacha');
    let puller!: ReturnType<typeof initPull>;
    wiped('initPull', () => (puller = initPull(pusher.header, key)));
    for (const len of SIZES) {
      for (const aadLength of AADS) {
        const aad = rand(aadLength);
        const m = rand(len);
        let sealed!: Uint8Array;
        wiped(`push ${len}, aad ${aadLength}`, () => (sealed = pusher.push(m, TAG_REKEY, aad)));
        wiped(`pull ${len}, aad ${aadLength}`, () => assert.deepEqual(puller.pull(sealed, aad).message, m));
      }
    }
    wiped('explicit rekey (push)', () => pusher.rekey());
    wiped('explicit rekey (pull)', () => puller.rekey());
  });

  it('failed pulls, short and long', () => {
    for (const len of [0, 100, 32769, 70000]) {
      const key = rand(32);
      const pusher = initPush(key);
      const sealed = pusher.push(rand(len), TAG_FINAL);
      sealed[sealed.length - 1]! ^= 1;
      const puller = initPull(pusher.header, key);
      wiped(`failed pull ${len}`, () => puller.pull(sealed), AuthenticationError);
    }
  });

  it('a stream through encryptStream and decryptStream, and a refused one', async () => {
    const key = rand(32);
    const encrypted: Uint8Array[] = [];
    await new Blob([rand(200000)] as BlobPart[])
      .stream()
      .pipeThrough(encryptStream(key, { chunkSize: 50000 }))
      .pipeTo(new WritableStream({ write: (c) => void encrypted.push(c) }));
    assertKernelsWiped('after encryptStream');
    await new Blob(encrypted as BlobPart[])
      .stream()
      .pipeThrough(decryptStream(key, { chunkSize: 50000 }))
      .pipeTo(new WritableStream());
    assertKernelsWiped('after decryptStream');
    const cut = encrypted.slice(0, -1);
    await assert.rejects(
      new Blob(cut as BlobPart[])
        .stream()
        .pipeThrough(decryptStream(key, { chunkSize: 50000 }))
        .pipeTo(new WritableStream()),
      AuthenticationError,
    );
    assertKernelsWiped('after a refused stream');
  });
});
