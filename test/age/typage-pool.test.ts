/**
 * The typage API's runners (src/typage/runners.ts): small files and
 * streams are done on the calling thread, and start no worker of the pool
 * (whose code a page then never loads); a file of PARALLEL_MIN bytes or
 * more, whole or streamed, goes to the pool's workers, whose slots are
 * zero once it is done, and its bytes are fourfold/age's: files either
 * makes open with the other, and a changed chunk deep in a large file is
 * refused with AuthenticationError. A stream done here leaves its piece
 * buffer, zeroed, to the next one.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import * as api from 'fourfold/age/typage';
import { assertBytes, NO_STREAMS, rand } from '../helpers.js';
import { PARALLEL_MIN, PayloadSealer, pool, TYPAGE_RUNNERS } from '../internal.js';
import { allowWorkers, assertSlotsZero, handedOut, workersAsUsual } from '../parallel/pool-helpers.js';
import { bytesOf, streamOf } from './typage-peer.js';

after(() => {
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
});

const identity = await api.generateX25519Identity();
const recipient = await api.identityToRecipient(identity);
const encrypter = (): api.Encrypter => {
  const e = new api.Encrypter();
  e.addRecipient(recipient);
  return e;
};
const decrypter = (): api.Decrypter => {
  const d = new api.Decrypter();
  d.addIdentity(identity);
  return d;
};

it('small files and streams run on the calling thread: no worker starts', async () => {
  // Sealed, a chunk's worth of tags more: still below PARALLEL_MIN, as the pool's own runner counts (parallel/age-pool.ts).
  const plain = rand(PARALLEL_MIN - 65_536);
  const file = await encrypter().encrypt(plain);
  assertBytes(await decrypter().decrypt(file), plain);
  if (!NO_STREAMS) assertBytes(await bytesOf(await decrypter().decrypt(streamOf(await bytesOf(await encrypter().encrypt(streamOf(plain, 70_000)))))), plain);
  assert.equal(pool.workers.length, 0, 'a worker started for a small file');
});

it("a large file, whole and streamed, on the pool: fourfold/age's bytes, each opening the other; the workers' slots zero after", async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  // Started first, so that handedOut sees what the calls give them (jobs a worker did, or this thread took back unstarted on a loaded machine).
  await P.warm({ workers: 2 });
  const plain = rand(2 * PARALLEL_MIN + 65_536 * 3 + 17).fill(0x5a);
  let file: Uint8Array = new Uint8Array(0);
  const given = await handedOut(async () => {
    file = await encrypter().encrypt(plain);
    assertSlotsZero('encrypt');
    assertBytes(await decrypter().decrypt(file), plain);
    assertSlotsZero('decrypt');
  });
  assert.ok(given.jobs > 0, 'no job went to the workers');
  assertBytes(await age.decrypt(file, { identities: [identity] }), plain);
  assertBytes(await decrypter().decrypt(await age.encrypt(plain, { recipients: [recipient] })), plain);
  if (!NO_STREAMS) {
    // Past PARALLEL_MIN, a stream's pieces go to the pool's lane (runners.ts lazyLane), which counts the bytes before it.
    const sealed = await bytesOf(await encrypter().encrypt(streamOf(plain, 100_000)));
    assertSlotsZero('encrypt, streamed');
    assertBytes(await age.decrypt(sealed, { identities: [identity] }), plain);
    assertBytes(await bytesOf(await decrypter().decrypt(streamOf(sealed, 100_000))), plain);
    assertSlotsZero('decrypt, streamed');
  }
  P.configure({ workers: undefined });
});

it('a changed chunk deep in a large file: AuthenticationError, whole and streamed', async () => {
  const plain = rand(2 * PARALLEL_MIN + 1000);
  const file = await encrypter().encrypt(plain);
  file[file.length - 3 * 65_536] ^= 1;
  await assert.rejects(decrypter().decrypt(file), AuthenticationError);
  if (!NO_STREAMS) await assert.rejects(async () => bytesOf(await decrypter().decrypt(streamOf(file, 100_000))), AuthenticationError);
});

it('a stream done here gives its piece buffer, zeroed, to the next stream; not while a piece of its is being added', async () => {
  const piece = 15 * 65_536;
  const laneOf = () => TYPAGE_RUNNERS.runner().lane(rand(32), false);
  const stream = async () => {
    const sealer = new PayloadSealer(rand(32), TYPAGE_RUNNERS.runner(), () => {});
    const plain = rand(1 << 20);
    for (let at = 0; at < plain.length; at += 65_536) await sealer.write(plain.subarray(at, at + 65_536));
    await sealer.end();
  };
  await stream();
  const spare = laneOf().buffer(piece);
  assert.ok(
    spare.every((x) => x === 0),
    "the stream's buffer was kept holding plaintext",
  );
  assert.notEqual(laneOf().buffer(piece), spare, 'a spare given out twice');
  // Given back, marked: the next stream takes it and leaves it zeroed for the one after.
  const marked = laneOf();
  marked.release!(spare.fill(1));
  await stream();
  const again = laneOf().buffer(piece);
  assert.equal(again, spare, 'the next stream made a new buffer');
  assert.ok(
    again.every((x) => x === 0),
    'the spare holds bytes once the stream is done',
  );
  // A buffer dropped while a piece of it is being added is nobody's spare: that piece reads it still.
  const busy = laneOf();
  const input = busy.buffer(piece);
  const adding = busy.add({ start: 0, length: 65_536, run: { counter: 0, final: true }, input: input.subarray(0, 65_536) });
  busy.release!(input);
  await adding;
  assert.notEqual(laneOf().buffer(piece), input, 'a buffer a piece was reading became a spare');
});
