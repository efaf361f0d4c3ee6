/**
 * encryptStream / decryptStream (WHATWG TransformStreams), in both tiers:
 * the encrypted stream is libsodium's (header, then a TAG_MESSAGE message
 * per whole chunkSize bytes, then a TAG_FINAL message with the 0 ..
 * chunkSize - 1 bytes left), whatever the input's chunk boundaries; decryption restores the input from any re-chunking, and
 * refuses truncation, trailing data and tampering with an
 * AuthenticationError, having released only the plaintext of the messages
 * before the failing one.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { decryptStream, encryptStream, TAG_FINAL, TAG_MESSAGE, type StreamOptions } from 'fourfold/secretstream';
import { assertBytes, concat, forEachTier, loadSodium, NO_SODIUM, NO_STREAMS, rand, randInt } from '../helpers.js';
import { sodiumStream } from './peer.js';

/** `data` cut at random points into pieces of 0..maxPiece bytes (empty pieces included). */
function cut(data: Uint8Array, maxPiece: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let pos = 0;
  while (pos < data.length) {
    const n = Math.min(randInt(maxPiece + 1), data.length - pos);
    pieces.push(data.subarray(pos, pos + n));
    pos += n;
  }
  if (randInt(2) === 0) pieces.push(new Uint8Array(0));
  return pieces;
}

/** Pipes `chunks` through `transform`; returns what came out before the end or the error. */
async function run(transform: TransformStream<Uint8Array, Uint8Array>, chunks: unknown[]): Promise<{ out: Uint8Array[]; error: unknown }> {
  const source = new ReadableStream<unknown>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  const reader = source.pipeThrough(transform as unknown as TransformStream<unknown, Uint8Array>).getReader();
  const out: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { out, error: undefined };
      out.push(value);
    }
  } catch (error) {
    return { out, error };
  }
}

async function encrypt(key: Uint8Array, plaintext: Uint8Array, chunkSize: number, maxPiece: number): Promise<Uint8Array> {
  const { out, error } = await run(encryptStream(key, { chunkSize }), cut(plaintext, maxPiece));
  assert.equal(error, undefined);
  return concat(...out);
}

/** libsodium's reading of an encrypted stream: header, then messages of chunkSize + 17 bytes, and a shorter FINAL one. */
function sodiumDecrypt(key: Uint8Array, encrypted: Uint8Array, chunkSize: number): Uint8Array {
  const state = sodiumStream.initPull(encrypted.subarray(0, 24), key);
  const parts: Uint8Array[] = [];
  for (let pos = 24; pos < encrypted.length; pos += chunkSize + 17) {
    const record = encrypted.subarray(pos, Math.min(pos + chunkSize + 17, encrypted.length));
    const pulled = sodiumStream.pull(state, record);
    assert.ok(pulled, `libsodium pulls the message at ${pos}`);
    const last = pos + chunkSize + 17 >= encrypted.length;
    assert.equal(pulled.tag, last ? TAG_FINAL : TAG_MESSAGE, `tag of the message at ${pos}`);
    if (!last) assert.equal(pulled.message.length, chunkSize, 'every message but the last is chunkSize bytes');
    else assert.ok(pulled.message.length < chunkSize, 'the FINAL message has the bytes after the whole chunks');
    parts.push(pulled.message);
  }
  return concat(...parts);
}

const expectedLength = (length: number, chunkSize: number) => 24 + length + 17 * (Math.floor(length / chunkSize) + 1);

/** The `skip` option here: encryptStream and decryptStream are TransformStreams, which Hermes (React Native) does not have. */

