/**
 * encryptFile and decryptFile from a Blob (a browser's File): into a Blob,
 * or into a file of the origin-private file system. In a browser the
 * pool's workers read their slices of the Blob themselves (FileReaderSync)
 * and make the output's Blobs; elsewhere (worker_threads have no
 * FileReaderSync) the calling thread reads them, asynchronously. Both
 * APIs, every size around a chunk and a piece, every failure of the
 * issue's list: the value is released, or the file replaced, only once
 * complete. No other thread can change a Blob's bytes (a Blob is a
 * snapshot; a File whose file changes on disk fails to read), so the
 * shared-input class test of file-calls.test.ts has no Blob case; hostile
 * headers go through the same bounds as files' (below).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import * as P from 'fourfold/parallel';
import { assertBytes, NO_ABORT, rand } from '../helpers.js';
import { APIS, CHUNK, COUNTS_LOST_WORKERS, from, SEALED, to } from './file-fixture.js';

const PIECE = 15 * CHUNK;
const bytesOf = async (blob: Blob): Promise<Uint8Array> => new Uint8Array(await blob.arrayBuffer());
/** A Blob of `bytes`. */
const blobOf = (bytes: Uint8Array): Blob => new Blob([bytes as Uint8Array<ArrayBuffer>]);
const NO_BLOB = typeof Blob === 'function' ? false : 'not applicable: this engine has no Blob';

/** Whether the pool's workers are Web Workers, which read Blobs themselves (no node:worker_threads here). */
const WEB_WORKERS = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:worker_threads') === undefined;

/** The origin-private file system's root, where the engine has one (a browser's secure context). */
async function privateDirectory(): Promise<FileSystemDirectoryHandle | undefined> {
  const storage = (globalThis as { navigator?: { storage?: { getDirectory?(): Promise<FileSystemDirectoryHandle> } } }).navigator?.storage;
  if (typeof storage?.getDirectory !== 'function') return undefined;
  return storage.getDirectory().catch(() => undefined);
}

