/**
 * The class test of outputs, the file calls: every kind of output
 * (output-kinds.ts) x every library writer (encryptFile and decryptFile of
 * fourfold/age and of fourfold/parallel's age): the bytes where the output
 * is written, the refusal where it is not, and no temporary file left.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IS_NODE } from '../cli/age-clients.js';
import { NO_FILES, read } from './file-fixture.js';
import { checkWritten, encryptPlain, inCase, LIBRARY, noTemporary, readFifo, runLibrary } from './output-cases.js';
import { IS_ROOT, KINDS, NO_CHILDREN, NO_ROOT, NO_UNPRIVILEGED } from './output-kinds.js';

before(encryptPlain);

describe('file calls: every kind of output x every library writer', { skip: NO_FILES || NO_CHILDREN }, () => {
  for (const w of LIBRARY) {
    for (const kind of KINDS) {
      const skip =
        (kind.root && NO_ROOT) ||
        (kind.unprivileged && IS_ROOT && (!IS_NODE ? 'not applicable: runs the call in a child Node without root capabilities' : NO_UNPRIVILEGED));
      it(`${w.name} into ${kind.name}`, { skip }, async () => {
        await inCase(async (path) => {
          const output = kind.make(path);
          const fifo = kind.name.startsWith('a FIFO') ? readFifo(output, path('read')) : undefined;
          const error = await runLibrary(w, path, output, kind.unprivileged === true);
          const what = `${w.name} into ${kind.name}`;
          if (kind.refused === 'never') {
            assert.equal(error, undefined, `${what}: ${error?.message}`);
            kind.check(path, await checkWritten(w, read(kind.written?.(path) ?? output), what));
          } else {
            assert.notEqual(error, undefined, `${what}: refused`);
            assert.match(error!.message, kind.error!.library instanceof RegExp ? kind.error!.library : new RegExp(kind.error!.library), what);
            if (typeof kind.error!.library !== 'string' && kind.refused === 'library') assert.equal(error!.name, 'TypeError', what);
            kind.check(path, undefined);
            if (fifo !== undefined) assert.equal((await fifo.release()).length, 0, `${what}: its reader got nothing`);
          }
          noTemporary(path, what);
        });
      });
    }
  }
});
