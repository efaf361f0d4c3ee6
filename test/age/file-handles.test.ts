/**
 * encryptFile and decryptFile with FileHandles (node:fs/promises open())
 * as input, output or both, on this thread and on every core: the same
 * files as with paths at sizes around a chunk and a worker's piece, the
 * handles left open and usable, an input handle read from its start
 * whatever its position, an output handle emptied before it is written
 * (no old bytes after the new) and emptied again on every failure (a
 * changed chunk, a wrong key, an abort), and an output handle on the
 * input's own file refused before anything is written. In Deno, whose
 * descriptors are each thread's own, the pieces run on the calling thread.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { assertBytes, rand } from '../helpers.js';
import { APIS, CHUNK, COUNTS_LOST_WORKERS, from, fs, inDirectory, NO_FILES, read, SEALED, to } from './file-fixture.js';

const WORKER_PIECE = 60 * CHUNK;

type Handle = import('node:fs/promises').FileHandle;

/** inDirectory, with handles opened in it closed after `f` too. */
async function withHandles(f: (path: (name: string) => string, open: (name: string, flags: string) => Promise<Handle>) => Promise<void>): Promise<void> {
  const opened: Handle[] = [];
  await inDirectory(async (path) => {
    try {
      await f(path, async (name, flags) => {
        const h = await fs!.promises.open(path(name), flags);
        opened.push(h);
        return h;
      });
    } finally {
      for (const h of opened) await h.close().catch(() => {});
    }
  });
}

describe('encryptFile and decryptFile with FileHandles', { skip: NO_FILES }, () => {
  for (const [name, api] of APIS) {
    it(`${name}: handles in, out and both give the files paths give, at sizes around a chunk and a worker's piece`, async () => {
      await withHandles(async (path, open) => {
        const workers = P.status().workers;
        for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, WORKER_PIECE - 1, WORKER_PIECE + 1, 3 * WORKER_PIECE + 5]) {
          const data = rand(size);
          fs!.writeFileSync(path('plain'), data);
          // An input handle whose position is not its start, an output handle longer than what is written to it.
          const input = await open('plain', 'r');
          await input.read(new Uint8Array(7), 0, 7, null);
          fs!.writeFileSync(path('sealed.age'), rand(size + 5000));
          const output = await open('sealed.age', 'r+');
          await api.encryptFile(input, output, to);
          const sealed = read(path('sealed.age'));
          assertBytes(await age.decrypt(sealed, from), data, `${size} bytes: handle to handle`);
          await api.encryptFile(path('plain'), output, to);
          assertBytes(await age.decrypt(read(path('sealed.age')), from), data, `${size} bytes: path to handle`);
          await api.encryptFile(input, path('sealed2.age'), to);
          assertBytes(await age.decrypt(read(path('sealed2.age')), from), data, `${size} bytes: handle to path`);

          const back = await open('back', 'w+');
          await api.decryptFile(await open('sealed.age', 'r'), back, from);
          assertBytes(read(path('back')), data, `${size} bytes: decryptFile, handle to handle`);
          // The handles are still the caller's, open and usable.
          assert.equal((await back.stat()).size, size);
          assert.equal((await input.read(new Uint8Array(1), 0, 1, 0)).bytesRead, Math.min(1, size));
          if (api === P.age && workers > 0 && COUNTS_LOST_WORKERS) assert.equal(P.status().workers, workers, `${size} bytes: a worker was lost`);
          for (const h of [input, output, back]) await h.close();
        }
      });
    });

    it(`${name}: armored output to a handle, read back from a handle`, async () => {
      await withHandles(async (path, open) => {
        const data = rand(2 * CHUNK + 3);
        fs!.writeFileSync(path('plain'), data);
        await api.encryptFile(await open('plain', 'r'), await open('armored.age', 'w'), to, { armor: true });
        assert.match(fs!.readFileSync(path('armored.age'), 'latin1'), /^-----BEGIN AGE ENCRYPTED FILE-----\n/);
        await api.decryptFile(await open('armored.age', 'r'), await open('back', 'w'), from);
        assertBytes(read(path('back')), data);
      });
    });

    it(`${name}: every failure empties an output handle: a changed chunk, a cut file, a wrong key, an abort`, async () => {
      await withHandles(async (path, open) => {
        const chunks = 121;
        const data = rand((chunks - 1) * CHUNK + 1000);
        const file = await age.encrypt(data, to);
        const payloadAt = file.length - data.length - chunks * 16;
        const cases: [string, Uint8Array, age.AgeFrom, (e: unknown) => boolean][] = [];
        const authentication = (e: unknown) => e instanceof AuthenticationError && /file handle/.test((e as Error).message);
        for (const k of [0, 59, 60, 120]) {
          const changed = file.slice();
          changed[payloadAt + k * SEALED + 100]! ^= 1;
          cases.push([`chunk ${k} changed`, changed, from, authentication]);
        }
        cases.push(['cut after chunk 60', file.subarray(0, payloadAt + 61 * SEALED), from, authentication]);
        cases.push(['a wrong key', file, { identities: [age.generateIdentity()] }, (e) => e instanceof age.NoIdentityMatchError]);
        for (const [what, bytes, key, expected] of cases) {
          fs!.writeFileSync(path('bad.age'), bytes);
          fs!.writeFileSync(path('out'), 'what was there');
          const out = await open('out', 'r+');
          await assert.rejects(api.decryptFile(await open('bad.age', 'r'), out, key), expected, what);
          assert.equal((await out.stat()).size, 0, `${what}: the output handle emptied`);
        }
        fs!.writeFileSync(path('plain'), data);
        for (const decrypting of [false, true]) {
          fs!.writeFileSync(path('good.age'), file);
          const out = await open('out', 'w');
          const controller = new AbortController();
          const reason = new Error('stopped');
          const options = { signal: controller.signal, onProgress: () => controller.abort(reason) };
          const call = decrypting
            ? api.decryptFile(await open('good.age', 'r'), out, from, options)
            : api.encryptFile(await open('plain', 'r'), out, to, options);
          await assert.rejects(call, (e) => e === reason);
          assert.equal((await out.stat()).size, 0, `${decrypting ? 'decrypt' : 'encrypt'}: aborted, the output handle emptied`);
        }
      });
    });

    it(`${name}: an output handle on the input's file, and a closed handle, are refused before anything is written`, async () => {
      await withHandles(async (path, open) => {
        const data = rand(CHUNK + 9);
        fs!.writeFileSync(path('plain'), data);
        await assert.rejects(api.encryptFile(path('plain'), await open('plain', 'r+'), to), (e) => e instanceof TypeError && /is the input/.test(e.message));
        await assert.rejects(api.encryptFile(await open('plain', 'r'), await open('plain', 'r+'), to), TypeError);
        assertBytes(read(path('plain')), data, 'the input as it was');
        const closed = await open('plain', 'r');
        await closed.close();
        await assert.rejects(api.encryptFile(closed, path('out'), to), (e) => e instanceof TypeError && /closed file handle/.test(e.message));
        await assert.rejects(api.encryptFile({ fd: 'three' } as never, path('out'), to), TypeError);
        await assert.rejects(api.decryptFile(path('plain'), { fd: -1 } as never, from), TypeError);
        assert.equal(fs!.existsSync(path('out')), false);
      });
    });
  }
});