describe('encryptFile and decryptFile with Blobs', { skip: NO_BLOB }, () => {
  // Around a chunk, a piece of this thread's (15 chunks) and of a worker's (60); a file of several worker pieces.
  const sizes = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, PIECE - 1, PIECE, PIECE + 1, 2 * PIECE + CHUNK];
  sizes.push(4 * PIECE - 1, 4 * PIECE, 4 * PIECE + 1, 9 * PIECE + 1000);

  for (const [name, api] of APIS) {
    it(`${name}: a Blob into a Blob, the same files as encrypt and decrypt, at every size around a chunk and a piece`, async () => {
      const workers = P.status().workers;
      for (const size of sizes) {
        const data = rand(size);
        const sealed = await api.encryptFile(blobOf(data), undefined, to);
        assert.ok(sealed instanceof Blob, `${size} bytes: a Blob`);
        const file = await bytesOf(sealed);
        assertBytes(await age.decrypt(file, from), data, `${size} bytes: decrypt reads encryptFile's Blob`);
        assertBytes(await bytesOf(await api.decryptFile(sealed, undefined, from)), data, `${size} bytes: decryptFile`);
        const oneShot = blobOf(await age.encrypt(data, to, { armor: size % 2 === 1 }));
        assertBytes(await bytesOf(await api.decryptFile(oneShot, undefined, from)), data, `${size} bytes: decryptFile reads encrypt's file`);
        const armored = await bytesOf(await api.encryptFile(blobOf(data), undefined, to, { armor: true }));
        assertBytes(await age.decrypt(armored, from), data, `${size} bytes: armored`);
        if (api === P.age && workers > 0 && COUNTS_LOST_WORKERS) assert.equal(P.status().workers, workers, `${size} bytes: a worker was lost`);
      }
    });

    it(`${name}: a File's name in the errors; a wrong key, a changed chunk, a file cut or extended release nothing`, async () => {
      const chunks = 121;
      const data = rand((chunks - 1) * CHUNK + 1000);
      const file = await age.encrypt(data, to);
      const payloadAt = file.length - data.length - chunks * 16;
      const cases: [string, Uint8Array, RegExp][] = [];
      for (const k of [0, 1, 14, 15, 16, 59, 60, 61, 119, 120]) {
        const changed = file.slice();
        changed[payloadAt + k * SEALED + 100]! ^= 1;
        cases.push([`chunk ${k} of ${chunks} changed`, changed, new RegExp(`chunk ${k} `)]);
      }
      for (const k of [1, 15, 60, 61, 120]) {
        cases.push([`cut after chunk ${k - 1}`, file.subarray(0, payloadAt + k * SEALED), /cut short/]);
        cases.push([`cut a byte into chunk ${k}`, file.subarray(0, payloadAt + k * SEALED + 1), /cut short|does not verify|short/]);
      }
      cases.push(['cut inside its nonce', file.subarray(0, payloadAt - 3), /nonce/]);
      cases.push(['extended by a byte', Uint8Array.from([...file, 0]), /goes on|does not verify/]);
      for (const [what, bytes, message] of cases) {
        const input = typeof File === 'function' ? new File([bytes as Uint8Array<ArrayBuffer>], 'bad.age') : blobOf(bytes);
        const named = typeof File === 'function' ? 'the File "bad.age"' : 'the Blob';
        await assert.rejects(
          api.decryptFile(input, undefined, from),
          (e: Error) => (e instanceof AuthenticationError || e instanceof age.AgeFormatError) && e.message.startsWith(named) && message.test(e.message),
          what,
        );
      }
      await assert.rejects(api.decryptFile(blobOf(file), undefined, { identities: [age.generateIdentity()] }), age.NoIdentityMatchError);
    });

    it(`${name}: an abort mid-call rejects with its reason; onProgress counts up to the total`, { skip: NO_ABORT }, async () => {
      const data = rand(6 * PIECE + 7);
      const file = blobOf(await age.encrypt(data, to));
      for (const decrypting of [false, true]) {
        const call = (options: object) =>
          decrypting ? api.decryptFile(file, undefined, from, options) : api.encryptFile(blobOf(data), undefined, to, options);
        const seen: number[] = [];
        await call({ onProgress: (done: number, total: number) => seen.push(done / total) });
        assert.equal(seen.at(-1), 1, 'the last report is the total');
        assert.deepEqual(
          seen,
          [...seen].sort((a, b) => a - b),
          'reports count up',
        );
        const controller = new AbortController();
        const reason = new Error('stopped');
        await assert.rejects(call({ signal: controller.signal, onProgress: () => controller.abort(reason) }), (e) => e === reason);
      }
    });

    it(`${name}: a header of 2,000 stanzas is refused before any work, as age refuses more than 1,024`, async () => {
      const stanza = `-> X25519 ${'A'.repeat(43)}\n${'A'.repeat(43)}\n`;
      const many = new TextEncoder().encode(`age-encryption.org/v1\n${stanza.repeat(2000)}--- ${'A'.repeat(43)}\n`);
      const jobs = P.status().jobs;
      await assert.rejects(
        api.decryptFile(blobOf(many), undefined, from),
        (e) => e instanceof age.AgeFormatError && /more than 1024 recipient stanzas/.test(e.message),
      );
      assert.equal(P.status().jobs, jobs, 'no piece was given out');
    });

    it(`${name}: checks its arguments before any work`, async () => {
      const blob = blobOf(rand(10));
      await assert.rejects(api.encryptFile(blob, 'out.age' as never, to), (e) => e instanceof TypeError && /FileSystemFileHandle/.test(e.message));
      await assert.rejects(api.decryptFile(blob, {} as never, from), (e) => e instanceof TypeError && /FileSystemFileHandle/.test(e.message));
      await assert.rejects(api.encryptFile(blob, undefined, to, { armor: 1 } as never), TypeError);
      await assert.rejects(api.encryptFile(blob, undefined, { recipients: [] }), Error);
    });
  }

  it('fourfold/parallel: in a browser the workers read the Blob and write its pieces: this thread never reads it', async () => {
    const data = rand(9 * PIECE + 5);
    await P.warm();
    const before = P.status();
    const sealed = await P.age.encryptFile(blobOf(data), undefined, to);
    assertBytes(await bytesOf(await P.age.decryptFile(sealed, undefined, from)), data);
    const jobs = P.status().jobs - before.jobs;
    if (WEB_WORKERS && before.workers > 0) assert.ok(jobs >= 4, `the workers did the pieces (${jobs} jobs)`);
    else assert.equal(jobs, 0, 'worker_threads cannot read a Blob: this thread did every piece');
  });

  it('fourfold/parallel: terminate() mid-call: the Blob is still right (the lost pieces are done on this thread)', async () => {
    const data = rand(8 * PIECE + 3);
    let sealed: Blob | undefined;
    for (const decrypting of [false, true]) {
      let calls = 0;
      const onProgress = () => {
        if (++calls === 2) P.terminate();
      };
      if (decrypting) assertBytes(await bytesOf(await P.age.decryptFile(sealed!, undefined, from, { onProgress })), data);
      else sealed = await P.age.encryptFile(blobOf(data), undefined, to, { onProgress });
    }
  });
});

describe('encryptFile and decryptFile into the origin-private file system', () => {
  for (const [name, api] of APIS) {
    it(`${name}: a File into a FileSystemFileHandle, replaced only once complete`, async (t) => {
      const root = await privateDirectory();
      if (root === undefined) return t.skip('not applicable: this engine has no origin-private file system');
      const handle = await root.getFileHandle(`fourfold-${name.replace('/', '-')}.age`, { create: true });
      const plainHandle = await root.getFileHandle(`fourfold-${name.replace('/', '-')}.plain`, { create: true });
      try {
        const data = rand(5 * PIECE + 11);
        await api.encryptFile(blobOf(data), handle, to);
        assertBytes(await age.decrypt(await bytesOf(await handle.getFile()), from), data, 'encrypted into the file');
        await api.decryptFile(await handle.getFile(), plainHandle, from);
        assertBytes(await bytesOf(await plainHandle.getFile()), data, 'decrypted into the file');
        // A failure leaves the file as it was.
        const changed = await bytesOf(await handle.getFile());
        changed[changed.length - 3 * SEALED]! ^= 1;
        await assert.rejects(api.decryptFile(blobOf(changed), plainHandle, from), AuthenticationError);
        assertBytes(await bytesOf(await plainHandle.getFile()), data, 'the file as it was after a failure');
        await assert.rejects(api.decryptFile(blobOf(changed), plainHandle, { identities: [age.generateIdentity()] }), age.NoIdentityMatchError);
        assertBytes(await bytesOf(await plainHandle.getFile()), data, 'the file as it was after a wrong key');
      } finally {
        await root.removeEntry(handle.name);
        await root.removeEntry(plainHandle.name);
      }
    });
  }
});
