/**
 * httpRangeSource and openRangeReader against a local server that serves
 * Range requests (range-server.ts): decryptRange and a reader's reads
 * give the plaintext's bytes at chunk edges, in the first and last
 * chunks, empty ranges and an empty file; the source fetches the header,
 * then only the chunks a read needs and those it fetches ahead, keeps
 * them in a bounded cache, and aborts what it fetched ahead when a read
 * moves elsewhere; a changed chunk is an AuthenticationError (a stream
 * sends the chunks before it, never it); and a server that ignores Range,
 * lies about lengths, answers 404 or cuts the connection gives a
 * RangeRequestError of the right kind, as an abort gives its reason.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { assertBytes, concat, rand } from '../helpers.js';
import { NO_HTTP, type RangeServer, rangeServer, until } from './range-server.js';

const CHUNK = 65536;
const SEALED = CHUNK + 16;
const id = age.generateIdentity();
const from = { identities: [id] };
const size = 40 * CHUNK + 1234;
const data = rand(size);
let file: Uint8Array;
let server: RangeServer;
/** Where the payload's first chunk starts in `file`. */
let payloadAt: number;

before(async () => {
  if (NO_HTTP) return;
  file = await age.encrypt(data, { recipients: [age.identityToRecipient(id)] });
  payloadAt = file.length - (size + 41 * 16);
  server = await rangeServer(file);
});
after(() => server?.close());

/** A fresh server state: the right file, served properly, nothing seen. */
function reset(): void {
  server.file = file;
  server.behaviour = 'ranges';
  server.seen.length = 0;
}

it('decryptRange through the source: ranges at chunk edges, first and last chunk, empty ones', { skip: NO_HTTP }, async () => {
  reset();
  const source = await age.httpRangeSource(server.url);
  assert.equal(source.size, file.length);
  const points = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 39 * CHUNK, size - 1, size, size + 10];
  for (const start of points) {
    for (const end of points) {
      if (end < start) continue;
      assertBytes(await age.decryptRange(source, start, end, from), data.subarray(Math.min(start, size), Math.min(end, size)), `[${start}, ${end})`);
    }
  }
  source.close();
});

it('reads the header first, then only the chunks a read needs and those it fetches ahead', { skip: NO_HTTP }, async () => {
  reset();
  const source = await age.httpRangeSource(server.url, { readAhead: 4 });
  assert.deepEqual(
    server.seen.map((s) => s.range),
    ['bytes=0-16383'],
    'one request: the header',
  );
  const reader = await age.openRangeReader(source, from);
  assert.equal(reader.size, size);
  const lastAt = payloadAt + 40 * SEALED;
  assert.equal(server.seen[1]!.range, `bytes=${lastAt}-${file.length - 1}`, 'then the final chunk');
  server.seen.length = 0;
  assertBytes(await reader.read(10 * CHUNK + 5, 12 * CHUNK - 5), data.subarray(10 * CHUNK + 5, 12 * CHUNK - 5));
  // Chunks 10 and 11, and 4 ahead: one request.
  assert.deepEqual(
    server.seen.map((s) => s.range),
    [`bytes=${payloadAt + 10 * SEALED}-${payloadAt + 16 * SEALED - 1}`],
  );
  await until(() => source.stats.bytes >= 16384 + (file.length - lastAt) + 6 * SEALED, 'the chunks fetched ahead');
  assertBytes(await reader.read(12 * CHUNK, 14 * CHUNK), data.subarray(12 * CHUNK, 14 * CHUNK), 'from the cache');
  assert.equal(server.seen.length, 1, 'two chunks are left ahead: nothing fetched');
  assertBytes(await reader.read(14 * CHUNK, 15 * CHUNK), data.subarray(14 * CHUNK, 15 * CHUNK), 'from the cache');
  await until(() => server.seen.length === 2, 'one is left: the next ones fetched ahead');
  assert.equal(server.seen[1]!.range, `bytes=${payloadAt + 16 * SEALED}-${payloadAt + 19 * SEALED - 1}`);
  await reader.close();
  source.close();
});

it('keeps at most cacheChunks chunks, the least recently used out first', { skip: NO_HTTP }, async () => {
  reset();
  const source = await age.httpRangeSource(server.url, { readAhead: 0, cacheChunks: 3 });
  const requests = () => server.seen.length;
  const chunk = (i: number) => source.read(payloadAt + i * SEALED, SEALED);
  for (const i of [1, 2, 3]) assertBytes(await chunk(i), file.subarray(payloadAt + i * SEALED, payloadAt + (i + 1) * SEALED));
  const sent = requests();
  await chunk(1);
  assert.equal(requests(), sent, 'chunk 1 is cached');
  await chunk(4); // evicts chunk 2, the least recently used
  await chunk(1);
  assert.equal(requests(), sent + 1, 'chunk 1 still cached');
  await chunk(2);
  assert.equal(requests(), sent + 2, 'chunk 2 fetched again');
  await assert.rejects(age.httpRangeSource(server.url, { readAhead: 8, cacheChunks: 8 }), RangeError);
  source.close();
});

it('aborts the chunks it fetched ahead when a read moves elsewhere', { skip: NO_HTTP }, async () => {
  reset();
  const source = await age.httpRangeSource(server.url, { readAhead: 8 });
  server.behaviour = 'stall-after-first-chunk';
  server.seen.length = 0;
  // Chunk 3 arrives, then the server stalls on the 8 fetched ahead with it.
  assertBytes(await source.read(payloadAt + 3 * SEALED, SEALED), file.subarray(payloadAt + 3 * SEALED, payloadAt + 4 * SEALED));
  server.behaviour = 'ranges';
  assertBytes(await source.read(payloadAt + 30 * SEALED, 10), file.subarray(payloadAt + 30 * SEALED, payloadAt + 30 * SEALED + 10));
  await until(() => server.seen[0]!.closedEarly && source.stats.aborted === 1, 'the stalled request aborted');
  assert.equal(server.seen[0]!.sent, SEALED, 'it sent no more than the chunk it had');
  // The chunks it never brought are fetched again when asked for.
  assertBytes(await source.read(payloadAt + 5 * SEALED, 10), file.subarray(payloadAt + 5 * SEALED, payloadAt + 5 * SEALED + 10));
  source.close();
});

