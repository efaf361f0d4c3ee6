/**
 * decryptRange, both tiers: every range across chunk and run boundaries
 * gives the plaintext's bytes, clamped to its length as Blob.slice
 * clamps; it reads only the header, the chunks it needs and the final
 * chunk (counted through a RangeSource); a Blob, a Node file handle and a
 * { size, read } object all work; a file cut short or extended, a changed
 * chunk in the range, and an armored file are refused.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { assertBytes, forEachTier, rand } from '../helpers.js';

const NO_BLOB: false | string = typeof Blob === 'function' ? false : 'not applicable: this engine has no Blob';

const CHUNK = 65536;
const SEALED = CHUNK + 16;
const fsPromises = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:fs/promises') as
  | typeof import('node:fs/promises')
  | undefined;
const os = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:os') as
  | typeof import('node:os')
  | undefined;
const NO_FILES = fsPromises === undefined || os === undefined ? 'not applicable: this engine has no node:fs' : false;

/** A RangeSource over `file` that records the byte ranges read. */
function counted(file: Uint8Array): age.RangeSource & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    size: file.length,
    reads,
    read: async (offset, length) => {
      reads.push([offset, length]);
      return file.slice(offset, offset + length);
    },
  };
}

forEachTier('decryptRange', () => {
  const id = age.generateIdentity();
  const from = { identities: [id] };
  const size = 40 * CHUNK + 1234;
  const data = rand(size);
  let file: Uint8Array;

  it('every range across chunk and run boundaries, clamped to the plaintext', async () => {
    file = await age.encrypt(data, { recipients: [age.identityToRecipient(id)] });
    const points = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 16 * CHUNK - 1, 16 * CHUNK + 1, 39 * CHUNK, size - 1, size, size + 10];
    for (const start of points) {
      for (const end of points) {
        if (end < start) continue;
        assertBytes(await age.decryptRange(counted(file), start, end, from), data.subarray(Math.min(start, size), Math.min(end, size)), `[${start}, ${end})`);
      }
    }
  });

  it('reads only the header, the chunks of the range and the final chunk', async () => {
    const source = counted(file);
    await age.decryptRange(source, 5 * CHUNK + 10, 7 * CHUNK - 10, from);
    const payloadAt = file.length - 41 * SEALED + (SEALED - (1234 + 16));
    const read = source.reads.reduce((n, [, length]) => n + length, 0);
    assert.ok(read <= Math.min(payloadAt, 8192) + 2 * SEALED + (1234 + 16) + 16 + 4096, `${read} bytes read: ${JSON.stringify(source.reads)}`);
  });

  it('a Blob', { skip: NO_BLOB }, async () => {
    assertBytes(await age.decryptRange(new Blob([file.slice()]), 100_000, 200_000, from), data.subarray(100_000, 200_000));
  });

  it('a Node file handle', { skip: NO_FILES }, async () => {
    const path = `${os!.tmpdir()}/fourfold-range-${Math.random().toString(36).slice(2)}.age`;
    await fsPromises!.writeFile(path, file);
    const handle = await fsPromises!.open(path);
    try {
      assertBytes(await age.decryptRange(handle, 2 * CHUNK - 5, 3 * CHUNK + 5, from), data.subarray(2 * CHUNK - 5, 3 * CHUNK + 5));
    } finally {
      await handle.close();
      await fsPromises!.rm(path);
    }
  });

  it('a file cut short or extended fails even for a range far from its end, a changed chunk in the range fails, an armored file is refused', async () => {
    await assert.rejects(
      age.decryptRange(counted(file.subarray(0, file.length - (1234 + 16))), 0, 10, from),
      (e) => e instanceof AuthenticationError && /cut short/.test(e.message),
    );
    const longer = new Uint8Array(file.length + 1);
    longer.set(file);
    await assert.rejects(age.decryptRange(counted(longer), 0, 10, from), AuthenticationError);
    const changed = file.slice();
    changed[file.length - 41 * SEALED + (SEALED - (1234 + 16)) + 3 * SEALED + 7]! ^= 1;
    await assert.rejects(age.decryptRange(counted(changed), 3 * CHUNK, 3 * CHUNK + 1, from), AuthenticationError);
    assertBytes(await age.decryptRange(counted(changed), 0, 3 * CHUNK, from), data.subarray(0, 3 * CHUNK), 'a range that does not touch it');
    const armored = await age.encrypt(data.subarray(0, 100), { recipients: [age.identityToRecipient(id)] }, { armor: true });
    await assert.rejects(age.decryptRange(counted(armored), 0, 10, from), (e) => e instanceof age.AgeFormatError && /armored/.test(e.message));
  });

  it('checks its arguments', async () => {
    await assert.rejects(age.decryptRange(counted(file), 10, 5, from), RangeError);
    await assert.rejects(age.decryptRange(counted(file), -1, 5, from), RangeError);
    await assert.rejects(age.decryptRange(42 as never, 0, 5, from), TypeError);
    await assert.rejects(age.decryptRange({ size: 10 } as never, 0, 5, from), TypeError);
  });
});
