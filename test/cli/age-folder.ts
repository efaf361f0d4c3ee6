/**
 * What the tests of `fourfold age` against age and rage share
 * (age-keys, age-files and age-command.test.ts): their describe(), which
 * makes a fresh folder before a file's tests and removes it after, the
 * commands run in that folder, a new identity file, and the three tools
 * with their ways of taking a passphrase.
 */
import { after, before, describe } from 'node:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGE, CLI, IS_NODE, NODE, ok, RAGE, type RunOptions, runIn } from './age-clients.js';

/** The folder of the running file's tests, made by againstAgeAndRage()'s before(). */
export let dir = '';
export const path = (name: string) => join(dir, name);
export const run = (command: string, args: string[], options?: RunOptions) => runIn(dir, command, args, options);
export const fourfold = (args: string[], options?: RunOptions) => run(NODE, [CLI, 'age', ...args], options);
export const keygen = (args: string[]) => run(NODE, [CLI, 'age-keygen', ...args]);

/** The suite of each file, by one name: its tests in a fresh folder, removed after them. Node only: they start processes. */
export function againstAgeAndRage(tests: () => void): void {
  describe('fourfold age against age and rage', { skip: !IS_NODE && 'not applicable: starts processes with Node' }, () => {
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'fourfold-age-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    tests();
  });
}

/** A new identity file `name` in the test folder: its path and its recipient. */
export function newKey(name: string): { key: string; recipient: string } {
  ok(keygen(['-o', path(name)]), 'keygen');
  return {
    key: path(name),
    recipient: ok(keygen(['-y', path(name)]), 'keygen -y')
      .toString()
      .trim(),
  };
}

/** The encryptors and decryptors: each an argument list builder for a mode. */
export type Tool = { name: string; command: () => string; args: (mode: string[]) => string[] };
export const tools = (): Tool[] => [
  { name: 'fourfold age', command: () => NODE, args: (mode) => [CLI, 'age', ...mode] },
  { name: 'age', command: () => AGE!, args: (mode) => mode },
  { name: 'rage', command: () => RAGE!, args: (mode) => mode },
];

/** rage asks for passphrases at the terminal (age-plugin-batchpass is for the others): typed through script(1), its own prompt rather than pinentry's. */
const typedAtRage = (args: string[], typed: string) =>
  run('script', ['-qec', [RAGE!, ...args].join(' '), '/dev/null'], { input: typed, env: { PINENTRY_PROGRAM: '/nonexistent' } });

/** `input` encrypted to `output` under `passphrase` by `tool`: the environment's passphrase (work factor 10), or typed at rage (its own). */
export function encryptWithPassphrase(tool: Tool, passphrase: string, input: string, output: string): void {
  if (tool.name === 'rage') ok(typedAtRage(['-p', '-o', output, input], `${passphrase}\n${passphrase}\n`), 'rage -p');
  else {
    const env = { AGE_PASSPHRASE: passphrase, AGE_PASSPHRASE_WORK_FACTOR: '10' };
    ok(run(tool.command(), tool.args(['-e', '-j', 'batchpass', '-o', output, input]), { env }), `${tool.name} encrypts`);
  }
}

/** `file` decrypted under `passphrase` by `tool`. */
export function decryptWithPassphrase(tool: Tool, passphrase: string, file: string): Buffer {
  if (tool.name !== 'rage')
    return ok(run(tool.command(), tool.args(['-d', '-j', 'batchpass', file]), { env: { AGE_PASSPHRASE: passphrase } }), `${tool.name} decrypts`);
  ok(typedAtRage(['-d', '-o', path('rage.out'), file], `${passphrase}\n`), 'rage -d');
  return readFileSync(path('rage.out'));
}
