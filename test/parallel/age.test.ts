/**
 * fourfold/parallel's age: fourfold/age's bytes from the pool (a file
 * either one made opens with the other), pieces of chunks on the workers
 * for the one-shot calls, the streams' batches and decryptRange; terminate() landing
 * while a stream or a call has pieces on the workers costs time, never
 * bytes; a chunk changed mid-file stops decryption after the chunks before
 * it, whichever thread opened them; several streams at once.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { assertBytes, NO_STREAMS, rand } from '../helpers.js';
import { pool } from '../internal.js';
import { allowWorkers, assertSlotsZero, workersAsUsual } from './pool-helpers.js';
import { fs, inDirectory, NO_FILES } from '../age/file-fixture.js';

const CHUNK = 65536;
const SEALED = CHUNK + 16;

after(() => {
  P.configure({ workers: undefined });
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
});

async function through(stream: TransformStream<Uint8Array, Uint8Array>, input: Uint8Array, piece: number, during?: (at: number) => void) {
  const parts: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  const reading = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  })();
  const writer = stream.writable.getWriter();
  let error: unknown;
  try {
    for (let at = 0; at < input.length; at += piece) {
      during?.(at);
      await writer.write(input.slice(at, at + piece));
    }
    await writer.close();
    await reading;
  } catch (e) {
    error = e;
    await reading.catch(() => {});
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return { out, error };
}

const id = age.generateIdentity();
const to = { recipients: [age.identityToRecipient(id)] };
const from = { identities: [id] };

it("one-shot calls and decryptRange on 0, 1 and 2 workers: fourfold/age's bytes both ways", async () => {
  allowWorkers(2);
  for (const workers of [0, 1, 2]) {
    P.configure({ workers });
    for (const size of [0, 1, CHUNK, 16 * CHUNK, 16 * CHUNK + 1, 50 * CHUNK + 9]) {
      const data = rand(size);
      const mine = await P.age.encrypt(data, to);
      assertBytes(await age.decrypt(mine, from), data, `workers ${workers}, ${size}: P.encrypt, age.decrypt`);
      assertBytes(await P.age.decrypt(await age.encrypt(data, to), from), data, `workers ${workers}, ${size}: age.encrypt, P.decrypt`);
      const source = { size: mine.length, read: async (o: number, n: number) => mine.slice(o, o + n) };
      assertBytes(
        await P.age.decryptRange(source, Math.floor(size / 3), size, from),
        data.subarray(Math.floor(size / 3)),
        `workers ${workers}, ${size}: range`,
      );
    }
  }
  P.configure({ workers: undefined });
});

it('streams on the workers: the same bytes, several at once', { skip: NO_STREAMS }, async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  const inputs = [rand(0), rand(70_000), rand(40 * CHUNK + 5), rand(20 * CHUNK)];
  const sealed = await Promise.all(inputs.map((d, i) => through(P.age.encryptStream(to, { armor: i === 1 }), d, 100_000 + i)));
  for (const [i, s] of sealed.entries()) {
    assert.equal(s.error, undefined);
    assertBytes(await age.decrypt(s.out, from), inputs[i]!, `stream ${i}`);
  }
  const opened = await Promise.all(sealed.map((s, i) => through(P.age.decryptStream(from), s.out, SEALED + i)));
  for (const [i, o] of opened.entries()) assertBytes(o.out, inputs[i]!, `stream ${i} back`);
  P.configure({ workers: undefined });
});

it('terminate() while pieces are on the workers: the streams and calls still give the right bytes', { skip: NO_STREAMS }, async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  // Past a stream's batch (128 chunks), so that terminate() lands in the first batch, the second, or the final one.
  const data = rand(300 * CHUNK + 3);
  for (const when of [CHUNK, 140 * CHUNK, 280 * CHUNK]) {
    const sealed = await through(P.age.encryptStream(to), data, 200_000, (at) => at >= when && at < when + 200_000 && P.terminate());
    assertBytes(await age.decrypt(sealed.out, from), data, `encryptStream, terminate() at ${when}`);
    const opened = await through(P.age.decryptStream(from), sealed.out, 200_000, (at) => at >= when && at < when + 200_000 && P.terminate());
    assertBytes(opened.out, data, `decryptStream, terminate() at ${when}`);
  }
  const call = P.age.encrypt(data, to);
  P.terminate();
  assertBytes(await age.decrypt(await call, from), data, 'encrypt with terminate() right after the call');
  P.configure({ workers: undefined });
});

it('a chunk changed mid-file: the chunks before it are released, nothing after, and the error names it', { skip: NO_STREAMS }, async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  // Three of a stream's batches (128 chunks), each shared between the workers and this thread.
  const data = rand(300 * CHUNK);
  const file = await age.encrypt(data, to);
  const payload = file.length - 300 * SEALED;
  for (const bad of [3, 16, 127, 128, 200, 299]) {
    const changed = file.slice();
    changed[payload + bad * SEALED + 5]! ^= 1;
    const r = await through(P.age.decryptStream(from), changed, 1 << 20);
    assert.ok(r.error instanceof AuthenticationError && r.error.message.includes(`chunk ${bad} `), String(r.error));
    assertBytes(r.out, data.subarray(0, bad * CHUNK), `chunk ${bad}: released`);
    await assert.rejects(P.age.decrypt(changed, from), AuthenticationError);
  }
  P.configure({ workers: undefined });
});

it("the workers' slots are zero once a call or a stream is done, and were used: nothing of the plaintext stays", { skip: NO_STREAMS }, async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  const data = rand(300 * CHUNK + 7).fill(0x5a);
  const jobs = P.status().jobs;
  const file = await P.age.encrypt(data, to);
  assertSlotsZero('encrypt');
  assertBytes(await P.age.decrypt(file, from), data);
  assertSlotsZero('decrypt');
  const sealed = await through(P.age.encryptStream(to), data, 1 << 20);
  assertSlotsZero('encryptStream');
  assertBytes((await through(P.age.decryptStream(from), sealed.out, 1 << 20)).out, data);
  assertSlotsZero('decryptStream');
  assert.ok(P.status().jobs > jobs, 'no job went to a worker');
  P.configure({ workers: undefined });
});

it('a passphrase: scrypt on a worker, the file opened by fourfold/age', async () => {
  const data = rand(100);
  const file = await P.age.encrypt(data, { passphrase: 'a passphrase', workFactor: 12 });
  assertBytes(await age.decrypt(file, { passphrase: 'a passphrase' }), data);
  assertBytes(await P.age.decrypt(file, { passphrase: 'a passphrase' }), data);
  await assert.rejects(P.age.decrypt(file, { passphrase: 'another' }), age.NoIdentityMatchError);
});

it("a file call hands its pieces to one worker more than the pool's size, at most the cores: by default one a core (docs/parallel.md)", {
  skip: NO_FILES,
}, async () => {
  // Four cores, as far as the pool knows: the default size is three.
  allowWorkers(4);
  const cores = pool.maxWorkers;
  await inDirectory(async (path) => {
    fs!.writeFileSync(path('input'), rand(24 << 20));
    for (const [size, expected] of [
      [undefined, cores],
      [1, 2],
      [cores, cores],
      [0, 0],
    ] as const) {
      P.terminate();
      P.configure({ workers: size });
      // The most workers alive while the call runs: one that finished its pieces early may be ended
      // once idle before the call resolves (Deno ends a worker idle for 250 ms), so not counted after.
      let most = 0;
      const count = () => void (most = Math.max(most, P.status().workers));
      const counting = setInterval(count, 1);
      try {
        await P.age.encryptFile(path('input'), path('input.age'), to);
      } finally {
        clearInterval(counting);
      }
      count();
      assert.equal(most, expected, `size ${size ?? 'default'}`);
    }
  });
  P.configure({ workers: undefined });
  P.terminate();
});
