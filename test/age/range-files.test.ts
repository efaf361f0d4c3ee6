/**
 * decryptRange on a file (a path, a file: URL, a FileHandle) or a Blob,
 * both APIs: the range's chunks are read and opened as a file call's
 * pieces (on the pool's workers for fourfold/parallel, where they can
 * read the input: a file in Node and Bun, a Blob in a browser), and only
 * their verified plaintext comes back. Every range across the chunk, the
 * calling thread's piece (15 chunks) and a worker's piece (60) boundaries;
 * a chunk changed inside the range refused, outside it not; a file that
 * another writer changes during the call gives the plaintext or
 * AuthenticationError, never a changed byte; terminate() mid-call costs
 * time, not bytes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { assertBytes, rand } from '../helpers.js';
import { APIS, CHUNK, from, fs, inDirectory, NO_FILES, SEALED, to } from './file-fixture.js';

const PIECE = 15 * CHUNK;
const WORKER_PIECE = 4 * PIECE;
const SIZE = 2 * WORKER_PIECE + 1000;
const NO_BLOB = typeof Blob === 'function' ? false : 'not applicable: this engine has no Blob';
const builtin = (name: string) => (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.(name);
/** Whether the pool's workers are Web Workers, which read Blobs themselves. */
const WEB_WORKERS = builtin('node:worker_threads') === undefined;
/** Whether workers read a file the calling thread opened (Node, Bun; Deno's descriptors are its threads' own, and its workers open the path). */
const IN_DENO = (globalThis as { Deno?: unknown }).Deno !== undefined;

/** Ranges [start, end) with each edge at, before and after a chunk, a piece of this thread's and of a worker's, and the plaintext's end. */
function ranges(size: number): [number, number][] {
  const edges = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, PIECE - 1, PIECE + 1, WORKER_PIECE - 1, WORKER_PIECE, WORKER_PIECE + 1, size - 1, size, size + 5];
  const out: [number, number][] = [];
  for (const [i, start] of edges.entries()) for (const end of edges.slice(i)) out.push([start, end]);
  return out;
}

const data = rand(SIZE);
const sealed = age.encrypt(data, to);
/** Where the payload's chunks start in the file. */
const payloadAt = (file: Uint8Array) => file.length - SIZE - 16 * Math.ceil(SIZE / CHUNK);
const expected = (start: number, end: number) => data.subarray(Math.min(start, SIZE), Math.min(end, SIZE));

describe('decryptRange on files', { skip: NO_FILES }, () => {
  for (const [name, api] of APIS) {
    it(`${name}: every range across chunk and piece edges, through a path, a file: URL and a FileHandle`, async () => {
      await inDirectory(async (path) => {
        fs!.writeFileSync(path('file.age'), await sealed);
        const handle = await fs!.promises.open(path('file.age'), 'r');
        try {
          const sources = [path('file.age'), new URL(`file://${path('file.age')}`), handle] as const;
          for (const [start, end] of ranges(SIZE)) {
            const source = sources[(start + end) % 3]!;
            assertBytes(
              await api.decryptRange(source, start, end, from),
              expected(start, end),
              `[${start}, ${end}) from ${typeof source === 'string' ? 'a path' : source instanceof URL ? 'a URL' : 'a handle'}`,
            );
          }
        } finally {
          await handle.close();
        }
      });
    });

    it(`${name}: a chunk changed in the range is refused, naming it; one outside the range is not read; a missing file is the file system's error`, async () => {
      await inDirectory(async (path) => {
        const file = await sealed;
        for (const k of [0, 14, 15, 59, 60, 61, 100]) {
          const changed = file.slice();
          changed[payloadAt(file) + k * SEALED + 9]! ^= 1;
          fs!.writeFileSync(path('file.age'), changed);
          await assert.rejects(
            api.decryptRange(path('file.age'), 0, SIZE, from),
            (e) => e instanceof AuthenticationError && e.message.includes(`chunk ${k}`),
            `chunk ${k} changed, the whole range`,
          );
          const after = (k + 1) * CHUNK;
          assertBytes(await api.decryptRange(path('file.age'), after, SIZE, from), expected(after, SIZE), `chunk ${k} changed, the range after it`);
        }
        await assert.rejects(api.decryptRange(path('missing.age'), 0, 10, from), (e) => (e as { code?: string }).code === 'ENOENT');
      });
    });

    it(`${name}: a file another writer changes during the call: the plaintext or AuthenticationError, never a changed byte`, async () => {
      await inDirectory(async (path) => {
        const file = await sealed;
        fs!.writeFileSync(path('file.age'), file);
        const fd = fs!.openSync(path('file.age'), 'r+');
        let writing = true;
        let flips = 0;
        // Flips a byte of chunk 70 between every turn of this thread's event loop while the ranges are read.
        const at = payloadAt(file) + 70 * SEALED + 3;
        const flip = () => {
          if (!writing) return;
          fs!.writeSync(fd, Uint8Array.of(file[at]! ^ (++flips % 2)), 0, 1, at);
          setImmediate(flip);
        };
        flip();
        let refused = 0;
        try {
          for (let round = 0; round < 20; round++) {
            try {
              assertBytes(await api.decryptRange(path('file.age'), 0, SIZE, from), data, `round ${round}: the file as it was read`);
            } catch (e) {
              if (!(e instanceof AuthenticationError)) throw e;
              refused++;
            }
          }
        } finally {
          writing = false;
          fs!.closeSync(fd);
        }
        assert.ok(flips > 20, `the writer ran during the calls (${flips} writes; ${refused} of 20 calls refused)`);
      });
    });
  }

  it('fourfold/parallel: the workers read and open the range, and terminate() mid-call still gives its bytes', async () => {
    await inDirectory(async (path) => {
      fs!.writeFileSync(path('file.age'), await sealed);
      await P.warm();
      const before = P.status();
      assertBytes(await P.age.decryptRange(path('file.age'), 10, SIZE - 10, from), expected(10, SIZE - 10));
      const jobs = P.status().jobs - before.jobs;
      if (before.workers > 0) assert.ok(jobs >= 2, `the workers did the pieces (${jobs} jobs${IN_DENO ? ', opening the path' : ''})`);
      for (const delay of [0, 1, 5]) {
        const call = P.age.decryptRange(path('file.age'), CHUNK + 3, SIZE, from);
        setTimeout(() => P.terminate(), delay);
        assertBytes(await call, expected(CHUNK + 3, SIZE), `terminate() after ${delay} ms`);
      }
    });
  });
});

describe('decryptRange on a Blob', { skip: NO_BLOB }, () => {
  it('both APIs: ranges across the edges; in a browser the workers read the Blob', async () => {
    const blob = new Blob([(await sealed) as Uint8Array<ArrayBuffer>]);
    for (const [name, api] of APIS) {
      for (const [start, end] of ranges(SIZE).filter((_, i) => i % 4 === 0)) {
        assertBytes(await api.decryptRange(blob, start, end, from), expected(start, end), `${name}: [${start}, ${end})`);
      }
    }
    await P.warm();
    const before = P.status();
    assertBytes(await P.age.decryptRange(blob, 0, SIZE, from), data);
    const jobs = P.status().jobs - before.jobs;
    if (WEB_WORKERS && before.workers > 0) assert.ok(jobs >= 2, `the workers did the pieces (${jobs} jobs)`);
    else assert.equal(jobs, 0, 'worker_threads cannot read a Blob: this thread did every piece');
  });
});