it('a stream sends the chunks before a changed one, then errors with AuthenticationError', { skip: NO_HTTP }, async () => {
  reset();
  const changed = file.slice();
  changed[payloadAt + 5 * SEALED + 100]! ^= 1;
  server.file = changed;
  const reader = await age.openRangeReader(await age.httpRangeSource(server.url), from);
  await assert.rejects(reader.read(5 * CHUNK, 5 * CHUNK + 1), AuthenticationError);
  await assert.rejects(age.decryptRange(await age.httpRangeSource(server.url), 4 * CHUNK, 6 * CHUNK, from), AuthenticationError);
  const got: Uint8Array[] = [];
  const stream = reader.stream(2 * CHUNK + 7);
  await assert.rejects(stream.pipeTo(new WritableStream({ write: (piece) => void got.push(piece) })), AuthenticationError);
  const sent = got.reduce((n, piece) => n + piece.length, 0);
  assert.equal(sent, 3 * CHUNK - 7, 'chunks 2 (from 7), 3 and 4, and nothing of chunk 5');
  assertBytes(concat(...got), data.subarray(2 * CHUNK + 7, 5 * CHUNK));
  await reader.close();
  await assert.rejects(reader.read(0, 1), TypeError, 'closed');
});

it('an empty plaintext, and a file the server holds no more of than the header', { skip: NO_HTTP }, async () => {
  const empty = await age.encrypt(new Uint8Array(0), { recipients: [age.identityToRecipient(id)] });
  const small = await rangeServer(empty);
  try {
    const reader = await age.openRangeReader(await age.httpRangeSource(small.url), from);
    assert.equal(reader.size, 0);
    assertBytes(await reader.read(0, 10), new Uint8Array(0));
    small.file = new Uint8Array(0);
    await assert.rejects(age.httpRangeSource(small.url), age.AgeFormatError);
  } finally {
    await small.close();
  }
});

it('a server that ignores Range: a small file is read from its 200, a large one refused', { skip: NO_HTTP }, async () => {
  const smallFile = await age.encrypt(data.subarray(0, 5000), { recipients: [age.identityToRecipient(id)] });
  const small = await rangeServer(smallFile, 'ignores-range');
  try {
    assertBytes(await age.decryptRange(await age.httpRangeSource(small.url), 100, 4000, from), data.subarray(100, 4000));
  } finally {
    await small.close();
  }
  reset();
  server.behaviour = 'ignores-range';
  await assert.rejects(age.httpRangeSource(server.url), (e: age.RangeRequestError) => e instanceof age.RangeRequestError && e.reason === 'no-ranges');
});

for (const [behaviour, reason] of [
  ['wrong-total', 'length'],
  ['wrong-start', 'length'],
  ['short-body', 'length'],
  ['long-body', 'length'],
  ['no-content-range', 'length'],
  ['cut', 'network'],
  ['not-found', 'status'],
] as const) {
  it(`a server that answers with ${behaviour}: RangeRequestError, reason '${reason}'`, { skip: NO_HTTP }, async () => {
    reset();
    const isIt = (e: unknown) => e instanceof age.RangeRequestError && e.reason === reason;
    // From the first request on (a cut one: from the final chunk's, the first request of 'cut' going through)...
    server.behaviour = behaviour;
    await assert.rejects(async () => age.decryptRange(await age.httpRangeSource(server.url), 0, 10, from), isIt);
    // ...and on a chunk, the source opened while the server behaved.
    server.behaviour = 'ranges';
    const source = await age.httpRangeSource(server.url, { readAhead: 0 });
    server.behaviour = behaviour;
    await assert.rejects(source.read(payloadAt + 2 * SEALED, 10), isIt);
    source.close();
  });
}

it('an abort: the signal rejects what is in flight and every read after it with its reason', { skip: NO_HTTP }, async () => {
  reset();
  const controller = new AbortController();
  const source = await age.httpRangeSource(server.url, { signal: controller.signal });
  server.behaviour = 'stall-after-first-chunk';
  const reading = source.read(payloadAt + 3 * SEALED, 3 * SEALED);
  await until(() => server.seen.length === 2, 'the request');
  const reason = new Error('stop');
  controller.abort(reason);
  await assert.rejects(reading, (e) => e === reason);
  await assert.rejects(source.read(payloadAt, 10), (e) => e === reason);
  await until(() => server.seen[1]!.closedEarly, 'the request closed');
  const aborted = new AbortController();
  aborted.abort(reason);
  await assert.rejects(age.httpRangeSource(server.url, { signal: aborted.signal }), (e) => e === reason);
});

it('checks its arguments', { skip: NO_HTTP }, async () => {
  await assert.rejects(age.httpRangeSource(server.url, { readAhead: -1 }), RangeError);
  await assert.rejects(age.httpRangeSource(server.url, { ahead: 2 } as never), /unknown option 'ahead'/);
  await assert.rejects(age.httpRangeSource(42 as never), TypeError);
  const open = age.openRangeReader as (...args: unknown[]) => Promise<unknown>;
  await assert.rejects(open(await age.httpRangeSource(server.url), from, 3), TypeError);
});