forEachTier('secretstream: encryptStream and decryptStream', () => {
  before(loadSodium);

  it('round trips with odd input chunk boundaries, and libsodium reads the stream', { skip: NO_STREAMS || NO_SODIUM }, async () => {
    for (const chunkSize of [1, 16, 100, 1000]) {
      for (const length of [0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 3 * chunkSize, 3 * chunkSize + 5, 7919]) {
        if (length < 0) continue;
        const key = rand(32);
        const plaintext = rand(length);
        const encrypted = await encrypt(key, plaintext, chunkSize, 3 * chunkSize);
        const label = `chunkSize ${chunkSize}, ${length} bytes`;
        assert.equal(encrypted.length, expectedLength(length, chunkSize), `${label}: stream length`);
        assertBytes(sodiumDecrypt(key, encrypted, chunkSize), plaintext, `${label}: libsodium`);
        const { out, error } = await run(decryptStream(key, { chunkSize }), cut(encrypted, 2 * chunkSize + 40));
        assert.equal(error, undefined, label);
        assertBytes(concat(...out), plaintext, `${label}: decryptStream`);
      }
    }
  });

  it('the default chunk size (64 KiB), a 1 MiB + 3 input in uneven pieces', { skip: NO_STREAMS || NO_SODIUM }, async () => {
    const key = rand(32);
    const plaintext = rand((1 << 20) + 3);
    const encrypted = await encrypt(key, plaintext, 65536, 100000);
    assert.equal(encrypted.length, expectedLength(plaintext.length, 65536));
    assertBytes(sodiumDecrypt(key, encrypted, 65536), plaintext, 'libsodium');
    const { out, error } = await run(decryptStream(key), cut(encrypted, 70000));
    assert.equal(error, undefined);
    assertBytes(concat(...out), plaintext, 'decryptStream');
  });

  it('decrypts streams libsodium pushed, also with a whole-chunk FINAL message', { skip: NO_STREAMS || NO_SODIUM }, async () => {
    for (const last of [123, 0, 500]) {
      const key = rand(32);
      const { state, header } = sodiumStream.initPush(key);
      const messages = [rand(500), rand(500), rand(last)];
      const encrypted = concat(header, ...messages.map((m, i) => sodiumStream.push(state, m, i === 2 ? TAG_FINAL : TAG_MESSAGE)));
      const { out, error } = await run(decryptStream(key, { chunkSize: 500 }), cut(encrypted, 300));
      assert.equal(error, undefined);
      assertBytes(concat(...out), concat(...messages), `FINAL of ${last} bytes`);
    }
  });

  it('an empty input is the header and one empty FINAL message', { skip: NO_STREAMS || NO_SODIUM }, async () => {
    const key = rand(32);
    for (const chunks of [[], [new Uint8Array(0)], [new Uint8Array(0), new Uint8Array(0)]]) {
      const { out, error } = await run(encryptStream(key), chunks);
      assert.equal(error, undefined);
      const encrypted = concat(...out);
      assert.equal(encrypted.length, 24 + 17);
      assert.equal(sodiumDecrypt(key, encrypted, 65536).length, 0);
      const back = await run(decryptStream(key), [encrypted]);
      assert.equal(back.error, undefined);
      assert.equal(concat(...back.out).length, 0);
    }
  });

  it('accepts any BufferSource chunk: ArrayBuffer, DataView, other typed arrays', { skip: NO_STREAMS || NO_SODIUM }, async () => {
    const key = rand(32);
    const data = rand(300);
    const chunks: unknown[] = [data.slice(0, 100).buffer, new DataView(data.slice(100, 200).buffer), new Uint16Array(data.slice(200, 300).buffer)];
    const { out, error } = await run(encryptStream(key, { chunkSize: 64 }), chunks);
    assert.equal(error, undefined);
    assertBytes(sodiumDecrypt(key, concat(...out), 64), data);
  });

  it('refuses truncation, trailing data and tampering, releasing only the messages before the failure', { skip: NO_STREAMS || NO_SODIUM }, async () => {
    const chunkSize = 100;
    const key = rand(32);
    const plaintext = rand(450); // messages of 100, 100, 100, 100, 50 (FINAL)
    const encrypted = await encrypt(key, plaintext, chunkSize, 170);
    // libsodium's file-encryption example ends with a whole-chunk FINAL message when the input is whole chunks.
    const { state, header } = sodiumStream.initPush(key);
    const fullFinal = concat(
      header,
      ...[0, 1, 2, 3].map((i) => sodiumStream.push(state, plaintext.subarray(i * chunkSize, (i + 1) * chunkSize), i === 3 ? TAG_FINAL : TAG_MESSAGE)),
    );
    const record = chunkSize + 17;
    const end = encrypted.length;
    const cases: [string, Uint8Array, number, RegExp][] = [
      ['nothing at all', encrypted.subarray(0, 0), 0, /header \(truncated\)/],
      ['cut inside the header', encrypted.subarray(0, 23), 0, /header \(truncated\)/],
      ['only the header', encrypted.subarray(0, 24), 0, /truncated/],
      ['without the FINAL message', encrypted.subarray(0, 24 + 4 * record), 4, /before its final message/],
      ['cut after a message boundary', encrypted.subarray(0, 24 + 2 * record), 2, /before its final message/],
      ['cut inside a message', encrypted.subarray(0, 24 + 2 * record + 50), 2, /./],
      ['cut inside the FINAL message', encrypted.subarray(0, end - 1), 4, /./],
      ['cut to less than a message', encrypted.subarray(0, 24 + 4 * record + 10), 4, /inside a message/],
      // A short FINAL message with bytes after it reads as a longer message that does not verify.
      ['one byte after FINAL', concat(encrypted, new Uint8Array(1)), 4, /modified/],
      ['a message after FINAL', concat(encrypted, encrypted.subarray(24, 24 + record)), 4, /modified/],
      // A FINAL message of chunkSize bytes verifies; what follows it is refused.
      ['one byte after a full FINAL', concat(fullFinal, new Uint8Array(1)), 4, /follows the final message/],
      ['a message after a full FINAL', concat(fullFinal, encrypted.subarray(24, 24 + record)), 4, /follows the final message/],
    ];
    for (const position of [0, 24, 24 + record + 3, 24 + 3 * record - 1, end - 1]) {
      const tampered = encrypted.slice();
      tampered[position]! ^= 0x40;
      const firstBad = position < 24 ? 0 : Math.floor((position - 24) / record);
      // A change in the first message reads as a possible chunkSize mismatch too (test/runtime/messages.test.ts).
      cases.push([`byte ${position} flipped`, tampered, firstBad, firstBad === 0 ? /first message does not verify/ : /modified|reordered/]);
    }
    for (const [name, input, released, message] of cases) {
      for (const pieces of [[input], cut(input, 60)]) {
        const { out, error } = await run(decryptStream(key, { chunkSize }), pieces);
        assert.ok(error instanceof AuthenticationError, `${name}: expected AuthenticationError, got ${String(error)}`);
        assert.match((error as Error).message, message, name);
        // Only whole verified messages came out, in order; a FINAL message verified
        // before trailing data was found may be among them.
        const got = concat(...out);
        assert.ok(got.length <= Math.min(released * chunkSize, plaintext.length), `${name}: released ${got.length} bytes`);
        assert.equal(got.length % chunkSize === 0 || got.length === plaintext.length, true, `${name}: whole messages only`);
        assertBytes(got, plaintext.subarray(0, got.length), `${name}: released plaintext`);
      }
    }
  });

  it('options, chunkSize and key are checked, by name', { skip: NO_STREAMS }, () => {
    const named = (type: typeof TypeError, name: string) => (e: unknown) => e instanceof type && (e as Error).message.startsWith(name);
    for (const make of [encryptStream, decryptStream]) {
      for (const chunkSize of [0, -1, 1.5, 2 ** 30 + 1, 2 ** 31, NaN, Infinity]) {
        assert.throws(() => make(rand(32), { chunkSize }), named(RangeError, 'chunkSize'), String(chunkSize));
      }
      // Not defaults: a chunkSize or options object that is not one is an error.
      for (const chunkSize of [null, '100', 100n, {}, true]) {
        assert.throws(() => make(rand(32), { chunkSize: chunkSize as number }), named(TypeError, 'chunkSize'), String(chunkSize));
      }
      for (const options of ['x', 5, null, true]) {
        assert.throws(() => make(rand(32), options as StreamOptions), named(TypeError, 'options'), String(options));
      }
      assert.equal(make(rand(32), {}) instanceof TransformStream, true, 'empty options: the defaults');
    }
    assert.throws(() => encryptStream(rand(16)), /key must be 32 bytes/);
    assert.throws(() => decryptStream(rand(16)), /key must be 32 bytes/);
  });

  it('works with Node streams through Readable.toWeb / Writable.toWeb', {
    skip: NO_STREAMS || (globalThis.process?.versions?.node === undefined ? 'not applicable: no node:stream' : false),
  }, async () => {
    const { Readable, Writable } = (await import('node:stream' as string)) as typeof import('node:stream');
    if (typeof Readable.toWeb !== 'function') return assert.fail('node:stream has no Readable.toWeb');
    const key = rand(32);
    const plaintext = rand(300000);
    const received: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk);
        callback();
      },
    });
    await (Readable.toWeb(Readable.from(cut(plaintext, 50000).map((p) => Buffer.from(p)))) as unknown as ReadableStream<Uint8Array>)
      .pipeThrough(encryptStream(key))
      .pipeThrough(decryptStream(key))
      .pipeTo(Writable.toWeb(sink) as WritableStream<Uint8Array>);
    assertBytes(new Uint8Array(Buffer.concat(received)), plaintext);
  });
});
