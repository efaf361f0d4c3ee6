/**
 * The class test of outputs, output handles: every way node:fs opens one
 * for writing, given to each library writer: the right bytes, or a
 * refusal (a handle opened for appending) that leaves it as it was; a
 * device's handle, one opened for reading, and a 6755 file's, whose
 * setuid and setgid never reach the output.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { from, fs, NO_FILES, read, to } from './file-fixture.js';
import { checkWritten, encryptPlain, inCase, LIBRARY } from './output-cases.js';
import { modeOf, NO_CHILDREN, nullDevice, OLD } from './output-kinds.js';

before(encryptPlain);

describe('file calls: output handles, every way node:fs opens one for writing', { skip: NO_FILES }, () => {
  for (const w of LIBRARY) {
    for (const flags of ['w', 'r+', 'a', 'a+']) {
      it(`${w.name} into a handle opened with '${flags}': the right bytes, or refused and left as it was`, async () => {
        await inCase(async (path) => {
          fs!.writeFileSync(path('out'), OLD);
          const handle = await fs!.promises.open(path('out'), flags);
          try {
            const input = w.encrypting ? path('plain') : path('file.age');
            const call = w.encrypting ? w.api.encryptFile(input, handle, to) : w.api.decryptFile(input, handle, from);
            const outcome = await call.then(
              () => undefined,
              (e: Error) => e,
            );
            const what = `${w.name}, '${flags}'`;
            if (outcome === undefined) await checkWritten(w, read(path('out')), what);
            else {
              // Linux's pwrite(2) appends on a handle opened for appending: refused before anything in it changed.
              assert.ok(flags.startsWith('a'), `${what}: ${outcome.message}`);
              assert.equal(outcome.name, 'TypeError', what);
              assert.match(outcome.message, /opened for appending \('a' or 'a\+'\).*open it with 'w' or 'r\+'/);
              assert.equal(fs!.readFileSync(path('out'), 'utf8'), OLD, `${what}: left as it was`);
            }
          } finally {
            await handle.close();
          }
        });
      });
    }
    it(`${w.name} into a handle of a device, of a file opened for reading, of a 6755 file`, { skip: NO_CHILDREN }, async () => {
      await inCase(async (path) => {
        const input = w.encrypting ? path('plain') : path('file.age');
        const into = (handle: { fd: number }) => (w.encrypting ? w.api.encryptFile(input, handle, to) : w.api.decryptFile(input, handle, from));
        const device = await fs!.promises.open(nullDevice(path), 'w');
        await assert.rejects(
          into(device).finally(() => device.close()),
          { name: 'TypeError', message: /is a character device, not a regular file/ },
        );
        fs!.writeFileSync(path('out'), OLD);
        const reading = await fs!.promises.open(path('out'), 'r');
        await assert.rejects(
          into(reading).finally(() => reading.close()),
          { name: 'TypeError', message: /is not open for writing: open it with 'w' or 'r\+'/ },
        );
        assert.equal(fs!.readFileSync(path('out'), 'utf8'), OLD);
        fs!.chmodSync(path('out'), 0o6755);
        const setuid = await fs!.promises.open(path('out'), 'r+');
        await into(setuid).finally(() => setuid.close());
        await checkWritten(w, read(path('out')), `${w.name}, a 6755 file`);
        assert.equal(modeOf(path('out')), 0o755, 'setuid and setgid taken off');
      });
    });
  }
});
