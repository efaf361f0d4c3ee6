/**
 * What check.ts's parts share: the record of checks (one line printed per
 * check), running a command, the package as package.json describes it, and
 * the fresh project: fixture/'s files copied in, with the README's browser
 * recipes beside the apps, and the tarball installed.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../engines/engines.js';
import { codeBlocks } from './readme.js';

export const FIXTURE = fileURLToPath(new URL('./fixture/', import.meta.url));
/** BLAKE3's test vector: blake3('abc'). */
export const ABC = '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85';
/** The README's modules the built pages run (codeBlocks: blocks that name their file). */
const RECIPES = ['file-crypto.js', 'keys.mjs'];

// ------------------------------------------------------------------ reporting and running

interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}
/** Every check recorded so far, in order. */
export const checks: Check[] = [];

/** Prints one check: its name, and when it failed, what went wrong (at most 30 lines). */
export function record(name: string, ok: boolean, detail?: string): boolean {
  checks.push({ name, ok, detail });
  const lines = ok
    ? []
    : (detail
        ?.trim()
        .split('\n')
        .filter((l) => l.trim()) ?? []);
  const shown = lines.length > 30 ? [...lines.slice(0, 30), `... ${lines.length - 30} more lines`] : lines;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${shown.length ? `\n     ${shown.join('\n     ')}` : ''}`);
  return ok;
}

export function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    maxBuffer: 1 << 26,
    timeout: 600_000,
  });
}

export const output = (r: SpawnSyncReturns<string>): string => `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`;
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** What this module lends to the parts that take it as an argument (edge.ts, login.ts, nextjs.ts). */
export interface Checker {
  record(name: string, ok: boolean, detail?: string): boolean;
  sh(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): SpawnSyncReturns<string>;
  output(r: SpawnSyncReturns<string>): string;
}
export const checker: Checker = { record, sh, output };

// ------------------------------------------------------------------ the package

export interface PackageJson {
  version: string;
  exports: Record<string, string | { require?: { types: string; default: string }; types?: string; default: string }>;
  bin: Record<string, string>;
  types: string;
  typesVersions?: Record<string, Record<string, string[]>>;
}
export const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
/** The modules a program imports: the exports with types. */
const hasTypes = (target: PackageJson['exports'][string]): boolean => typeof target === 'object' && target.types !== undefined;
export const subpaths = Object.keys(pkg.exports).filter((k) => hasTypes(pkg.exports[k]!));
export const specifier = (subpath: string): string => (subpath === '.' ? 'fourfold' : `fourfold/${subpath.slice(2)}`);

// ------------------------------------------------------------------ the fresh project

/**
 * The fixture's files in `dir`: the TypeScript programs, the CommonJS
 * project, the Node smoke test, one copy of the app per bundler, with the
 * README's browser recipes beside it.
 */
export function copyFixture(dir: string): void {
  mkdirSync(join(dir, 'webpack-app/src'), { recursive: true });
  mkdirSync(join(dir, 'vite-app'), { recursive: true });
  mkdirSync(join(dir, 'cjs'), { recursive: true });
  const copies: [string, string][] = [
    ['package.json', 'package.json'],
    ['tsconfig.json', 'tsconfig.json'],
    ['types.ts', 'types.ts'],
    ['platform.ts', 'platform.ts'],
    ['input.js', 'input.js'],
    ['node-smoke.js', 'node-smoke.js'],
    ['cjs/package.json', 'cjs/package.json'],
    ['cjs/tsconfig.json', 'cjs/tsconfig.json'],
    ['cjs/main.ts', 'cjs/main.ts'],
    ['index.html', 'vite-app/index.html'],
    ['app.js', 'vite-app/main.js'],
    ['route.js', 'vite-app/route.js'],
    ['key-types.js', 'vite-app/key-types.js'],
    ['recipes.js', 'vite-app/recipes.js'],
    ['input.js', 'vite-app/input.js'],
    ['app.js', 'webpack-app/src/index.js'],
    ['route.js', 'webpack-app/src/route.js'],
    ['key-types.js', 'webpack-app/src/key-types.js'],
    ['recipes.js', 'webpack-app/src/recipes.js'],
    ['input.js', 'webpack-app/src/input.js'],
  ];
  for (const [from, to] of copies) copyFileSync(join(FIXTURE, from), join(dir, to));
  const modules = new Map(codeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')).flatMap((b) => (b.name ? [[b.name, b.code] as const] : [])));
  for (const name of RECIPES) {
    const code = modules.get(name);
    if (code === undefined) throw new Error(`the README has no module ${name}`);
    for (const app of ['vite-app', 'webpack-app/src']) writeFileSync(join(dir, app, name), code);
  }
}

/** Installs the tarball (and, in a new project, the fixture's pinned packages). */
export function install(dir: string, tarball: string, fresh: boolean): boolean {
  const r = sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', tarball], dir);
  const what = fresh
    ? 'the tarball and the fixture (typescript, vite, webpack, wrangler, edge-runtime) in a fresh project'
    : 'the new tarball into the kept project';
  return record(`npm install of ${what}`, r.status === 0, r.status === 0 ? r.stderr : output(r));
}
