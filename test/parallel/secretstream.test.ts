/**
 * fourfold/parallel's secretstream streams, whose state lives in a worker:
 * interoperable both ways with the synchronous streams (and so with
 * libsodium, which test/secretstream checks), for empty and one-byte
 * streams, chunk sizes of 1, 100 and 64 KiB, input in chunks that do not
 * line up with messages; a changed, dropped or appended byte, a truncated
 * stream and data after the final message end the stream with
 * AuthenticationError and nothing of the failing message; several streams
 * at once; a slow reader; and the key copied when the stream is made.
 */
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { assertBytes, concat, forEachTier, rand } from '../helpers.js';

after(() => P.terminate());

/** Writes `chunks` through `ts` and resolves to everything it output (a `delay` between reads makes a slow reader). */
async function through(ts: TransformStream<Uint8Array, Uint8Array>, chunks: Uint8Array[], delay = 0): Promise<Uint8Array> {
  const out: Uint8Array[] = [];
  const reader = ts.readable.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out.push(value);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    }
  })();
  reading.catch(() => {}); // its error is the writer's, awaited below
  const writer = ts.writable.getWriter();
  for (const c of chunks) await writer.write(c);
  await writer.close();
  await reading;
  return concat(...out);
}

/** `data` in chunks of `size` bytes. */
const cut = (data: Uint8Array, size: number): Uint8Array[] => {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) parts.push(data.slice(at, at + size));
  return parts.length > 0 ? parts : [data];
};

const rejectsAuth = (p: Promise<unknown>, label: string) => assert.rejects(p, (e: Error) => e.name === 'AuthenticationError', label);

forEachTier('fourfold/parallel secretstream', () => {
  it('interoperates with the synchronous streams both ways', async () => {
    const key = rand(32);
    for (const [size, chunkSize, inputChunk] of [
      [0, undefined, 1],
      [1, undefined, 1],
      [1000, 1, 7],
      [100_000, 100, 999],
      [3 * 65536 + 5, undefined, 100_000],
      [2_000_000, undefined, 65536],
    ] as const) {
      const m = rand(size);
      const options = chunkSize === undefined ? undefined : { chunkSize };
      const sealed = await through(P.secretstream.encryptStream(key, options), cut(m, inputChunk));
      assertBytes(await through(F.secretstream.decryptStream(key, options), cut(sealed, 4096)), m, `parallel -> sync, ${size} bytes`);
      const syncSealed = await through(F.secretstream.encryptStream(key, options), cut(m, inputChunk));
      assert.equal(sealed.length, syncSealed.length, 'the same length');
      assertBytes(await through(P.secretstream.decryptStream(key, options), cut(syncSealed, 5000)), m, `sync -> parallel, ${size} bytes`);
    }
  });

  it('a changed or dropped byte, a truncated stream, data after the final message: AuthenticationError', async () => {
    const key = rand(32);
    const m = rand(5 * 65536 + 100);
    const sealed = await through(F.secretstream.encryptStream(key), [m]);
    for (const spot of [0, 23, 24, 30, 65536 + 24 + 17, sealed.length - 1]) {
      const bad = sealed.slice();
      bad[spot]! ^= 1;
      await rejectsAuth(through(P.secretstream.decryptStream(key), cut(bad, 30_000)), `byte ${spot}`);
    }
    await rejectsAuth(through(P.secretstream.decryptStream(key), [concat(sealed.subarray(0, 100), sealed.subarray(101))]), 'a dropped byte');
    await rejectsAuth(through(P.secretstream.decryptStream(key), [sealed.subarray(0, 20)]), 'in the header');
    await rejectsAuth(through(P.secretstream.decryptStream(key), [sealed.subarray(0, 24 + 2 * (65536 + 17))]), 'before the final message');
    await rejectsAuth(through(P.secretstream.decryptStream(key), [sealed, new Uint8Array(1)]), 'a byte after the final message');
    await rejectsAuth(through(P.secretstream.decryptStream(key), [sealed, sealed.subarray(24)]), 'messages after the final message');
    await rejectsAuth(through(P.secretstream.decryptStream(rand(32)), [sealed]), 'another key');
  });

  it('releases no plaintext of a failing message', async () => {
    const key = rand(32);
    const m = rand(3 * 65536);
    const sealed = await through(F.secretstream.encryptStream(key), [m]);
    const bad = sealed.slice();
    bad[24 + 2 * (65536 + 17) + 5]! ^= 1; // in the third message
    const out: Uint8Array[] = [];
    const ts = P.secretstream.decryptStream(key);
    const reading = (async () => {
      const reader = ts.readable.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        out.push(value);
      }
    })();
    reading.catch(() => {});
    const writer = ts.writable.getWriter();
    await rejectsAuth(
      (async () => {
        await writer.write(bad);
        await writer.close();
      })(),
      'the third message',
    );
    await rejectsAuth(reading, 'the reader');
    assert.ok(concat(...out).length <= 2 * 65536, `${concat(...out).length} bytes released`);
    assertBytes(concat(...out), m.subarray(0, concat(...out).length), 'what was released is the verified messages');
  });

  it('several streams at once, and a slow reader', async () => {
    const key = rand(32);
    const inputs = [rand(300_000), rand(1), rand(0), rand(200_001)];
    const sealed = await Promise.all(inputs.map((m) => through(P.secretstream.encryptStream(key), cut(m, 10_000))));
    const opened = await Promise.all(sealed.map((s, i) => through(P.secretstream.decryptStream(key), cut(s, 7_000), i === 0 ? 1 : 0)));
    inputs.forEach((m, i) => {
      assertBytes(opened[i], m, `stream ${i}`);
    });
  });

  it('copies the key when the stream is made', async () => {
    const key = rand(32);
    const m = rand(70_000);
    const theirs = key.slice();
    const encrypt = P.secretstream.encryptStream(theirs);
    const decrypt = P.secretstream.decryptStream(theirs);
    theirs.fill(0);
    const sealed = await through(encrypt, [m]);
    assertBytes(await through(decrypt, [sealed]), m, 'with the key as it was');
    assertBytes(await through(F.secretstream.decryptStream(key), [sealed]), m, 'sync, with the key');
  });

  it('checks its arguments like the synchronous streams', () => {
    assert.throws(() => P.secretstream.encryptStream(new Uint8Array(31)), RangeError);
    assert.throws(() => P.secretstream.decryptStream('k' as never), TypeError);
    assert.throws(() => P.secretstream.encryptStream(rand(32), { chunkSize: 0 }), RangeError);
  });
});
