/**
 * rangeResponse, the Service Worker's answer to a media element's Range
 * requests: 206 with Content-Range, Content-Length and Accept-Ranges and
 * the plaintext's bytes for one range (at chunk edges, open-ended, a
 * suffix, the first and last chunks), 416 with `bytes * /size` past the
 * end and for an empty plaintext, 200 and all of it without a Range (or
 * with one it does not serve), HEAD without a body, 405 for other
 * methods; the plaintext's length is the reader's, from the header and
 * the final chunk. A changed chunk errors the body after the chunks
 * before it, never sending its bytes; a range that starts in it gets 502. Through httpRangeSource too, where
 * the engine can serve HTTP (range-server.ts).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { assertBytes, concat, ENGINE_HAS_FETCH_API, rand } from '../helpers.js';
import { NO_HTTP, rangeServer } from './range-server.js';

const NO_FETCH_API: false | string = ENGINE_HAS_FETCH_API ? false : 'not applicable: this engine has no Request and Response';
const CHUNK = 65536;
const id = age.generateIdentity();
const from = { identities: [id] };
const size = 5 * CHUNK + 777;
const data = rand(size);

/** `file` as a RangeSource, in memory. */
const inMemory = (file: Uint8Array): age.RangeSource => ({ size: file.length, read: async (offset, length) => file.slice(offset, offset + length) });

const request = (range?: string, method = 'GET') => new Request('https://example.org/film.webm', { method, headers: range === undefined ? {} : { range } });

/** Status, the headers that matter, and the body's bytes. */
async function answer(reader: age.RangeReader, range?: string, method?: string) {
  const response = await age.rangeResponse(request(range, method), reader, { type: 'video/webm', headers: { 'cache-control': 'no-store' } });
  const h = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    range: h('content-range'),
    length: h('content-length'),
    ranges: h('accept-ranges'),
    type: h('content-type'),
    cache: h('cache-control'),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

it('206 and the plaintext of one range; 416 past the end; 200 without a Range', { skip: NO_FETCH_API }, async () => {
  const file = await age.encrypt(data, { recipients: [age.identityToRecipient(id)] });
  const reader = await age.openRangeReader(inMemory(file), from);
  assert.equal(reader.size, size);
  const cases: [string, number, number][] = [
    ['bytes=0-0', 0, 1],
    ['bytes=0-99', 0, 100],
    [`bytes=${CHUNK - 3}-${CHUNK + 2}`, CHUNK - 3, CHUNK + 3],
    [`bytes=${CHUNK}-${2 * CHUNK - 1}`, CHUNK, 2 * CHUNK],
    [`bytes=${5 * CHUNK}-`, 5 * CHUNK, size],
    [`bytes=${3 * CHUNK + 5}-`, 3 * CHUNK + 5, size],
    [`bytes=${size - 1}-${size + 1000}`, size - 1, size],
    ['bytes=-100', size - 100, size],
    [`bytes=-${size + 5}`, 0, size],
    ['bytes = 10 - 20', 10, 21],
  ];
  for (const [range, start, end] of cases) {
    const got = await answer(reader, range);
    assert.equal(got.status, 206, range);
    assert.equal(got.range, `bytes ${start}-${end - 1}/${size}`, range);
    assert.equal(got.length, String(end - start), range);
    assert.equal(got.ranges, 'bytes');
    assert.equal(got.type, 'video/webm');
    assert.equal(got.cache, 'no-store');
    assertBytes(got.body, data.subarray(start, end), range);
  }
  for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
    const got = await answer(reader, range);
    assert.deepEqual([got.status, got.range, got.body.length], [416, `bytes */${size}`, 0], range);
  }
  // No Range, or one not served (several ranges, a last before the first, another unit): all of it.
  for (const range of [undefined, 'bytes=0-1,5-6', 'bytes=9-3', 'items=0-5', 'bytes=-']) {
    const got = await answer(reader, range);
    assert.deepEqual([got.status, got.range, got.length, got.ranges], [200, null, String(size), 'bytes'], String(range));
    assertBytes(got.body, data, String(range));
  }
  const head = await answer(reader, 'bytes=10-19', 'HEAD');
  assert.deepEqual([head.status, head.range, head.length, head.body.length], [206, `bytes 10-19/${size}`, '10', 0]);
  const post = await age.rangeResponse(request(undefined, 'POST'), reader);
  assert.deepEqual([post.status, post.headers.get('allow')], [405, 'GET, HEAD']);
  await reader.close();
});

