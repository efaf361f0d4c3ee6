/**
 * check.ts's new user's project, made by `npm init -y` (a CommonJS project:
 * npm 11 writes "type": "commonjs"), with the README's code saved in it
 * as the README names it: Node runs every program, and Deno too with no
 * permission flags, as a user runs them; the recipes for Node
 * (keys.mjs, file-crypto.mjs) run in both, and a CommonJS file
 * require()s the package.
 */
import type { SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { xchacha20poly1305 as nobleXchacha } from '@noble/ciphers/chacha.js';
import { argon2id } from '@noble/hashes/argon2.js';
import { ENGINES, ROOT } from '../engines/engines.js';
import { FIXTURE, hex, output, record, sh } from './common.js';
import { codeBlocks } from './readme.js';

/** The README's modules for Node, which fixture/new-project/recipes.mjs drives in the new user's project. */
const NODE_RECIPES = ['file-crypto.mjs', 'keys.mjs'];

/** The README's programs (its JavaScript blocks that name no file), as a user saves them: the first as hello.mjs, as the README says. */
function programs(readme: string): { name: string; code: string }[] {
  return codeBlocks(readme)
    .filter((b) => b.lang === 'js' && b.name === undefined)
    .map((b, i) => ({ name: i === 0 ? 'hello.mjs' : `example-${i + 1}.mjs`, code: b.code }));
}

/**
 * A project as `npm init -y` makes it, with the tarball installed; npm 11
 * writes "type": "commonjs", which is set here where an older npm wrote
 * no type (Node would then guess each file's module system). False if it
 * could not be made.
 */
function newProject(dir: string, tarball: string): boolean {
  mkdirSync(dir, { recursive: true });
  const init = sh('npm', ['init', '-y'], dir);
  if (init.status !== 0) return record('npm init -y', false, output(init));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string };
  const written = manifest.type;
  if (written === undefined) writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, type: 'commonjs' }, null, 2));
  const r = sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', tarball], dir);
  return record(
    `a new user's project: npm init -y (${written === undefined ? 'it wrote no type: set to "commonjs"' : `it wrote "type": "${written}"`}), npm install of the tarball`,
    (written ?? 'commonjs') === 'commonjs' && r.status === 0,
    `${written === undefined || written === 'commonjs' ? '' : `npm init -y wrote "type": "${written}"\n`}${output(r)}`,
  );
}

/**
 * `deno run file args` in `dir` with no permission but `allow`: --no-prompt
 * (not a permission) makes a permission it would ask for fail instead of
 * waiting for an answer. Without FORCE_COLOR, which Deno reads as "colour"
 * whatever its value.
 */
const denoRun = (dir: string, file: string, args: string[] = [], allow: string[] = []): SpawnSyncReturns<string> =>
  sh(ENGINES.deno.binary, ['run', '--no-prompt', ...allow, file, ...args], dir, { FORCE_COLOR: undefined });

/**
 * The new user's project (newProject): the README's programs saved in it
 * (hello.mjs and example-N.mjs), its recipes for Node under their names
 * (keys.mjs, file-crypto.mjs) and fixture/new-project's driver of them and
 * CommonJS file. Node runs each; Deno runs each program and keys.mjs with
 * no permission flags, and file-crypto.mjs with the two the README names
 * for it, which its files need.
 */
