/**
 * What the command's tests against the reference clients share: where
 * the command and the clients are (age, rage, age-keygen; their plugins
 * from the PATH), whether a terminal can be driven (script(1)), and how a
 * command is run in a test folder.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptionsWithBufferEncoding, type SpawnSyncReturns } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
const g = globalThis as { Deno?: unknown; Bun?: unknown };
export const NODE = g.Deno === undefined && g.Bun === undefined ? process.execPath : 'node';
const HOME = process.env.HOME ?? '/root';
const ON_CI = /^(?:true|1)$/i.test(process.env.CI ?? '');

/** A program from the PATH or the install directory of its toolchain. */
function find(name: string, installed: string): string | undefined {
  for (const c of [name, join(HOME, installed, name)]) if (spawnSync(c, ['--version']).status === 0) return c;
  return undefined;
}
export const AGE = find('age', 'go/bin');
export const RAGE = find('rage', '.cargo/bin');
export const AGE_KEYGEN = find('age-keygen', 'go/bin');
/** The PATH the commands run with: age's plugins (age-plugin-batchpass, -pq, -tagtest), which age, rage and fourfold age run from it. */
export const PLUGIN_PATH = [join(HOME, 'go/bin'), process.env.PATH].join(':');
export const CAN_PTY = spawnSync('script', ['--version']).status === 0;
/** Whether a program is in PLUGIN_PATH. */
export const onPath = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`], { env: { ...process.env, PATH: PLUGIN_PATH } }).status === 0;
export const skipUnless = (present: boolean, what: string): false | string => (present || ON_CI ? false : `${what} is not installed; on CI it fails`);
export const NO_CLIENTS = skipUnless(
  AGE !== undefined && RAGE !== undefined,
  'age (go install filippo.io/age/cmd/...@v1.3.2) or rage (cargo install rage --locked)',
);
/** Where a test needs only the Go age. */
export const NO_AGE = skipUnless(AGE !== undefined, 'age (go install filippo.io/age/cmd/...@v1.3.2)');
export const IS_NODE =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string' && g.Deno === undefined && g.Bun === undefined;

/** How a command runs: its standard input, environment over PLUGIN_PATH's, and `noTerminal`: in a session of its own, so it has no terminal to open even when the tests run at one. */
export interface RunOptions {
  input?: Uint8Array | string;
  env?: Record<string, string>;
  noTerminal?: boolean;
}

/** Runs a command in folder `dir`, standard input from a file (a command that stops early must not race a pipe). */
export function runIn(dir: string, command: string, args: string[], options: RunOptions = {}): SpawnSyncReturns<Buffer> {
  const stdin = join(dir, '.stdin');
  writeFileSync(stdin, options.input ?? '');
  const r = spawnSync('sh', ['-c', 'f=$1; shift; exec "$@" < "$f"', 'sh', stdin, command, ...args], {
    cwd: dir,
    env: { ...process.env, PATH: PLUGIN_PATH, ...options.env },
    maxBuffer: 1 << 28,
    // A command that waits for ever (a prompt nobody answers) fails its test, saying which, instead of the suite.
    timeout: 120_000,
    // setsid(2) before exec, as spawn's: spawnSync takes the option too, though @types/node leaves it out.
    ...({ detached: options.noTerminal === true } as SpawnSyncOptionsWithBufferEncoding),
  });
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  return r;
}

/** The standard output of a command that must succeed: its exit code, else `what` and its standard error. */
export function ok(r: SpawnSyncReturns<Buffer>, what: string): Buffer {
  assert.equal(r.status, 0, `${what}: exit ${r.status}: ${r.stderr.toString()}`);
  return r.stdout;
}