it('an empty plaintext: 416 for any range, 200 and nothing without one', { skip: NO_FETCH_API }, async () => {
  const reader = await age.openRangeReader(inMemory(await age.encrypt(new Uint8Array(0), { passphrase: 'pw', workFactor: 4 })), { passphrase: 'pw' });
  assert.equal(reader.size, 0);
  for (const range of ['bytes=0-', 'bytes=0-0', 'bytes=-1']) {
    const got = await answer(reader, range);
    assert.deepEqual([got.status, got.range], [416, 'bytes */0'], range);
  }
  const all = await answer(reader);
  assert.deepEqual([all.status, all.length, all.body.length], [200, '0', 0]);
});

it('a changed chunk errors the body after the verified chunks before it', { skip: NO_FETCH_API }, async () => {
  const file = await age.encrypt(data, { recipients: [age.identityToRecipient(id)] });
  const changed = file.slice();
  changed[file.length - (size + 6 * 16) + 3 * (CHUNK + 16) + 9]! ^= 1; // a byte of chunk 3
  const reader = await age.openRangeReader(inMemory(changed), from);
  const response = await age.rangeResponse(request('bytes=100-'), reader);
  assert.equal(response.status, 206);
  const got: Uint8Array[] = [];
  await assert.rejects(response.body!.pipeTo(new WritableStream({ write: (piece) => void got.push(piece) })), AuthenticationError);
  assertBytes(concat(...got), data.subarray(100, 3 * CHUNK), 'chunks 0 (from 100) to 2, none of chunk 3');
  // A range that starts in the changed chunk: 502 and the error, before any byte.
  const failed = await age.rangeResponse(request(`bytes=${3 * CHUNK + 10}-`), reader);
  assert.equal(failed.status, 502);
  assert.match(await failed.text(), /^AuthenticationError: chunk 3 /);
});

it('checks its arguments', { skip: NO_FETCH_API }, async () => {
  const reader = await age.openRangeReader(inMemory(await age.encrypt(data.subarray(0, 10), { recipients: [age.identityToRecipient(id)] })), from);
  await assert.rejects(age.rangeResponse('https://example.org/' as never, reader), TypeError);
  await assert.rejects(age.rangeResponse(request(), reader, { mime: 'video/webm' } as never), /unknown option 'mime'/);
  await assert.rejects(age.rangeResponse(request(), reader, {}, 4 as never), TypeError);
});

it('through httpRangeSource: what a Service Worker answers, read from a server by range', { skip: NO_HTTP || NO_FETCH_API }, async () => {
  const file = await age.encrypt(data, { recipients: [age.identityToRecipient(id)] });
  const server = await rangeServer(file);
  try {
    const reader = await age.openRangeReader(await age.httpRangeSource(server.url, { readAhead: 2 }), from);
    server.seen.length = 0;
    const got = await answer(reader, `bytes=${2 * CHUNK - 1}-${2 * CHUNK}`);
    assert.equal(got.status, 206);
    assertBytes(got.body, data.subarray(2 * CHUNK - 1, 2 * CHUNK + 1));
    // Chunks 1 and 2 were needed, and chunk 3 fetched ahead with them (2 ahead of chunk 1): one request.
    assert.deepEqual(
      server.seen.map((s) => s.sent),
      [3 * (CHUNK + 16)],
    );
    await reader.close();
  } finally {
    await server.close();
  }
});