export function checkNewProject(dir: string, tarball: string): void {
  if (!newProject(dir, tarball)) return;
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const modules = new Map(codeBlocks(readme).flatMap((b) => (b.name ? [[b.name, b.code] as const] : [])));
  const forNode = [...modules.keys()].filter((name) => name.endsWith('.mjs'));
  const named = `the README's modules for Node are those the new project runs (${NODE_RECIPES.join(', ')})`;
  if (!record(named, sameNames(forNode, NODE_RECIPES), forNode.join(', '))) return;
  for (const name of NODE_RECIPES) writeFileSync(join(dir, name), modules.get(name)!);
  for (const name of ['recipes.mjs', 'require.js']) copyFileSync(join(FIXTURE, 'new-project', name), join(dir, name));
  const saved = programs(readme);
  for (const { name, code } of saved) writeFileSync(join(dir, name), code);

  const node = (file: string, args: string[] = []): SpawnSyncReturns<string> => sh(process.execPath, [file, ...args], dir);
  const hasDeno = existsSync(ENGINES.deno.binary);
  if (!hasDeno) record(`Deno (${ENGINES.deno.binary}) is not installed: run npm run engines:install`, false);
  const engines: [string, (file: string) => SpawnSyncReturns<string>][] = [[`Node ${process.version}`, node]];
  if (hasDeno) engines.push(['Deno with no permission flags', (file) => denoRun(dir, file)]);
  for (const [engine, run] of engines) {
    const failed = saved.flatMap(({ name }) => {
      const r = run(name);
      const printed = name !== 'hello.mjs' || r.stdout === 'hello\ntrue\n';
      return r.status === 0 && printed ? [] : [`${name}: exit code ${r.status}\n${output(r)}`];
    });
    record(
      `${engine} runs the README's ${saved.length} programs as a user saves them (hello.mjs prints hello, then true)`,
      failed.length === 0,
      failed.join('\n'),
    );
  }

  checkRecipes(`Node ${process.version}`, node('recipes.mjs', ['keys', 'files', 'pool']), ['keys', 'files', 'pool']);
  if (hasDeno) {
    checkRecipes('Deno with no permission flags', denoRun(dir, 'recipes.mjs', ['keys', 'pool']), ['keys', 'pool']);
    checkRecipes('Deno with --allow-read --allow-write (as the README says)', denoRun(dir, 'recipes.mjs', ['files'], ['--allow-read', '--allow-write']), [
      'files',
    ]);
  }

  const required = node('require.js');
  const expected = hex(nobleXchacha(new Uint8Array(32).fill(7), new Uint8Array(24).fill(9)).encrypt(new TextEncoder().encode('abc')));
  const got = parsed<{ sealed?: string; refused?: boolean }>(required.stdout);
  record(
    `Node ${process.version} runs a CommonJS file of the new project: require('fourfold') and require('fourfold/chacha') give @noble's bytes`,
    required.status === 0 && got.sealed === expected && got.refused === true,
    `${output(required)}\nexpected sealed ${expected}`,
  );
}

/** What fixture/new-project/recipes.mjs reported for `parts`, against what the README says each recipe does. */
function checkRecipes(engine: string, r: SpawnSyncReturns<string>, parts: ('keys' | 'files' | 'pool')[]): void {
  const got = parsed<{
    keys?: { key: string; opened: boolean; refused: string };
    files?: { header: string; passphrase: boolean; key: boolean; refused: string };
    pool?: { ready: number; failure: string | null };
  }>(r.stdout);
  const key = hex(argon2id('correct horse battery staple', new Uint8Array(16).fill(1), { m: 65536, t: 3, p: 1 }));
  const claims = {
    keys: "the README's keys.mjs: a key from a password (@noble/hashes' Argon2id), a message sealed, opened, refused once changed",
    files: "the README's file-crypto.mjs: a file to an age file and back, under a passphrase and to a key, a changed one refused",
    pool: "fourfold/parallel's workers (file-crypto.mjs's files run on them) start and are ready for calls",
  };
  const ok = {
    keys: () => got.keys?.key === key && got.keys.opened && got.keys.refused === 'AuthenticationError',
    files: () => got.files?.header === 'age-encryption.org/v1\n' && got.files.passphrase && got.files.key && got.files.refused === 'AuthenticationError',
    pool: () => (got.pool?.ready ?? 0) >= 1 && got.pool?.failure === null,
  };
  for (const part of parts) {
    record(`${engine}: ${claims[part]}`, r.status === 0 && ok[part](), `${output(r)}${part === 'keys' ? `\nexpected key ${key}` : ''}`);
  }
}

/** `text` as JSON, or an empty object (what went wrong is then reported with the output). */
function parsed<T extends object>(text: string): Partial<T> {
  try {
    return JSON.parse(text) as T;
  } catch {
    return {};
  }
}

const sameNames = (a: string[], b: string[]): boolean => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
