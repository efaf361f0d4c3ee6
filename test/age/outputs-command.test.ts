/**
 * The class test of outputs, the command: `fourfold age -o` into every
 * kind of output (output-kinds.ts), encrypting and decrypting, from a
 * file and from standard input, each beside Go's age: the same bytes,
 * refusals, messages and exit codes.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AGE, CLI, IS_NODE, NODE, runIn } from '../cli/age-clients.js';
import { from, fs, read, to } from './file-fixture.js';
import { checkWritten, encryptPlain, inCase, noTemporary, readFifo } from './output-cases.js';
import { KINDS, NO_CHILDREN, NO_ROOT, NO_UNPRIVILEGED, UNPRIVILEGED } from './output-kinds.js';

before(encryptPlain);

describe("fourfold age -o: every kind of output, encrypting and decrypting, from a file and from standard input, as age's", {
  skip: !IS_NODE ? 'not applicable: the command is a Node program (npm test runs it)' : NO_CHILDREN,
}, () => {
  // age is what CI installs: where it is missing, the run fails saying so.
  const clients = [['age', AGE ?? 'age', []] as const];
  for (const encrypting of [true, false]) {
    for (const stdin of [false, true]) {
      for (const kind of KINDS) {
        const how = `${encrypting ? '-e' : '-d'}, ${stdin ? 'standard input' : 'a file'}`;
        const skip = (kind.root && NO_ROOT) || (kind.unprivileged && NO_UNPRIVILEGED) || false;
        it(`${how}, into ${kind.name}`, { skip }, async (t) => {
          // Where Go's age is not run on a kind, fourfold's command still is, and the reason is printed.
          if (kind.notAge) t.diagnostic(`age not run: ${kind.notAge}`);
          for (const [client, program, pre] of [['fourfold age', NODE, [CLI, 'age']] as const, ...(kind.notAge ? [] : clients)]) {
            await inCase(async (path) => {
              const output = kind.make(path);
              const input = encrypting ? path('plain') : path('file.age');
              const keys = encrypting ? ['-r', to.recipients[0]!] : ['-d', '-i', path('key')];
              fs!.writeFileSync(path('key'), `${from.identities[0]}\n`);
              const args = [...keys, '-o', output, ...(stdin ? [] : [input])];
              const fifo = kind.name.startsWith('a FIFO') ? readFifo(output, path('read')) : undefined;
              const privileged = kind.unprivileged ? UNPRIVILEGED : [];
              const command = [...privileged, program, ...pre];
              const r = runIn(path(''), command[0]!, [...command.slice(1), ...args], { input: stdin ? read(input) : undefined });
              const what = `${client} ${how}, into ${kind.name}`;
              const stderr = r.stderr.toString();
              if (kind.refused === 'always') {
                assert.equal(r.status, 1, `${what}: exit 1 (${stderr})`);
                const message = `${encrypting ? 'failed to write header: ' : ''}open ${output}: ${kind.error!.command}`;
                assert.equal(stderr.split('\n')[0], `${client}: error: ${message}`, what);
                kind.check(path, undefined);
              } else {
                assert.equal(r.status, 0, `${what}: ${stderr}`);
                if (fifo !== undefined) await checkWritten({ name: client, encrypting }, await fifo.done, `${what}: what its reader got`);
                else if (kind.refused === 'never') {
                  const target = kind.written?.(path) ?? output;
                  // age keeps an existing file's mode, setuid and all: only fourfold's is checked for it.
                  if (client === 'age' && kind.name.includes('6755')) await checkWritten({ name: client, encrypting }, read(target), what);
                  else kind.check(path, await checkWritten({ name: client, encrypting }, read(target), what));
                }
                if (kind.refused === 'library') kind.check(path, undefined);
              }
              noTemporary(path, what);
            });
          }
        });
      }
    }
  }
});
