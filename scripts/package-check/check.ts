/**
 * npm run check:package: the package as a user gets it. Packs it (npm pack,
 * which builds it first), installs the tarball into a fresh project made
 * from fixture/ (typescript, vite, webpack, wrangler and edge-runtime at
 * pinned versions, from the npm registry), and checks:
 *
 * - the tarball: LICENSE, README, every export's files and types (the
 *   CommonJS declarations too), the bin; nothing but those, dist/ (less
 *   the tests' dist/testing.js), the user docs (docs/*.md) and the
 *   changelog; every
 *   relative link in its Markdown resolves inside it;
 * - Node: every subpath export imports, and require()s (engines claims
 *   Node >= 20.19, where require() of ES modules works), and fourfold/worker
 *   (the pool's worker, for bundlers to build) resolves; `fourfold
 *   --version` and `--help`; fourfold/parallel's blake3 from node_modules gives
 *   BLAKE3's bytes (against @noble/hashes);
 * - the shipped docs' code: every ```js and ```ts block of README.md and
 *   docs/*.md compiles under tsc --strict (snippets.ts), with @types/node;
 * - TypeScript 5.0 (the oldest supported), 5.9 and 7.0 (the newest):
 *   `tsc --strict` on fixture/types.ts, which imports every subpath, and
 *   fixture/platform.ts, the lines a user writes next (Blob, Response,
 *   crypto.subtle taking the results; outputs keeping their type), with
 *   lib ES2022 and DOM, under moduleResolution node16, nodenext, bundler
 *   and node10 (which TypeScript 7 no longer has), no skipLibCheck, no
 *   @types/node; and fixture/cjs/, a CommonJS project (module node16)
 *   importing every subpath, compiled by each and run by Node;
 * - a default `vite build` and a default webpack 5 production build of
 *   fixture/app.js succeed without warnings (node: modules, top-level
 *   await, critical dependencies...), and each built page, opened in
 *   headless Chromium, awaits ready() in its main chunk, then loads a route
 *   chunk whose two families run their first calls on the js tier and reach
 *   the simd tier without another ready(), hashes a few MiB with
 *   fourfold/parallel's blake3 to BLAKE3's bytes with its Web Workers doing work,
 *   loads each key type's lazily imported code through the bundler's chunks
 *   (a post-quantum file and back, tag and SSH stanzas), and
 *   runs the README's browser recipes in a chunk of their own
 *   (file-crypto.js and keys.mjs, taken from the README): a File to an age
 *   file and back, a changed one refused, a download offered, a file under
 *   a passphrase, a message under a key from a password;
 * - edge hosts (edge.ts): a Worker built by wrangler from the tarball and
 *   run in workerd, and the edge-light build in the edge-runtime package
 *   with WebAssembly code generation off: every family on the simd tier,
 *   Node's bytes; argon2idHash's time in workerd against Node's;
 * - a login server (login.ts): fourfold/parallel's PHC calls behind
 *   node:http in Node, Bun and Deno, a burst of logins answered right with
 *   the event loop free;
 * - a new user's project, made by `npm init -y` (a CommonJS project:
 *   npm 11 writes "type": "commonjs"), with the README's code saved in it
 *   as the README names it: Node runs every program, and Deno too with no
 *   permission flags, as a user runs them; the recipes for Node
 *   (keys.mjs, file-crypto.mjs) run in both, and a CommonJS file
 *   require()s the package;
 * - a Next.js 16 app (nextjs.ts): edge and Node route handlers calling every
 *   family, built by Turbopack and webpack, served by `next start`.
 *
 *   npm run check:package                          # all of it
 *   npm run check:package -- --keep                # keep the temporary project (its path is printed)
 *   npm run check:package -- --project=<that dir>  # again in it, with only the new tarball installed
 *   npm run check:package -- --only=new-project    # the tarball and the new user's project alone (no fixture, no Chromium)
 *   npm run check:package -- --only=nextjs         # the tarball and the Next.js app alone
 *
 * Prints one line per check and exits 1 if any failed (the project is then
 * kept, with each build's full output in its build.log). Needs the npm
 * registry (the fixture's packages), and Chromium and Deno (npm run
 * engines:install).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { argon2id } from '@noble/hashes/argon2.js';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { ENGINES, ROOT } from '../engines/engines.js';
import { openChromium } from '../engines/drivers/chromium.js';
import { servePage, type PageOutcome } from '../engines/serve.js';
import { input } from './fixture/input.js';
import { brokenLinks } from './links.js';
import { checkEdge } from './edge.js';
import { checkLogins, type LoginEngine } from './login.js';
import { checkNextjs } from './nextjs.js';
import { codeBlocks } from './readme.js';
import { inDocs, snippetsOf, writeSnippetProject } from './snippets.js';
import { xchacha20poly1305 as nobleXchacha } from '@noble/ciphers/chacha.js';

const FIXTURE = fileURLToPath(new URL('./fixture/', import.meta.url));
const RESOLUTIONS = [
  { moduleResolution: 'node16', module: 'node16' },
  { moduleResolution: 'nodenext', module: 'nodenext' },
  { moduleResolution: 'bundler', module: 'esnext' },
  { moduleResolution: 'node10', module: 'esnext' },
] as const;
/**
 * The TypeScripts the fixture installs (package.json: typescript and two
 * aliases): the oldest the README promises, the newest 5.x, the newest.
 * TypeScript 7 has no moduleResolution node10.
 */
const COMPILERS = [
  { version: '5.0', dir: 'typescript-5.0', node10: true },
  { version: '5.9', dir: 'typescript', node10: true },
  { version: '7.0', dir: 'typescript-7.0', node10: false },
] as const;
/** The README's modules the built pages run (codeBlocks: blocks that name their file). */
const RECIPES = ['file-crypto.js', 'keys.mjs'];
/** The README's modules for Node, which fixture/new-project/recipes.mjs drives in the new user's project. */
const NODE_RECIPES = ['file-crypto.mjs', 'keys.mjs'];
/** Build output that is a problem for users: Node built-ins pulled into a browser bundle, top-level await, dynamic requests. */
const WARNING = /warn|\(!\)|externaliz|top-level await|critical dependency|node:/i;
/**
 * webpack's performance hints (size advice, not a build problem) are reported, not failed; nor is
 * its closing count ("compiled with 1 warning"): each warning it counts has a WARNING line of its own.
 */
const SIZE_HINT =
  /asset size limit|entrypoint size limit|performance recommendations|webpack\.js\.org\/guides\/code-splitting|^\s*(assets?|main|entrypoint)\b.*KiB|compiled with \d+ warnings? in/i;

interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}
const checks: Check[] = [];

/** Prints one check: its name, and when it failed, what went wrong (at most 30 lines). */
function record(name: string, ok: boolean, detail?: string): boolean {
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

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    maxBuffer: 1 << 26,
    timeout: 600_000,
  });
}

const output = (r: SpawnSyncReturns<string>): string => `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

// ------------------------------------------------------------------ the tarball

interface PackageJson {
  version: string;
  exports: Record<string, string | { require?: { types: string; default: string }; types?: string; default: string }>;
  bin: Record<string, string>;
  types: string;
  typesVersions?: Record<string, Record<string, string[]>>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
/** The modules a program imports: the exports with types. */
const hasTypes = (target: PackageJson['exports'][string]): boolean => typeof target === 'object' && target.types !== undefined;
const subpaths = Object.keys(pkg.exports).filter((k) => hasTypes(pkg.exports[k]!));
/** The others, but package.json: entry points for a bundler to build (fourfold/worker, the pool's worker), not for import. */
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json' && !subpaths.includes(k));
const specifier = (subpath: string): string => (subpath === '.' ? 'fourfold' : `fourfold/${subpath.slice(2)}`);
/** A subpath pattern's files, as a regular expression over the package's paths ("dist/kernels/*.wasm"). */
const patternOf = (target: string): RegExp => new RegExp(`^${target.replace(/^\.\//, '').replace(/[.]/g, '\\.').replace('*', '[^/]+')}$`);
/** A subpath that `pattern` ("./kernels/*.wasm") maps to a file of the package installed in `installed`: its first file's ("./kernels/argon2.wasm"). */
function concrete(pattern: string, installed: string): string {
  const target = pkg.exports[pattern] as string;
  const star = target.indexOf('*');
  const dir = target.slice(0, target.lastIndexOf('/', star) + 1);
  const [before, after] = [target.slice(dir.length, star), target.slice(star + 1)];
  const file = readdirSync(join(installed, dir)).find((f) => f.startsWith(before) && f.endsWith(after));
  return file === undefined ? pattern : pattern.replace('*', file.slice(before.length, file.length - after.length));
}

function pack(into: string): string | undefined {
  const r = sh('npm', ['pack', '--json', '--pack-destination', into], ROOT);
  if (r.status !== 0) return void record('npm pack (builds the package first)', false, output(r));
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = new Set(info!.files.map((f) => f.path));
  const needed = ['LICENSE', 'README.md', 'package.json', pkg.types, ...Object.values(pkg.bin)];
  for (const target of Object.values(pkg.exports)) {
    if (typeof target === 'string') needed.push(target);
    else {
      // Every condition's file: default, types, require's, and the edge hosts' (workerd, edge-light).
      needed.push(...Object.values(target).flatMap((t) => (typeof t === 'string' ? [t] : [t.types, t.default])));
    }
  }
  for (const paths of Object.values(pkg.typesVersions?.['*'] ?? {})) needed.push(...paths);
  // A subpath pattern ("./kernels/*.wasm") needs a file it matches.
  const has = (p: string): boolean => (p.includes('*') ? [...files].some((f) => patternOf(p).test(f)) : files.has(p));
  const missing = [...new Set(needed.map((p) => p.replace(/^\.\//, '')))].filter((p) => !has(p));
  // dist/ but the test hooks (dist/testing.js, which only the tests import), the user docs and the changelog, and npm's own files.
  const shipped = (p: string): boolean =>
    (p.startsWith('dist/') && !/^dist\/(?:cjs\/)?testing\./.test(p)) ||
    /^docs\/[\w-]+\.md$/.test(p) ||
    ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json'].includes(p);
  const stray = [...files].filter((p) => !shipped(p));
  record(
    `npm pack: ${info!.filename}, ${files.size} files, with LICENSE, README, docs/, every export's code and types, the bin`,
    missing.length === 0 && stray.length === 0,
    [missing.length ? `missing: ${missing.join(', ')}` : '', stray.length ? `not expected in the package: ${stray.join(', ')}` : ''].join('\n'),
  );
  return join(into, info!.filename);
}

/** Every relative link in the tarball's Markdown (README, docs/) names a file in the tarball, and a fragment a heading of it. */
function checkLinks(tarball: string, dir: string): void {
  const unpacked = join(dir, 'unpacked');
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked);
  const r = sh('tar', ['-xzf', tarball, '-C', unpacked], dir);
  if (r.status !== 0) return void record('the tarball unpacks', false, output(r));
  const root = join(unpacked, 'package');
  const files = (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
  const markdown = files.filter((f) => f.endsWith('.md'));
  const broken = brokenLinks(files, (path) => readFileSync(join(root, path), 'utf8'));
  record(
    `the tarball's Markdown (${markdown.join(', ')}): every relative link resolves inside it`,
    broken.length === 0 && markdown.includes('README.md'),
    broken.join('\n'),
  );
}

// ------------------------------------------------------------------ the fresh project

/**
 * The fixture's files in `dir`: the TypeScript programs, the CommonJS
 * project, the Node smoke test, one copy of the app per bundler, with the
 * README's browser recipes beside it.
 */
function copyFixture(dir: string): void {
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
function install(dir: string, tarball: string, fresh: boolean): boolean {
  const r = sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', tarball], dir);
  const what = fresh
    ? 'the tarball and the fixture (typescript, vite, webpack, wrangler, edge-runtime) in a fresh project'
    : 'the new tarball into the kept project';
  return record(`npm install of ${what}`, r.status === 0, r.status === 0 ? r.stderr : output(r));
}

// ------------------------------------------------------------------ Node

function checkNode(dir: string): void {
  const node = process.execPath;
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  for (const subpath of subpaths) {
    const id = specifier(subpath);
    const esm = sh(
      node,
      [
        '--input-type=module',
        '-e',
        `const m = await import('${id}'); if (Object.keys(m).length === 0) throw new Error('no exports'); console.log(Object.keys(m).sort().join(','))`,
      ],
      dir,
    );
    const cjs = sh(node, ['-e', `const m = require('${id}'); console.log(Object.keys(m).sort().join(','))`], dir);
    const same = esm.status === 0 && cjs.status === 0 && esm.stdout === cjs.stdout;
    record(
      `Node ${process.version}: import('${id}') and require('${id}') give the same exports`,
      same,
      same ? '' : `import: ${output(esm)}\nrequire: ${output(cjs)}`,
    );
  }
  for (const pattern of entries) {
    const entry = pattern.includes('*') ? concrete(pattern, join(dir, 'node_modules/fourfold')) : pattern;
    const id = specifier(entry);
    const where = sh(node, ['-e', `console.log(require.resolve('${id}'))`], dir);
    const file = where.stdout.trim();
    const ok = where.status === 0 && file.startsWith(join(dir, 'node_modules/fourfold/')) && existsSync(file);
    record(`'${id}' resolves to a file of the package (an entry for bundlers: not imported here)`, ok, output(where));
  }
  const json = sh(node, ['-e', `console.log(require('fourfold/package.json').version)`], dir);
  record(`require('fourfold/package.json')`, json.stdout.trim() === pkg.version, output(json));
  if (major < 20 || (major === 20 && minor < 19))
    record(`Node ${process.version} is older than engines' 20.19: require() of the package is not checked here`, false);

  const bin = join(dir, 'node_modules/.bin/fourfold');
  const version = sh(bin, ['--version'], dir);
  const help = sh(bin, ['--help'], dir);
  record(
    'fourfold --version and --help (the installed bin)',
    version.status === 0 && version.stdout === `fourfold ${pkg.version}\n` && help.status === 0 && /^Usage: fourfold /.test(help.stdout),
    `${output(version)}\n${output(help)}`,
  );

  const smoke = sh(node, ['node-smoke.js'], dir);
  const expected = hex(nobleBlake3(input(6 << 20)));
  let got: { tier?: string; sequential?: string; parallel?: string } = {};
  try {
    got = JSON.parse(smoke.stdout) as typeof got;
  } catch {
    // reported below with the output
  }
  record(
    `Node: fourfold/parallel's blake3 (workers from node_modules) and blake3 of 6 MiB give @noble/hashes' bytes (tier ${got.tier ?? '?'})`,
    smoke.status === 0 && got.parallel === expected && got.sequential === expected,
    smoke.status === 0 ? `expected ${expected}\ngot ${JSON.stringify(got)}` : output(smoke),
  );
}

// ------------------------------------------------------------------ TypeScript

function checkTypes(dir: string): void {
  for (const program of ['types.ts', 'cjs/main.ts']) {
    const imported = new Set([...readFileSync(join(FIXTURE, program), 'utf8').matchAll(/from '(fourfold[^']*)'/g)].map((m) => m[1]));
    const uncovered = subpaths.map(specifier).filter((s) => !imported.has(s));
    record(`fixture/${program} imports every subpath export`, uncovered.length === 0, uncovered.length ? `not imported: ${uncovered.join(', ')}` : '');
  }
  for (const { version, dir: pkgDir, node10 } of COMPILERS) {
    const tsc = join(dir, 'node_modules', pkgDir, 'bin/tsc');
    const actual = sh(process.execPath, [tsc, '--version'], dir).stdout.trim();
    for (const { moduleResolution, module } of RESOLUTIONS) {
      if (moduleResolution === 'node10' && !node10) continue;
      const config = `tsconfig.${moduleResolution}.json`;
      writeFileSync(join(dir, config), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module, moduleResolution } }, null, 2));
      const r = sh(process.execPath, [tsc, '-p', config], dir);
      record(
        `TypeScript ${version} (${actual}): tsc --strict on types.ts and platform.ts, moduleResolution ${moduleResolution} (module ${module})`,
        r.status === 0 && actual.includes(version),
        output(r),
      );
    }
  }
}

/**
 * The docs the tarball ships (README.md, docs/*.md): every ```js and
 * ```ts block compiles under tsc --strict (TypeScript 5.9, snippets.ts)
 * against the installed package's declarations, as a user copies it.
 */
function checkSnippets(dir: string): void {
  const installed = join(dir, 'node_modules/fourfold');
  const docs = ['README.md', ...readdirSync(join(installed, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))];
  const snippets = docs.flatMap((doc) => snippetsOf(doc, readFileSync(join(installed, doc), 'utf8')));
  const project = join(dir, 'snippets');
  const tsc = join(dir, 'node_modules/typescript/bin/tsc');
  const runs = writeSnippetProject(project, snippets).map((config) => sh(process.execPath, [tsc, '-p', config], project));
  record(
    `TypeScript 5.9: the ${snippets.length} code blocks of the shipped docs (${docs.join(', ')}) compile under tsc --strict`,
    runs.length > 0 && runs.every((r) => r.status === 0),
    runs.map((r) => inDocs(output(r), snippets)).join('\n'),
  );
}

/** The CommonJS project: each TypeScript compiles it (module node16: require() calls), and Node runs what the 5.9 one emitted. */
function checkCommonJs(dir: string): void {
  const project = join(dir, 'cjs');
  for (const { version, dir: pkgDir } of COMPILERS) {
    rmSync(join(project, 'out'), { recursive: true, force: true });
    const r = sh(process.execPath, [join(dir, 'node_modules', pkgDir, 'bin/tsc'), '-p', 'tsconfig.json'], project);
    record(`TypeScript ${version}: a CommonJS project (module node16) compiles its imports of every subpath to require()`, r.status === 0, output(r));
    if (r.status !== 0) continue;
    const run = sh(process.execPath, ['out/main.js'], project);
    let got: { abc?: string; sealed?: string; checks?: boolean[] } = {};
    try {
      got = JSON.parse(run.stdout) as typeof got;
    } catch {
      // reported below with the output
    }
    const key = new Uint8Array(32).fill(7);
    const sealed = hex(nobleXchacha(key, new Uint8Array(24).fill(9)).encrypt(new TextEncoder().encode('abc')));
    const ok = run.status === 0 && got.abc === ABC && got.sealed === sealed && got.checks?.length === 10 && got.checks.every((c) => c);
    record(
      `  Node ${process.version} runs it: require() of the package gives @noble's bytes`,
      ok,
      ok ? '' : `${output(run)}\nexpected abc ${ABC}, sealed ${sealed}`,
    );
  }
}

// ------------------------------------------------------------------ bundlers, and the built pages in Chromium

interface PageReport {
  /** What ready() resolved to in the main chunk, before the route loaded. */
  ready: string;
  /** The route's families: the tier of their first calls, and when (ms after the route loaded) each first ran on simd. */
  lazy: { first: Record<string, string>; simdAfterMs: Record<string, number> };
  bytes: number;
  abc: string;
  sequential: string;
  /** The first call (which starts the workers) and the later ones (until a worker answered with a result). */
  parallel: string[];
  doneAfterFirst: number;
  /** The first stanza of a file to each lazily loaded key type (a post-quantum one decrypted back). */
  keyTypes: { hybrid: string; tag: string; ssh: string };
  /** The README's browser recipes, run in the page. */
  recipe: {
    bytes: number;
    encryptedBytes: number;
    header: string;
    roundTrip: boolean;
    refused: string;
    downloaded: string;
    password: boolean;
    wrongPassword: string;
    message: boolean;
  };
  crossOriginIsolated: boolean;
  workers: number;
  messages: number;
  done: number;
  errors: string[];
}

const ABC = '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85';

/** The lines of a build's output that say what went wrong: errors, warnings, and the line after each heading. */
function problems(text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((l, i) => (/^(ERROR|WARNING) in /.test(l) ? [l, lines[i + 1] ?? ''] : /error|warn|\(!\)|✗/i.test(l) && !/^\s+at /.test(l) ? [l] : []));
}

function build(name: string, command: string[], cwd: string): boolean {
  const r = sh(command[0]!, command.slice(1), cwd);
  const all = output(r);
  writeFileSync(join(cwd, 'build.log'), all);
  const warnings = all.split('\n').filter((l) => WARNING.test(l) && !SIZE_HINT.test(l));
  const ok = r.status === 0 && warnings.length === 0;
  const hints = SIZE_HINT.test(all) ? " (and webpack's size hints)" : '';
  return record(
    ok
      ? `${name}: builds with no warnings${hints}`
      : `${name}: ${r.status === 0 ? `builds, with ${warnings.length} warning lines` : `fails (exit code ${r.status})`}`,
    ok,
    ok ? '' : `${problems(all).join('\n')}\n(full output: ${join(cwd, 'build.log')})`,
  );
}

async function openBuilt(name: string, dir: string, page: string): Promise<void> {
  const log: string[] = [];
  const server = await servePage({ dir, entry: page });
  const url = new URL(page, server.url).href;
  let outcome: PageOutcome;
  let timer: NodeJS.Timeout | undefined;
  const session = await openChromium(ENGINES.chromium, url, (l) => log.push(l)).catch((e: Error) => e);
  try {
    if (session instanceof Error) throw session;
    const timeout = new Promise<PageOutcome>((resolve) => (timer = setTimeout(() => resolve({ ok: false, error: 'no result within 60 s' }), 60_000)));
    outcome = await Promise.race([server.result, session.died, timeout]);
  } catch (e) {
    outcome = { ok: false, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
    if (!(session instanceof Error)) await session.close();
    await server.close();
  }
  const where = `${name} page in Chromium`;
  if (!outcome.ok) return void record(`${where}: fourfold/parallel's blake3 ran`, false, `${outcome.error}\n${log.join('\n')}`);
  const r = outcome.value as PageReport;
  const expected = hex(nobleBlake3(input(r.bytes)));
  const families = ['blake3', 'xchacha20poly1305'];
  const lazy = families.map((f) => `${f} ${r.lazy.first[f]}, simd after ${r.lazy.simdAfterMs[f] ?? 'never'} ms`).join('; ');
  record(
    `${where}: a route chunk loaded after ready() reaches the simd tier without another ready() (${lazy})`,
    // First calls on the js tier: the families were not in the main chunk, so the first ready() had not compiled them.
    r.ready === 'simd' && families.every((f) => r.lazy.first[f] === 'js' && r.lazy.simdAfterMs[f] !== undefined),
    JSON.stringify(r.lazy),
  );
  record(`${where}: blake3('abc') is the BLAKE3 test vector`, r.abc === ABC, r.abc);
  const k = r.keyTypes;
  record(
    `${where}: each key type's code loads from its chunks on first use (${k.hybrid}; ${k.tag}; ${k.ssh})`,
    k.hybrid === 'mlkem768x25519: lazily loaded' && k.tag === 'p256tag' && k.ssh === 'ssh-ed25519',
    JSON.stringify(k),
  );
  record(
    `${where}: fourfold/parallel's blake3 (${r.parallel.length} calls) and blake3 of ${r.bytes / (1 << 20)} MiB give @noble/hashes' bytes`,
    r.parallel.every((p) => p === expected) && r.sequential === expected,
    `expected ${expected}\nparallel ${r.parallel.join(', ')}\nsequential ${r.sequential}`,
  );
  const c = r.recipe;
  // The payload: a 16-byte nonce, then the chunks, each with its tag; a header before it.
  const payload = 16 + c.bytes + 16 * Math.ceil(c.bytes / 65536);
  record(
    `${where}: the README's recipes: a File to an age file (${c.encryptedBytes} bytes) and back, a changed one refused (${c.refused}), a download offered, a file under a passphrase, a message under a key from a password`,
    c.header === 'age-encryption.org/v1\n' &&
      c.encryptedBytes > payload &&
      c.encryptedBytes < payload + 400 &&
      c.roundTrip &&
      c.refused === 'AuthenticationError' &&
      c.downloaded === 'data.bin.age' &&
      c.password &&
      c.wrongPassword === 'NoIdentityMatchError' &&
      c.message,
    JSON.stringify(c),
  );
  record(
    `${where}: Web Workers did the work (${r.workers} started, ${r.messages} messages back, ${r.done} job results, ${r.doneAfterFirst} after the first of ${r.parallel.length} calls${r.crossOriginIsolated ? '; cross-origin isolated' : ''})`,
    r.workers >= 1 && r.doneAfterFirst >= 1 && r.errors.length === 0,
    r.workers >= 1 && r.doneAfterFirst >= 1 && r.errors.length === 0 ? '' : `${r.errors.join('\n')}\n${log.join('\n')}`,
  );
}

async function checkBundlers(dir: string): Promise<void> {
  const bin = (name: string) => join(dir, 'node_modules/.bin', name);
  if (build('vite build (no configuration)', [bin('vite'), 'build'], join(dir, 'vite-app'))) {
    await openBuilt('vite', join(dir, 'vite-app/dist'), 'index.html');
  }
  if (build('webpack 5, production mode, defaults (no configuration)', [bin('webpack'), '--mode', 'production'], join(dir, 'webpack-app'))) {
    copyFileSync(join(FIXTURE, 'webpack.html'), join(dir, 'webpack-app/dist/index.html'));
    await openBuilt('webpack', join(dir, 'webpack-app/dist'), 'index.html');
  }
}

// ------------------------------------------------------------------ a new user's project

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
function checkNewProject(dir: string, tarball: string): void {
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

/** The engines that serve the login check: Node, and Bun and Deno where installed (else a failed check saying so). */
function loginEngines(): LoginEngine[] {
  const engines: LoginEngine[] = [[`Node ${process.version}`, process.execPath, []]];
  for (const id of ['bun', 'deno'] as const) {
    const { binary } = ENGINES[id];
    if (!existsSync(binary)) record(`${id} (${binary}) is not installed: run npm run engines:install`, false);
    else engines.push(id === 'bun' ? ['Bun', binary, []] : ['Deno with --allow-net=127.0.0.1', binary, ['run', '--no-prompt', '--allow-net=127.0.0.1']]);
  }
  return engines;
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { keep: { type: 'boolean' }, project: { type: 'string' }, only: { type: 'string' } } });
  if (values.only !== undefined && !['new-project', 'nextjs'].includes(values.only)) throw new Error(`--only=${values.only}: new-project or nextjs`);
  // --project=<dir>: a project a previous --keep run left, with its packages installed (quicker when iterating).
  const dir = values.project ?? mkdtempSync(join(tmpdir(), 'fourfold-package-check-'));
  console.log(`# package check in ${dir}`);
  const project = join(dir, 'project');
  const tarball = pack(dir);
  if (tarball === undefined) return 1;
  if (values.only === undefined) {
    checkLinks(tarball, dir);
    copyFixture(project);
    if (!install(project, tarball, values.project === undefined)) return 1;
    checkNode(project);
    checkTypes(project);
    checkSnippets(project);
    checkCommonJs(project);
    if (existsSync(ENGINES.chromium.binary)) await checkBundlers(project);
    else record(`Chromium (${ENGINES.chromium.binary}) is not installed: run npm run engines:install`, false);
    await checkEdge({ record, sh, output }, project, FIXTURE);
    checkLogins({ record, sh, output }, project, FIXTURE, loginEngines());
  }
  if (values.only !== 'nextjs') checkNewProject(join(dir, 'new-project'), tarball);
  if (values.only !== 'new-project') await checkNextjs({ record, sh, output }, join(dir, 'nextjs'), FIXTURE, tarball);

  const failed = checks.filter((c) => !c.ok);
  console.log(
    `\n# ${checks.length - failed.length}/${checks.length} package checks passed${failed.length ? `; failed: ${failed.map((c) => c.name).join('; ')}` : ''}`,
  );
  if (values.keep || failed.length)
    console.log(`# kept ${values.only === undefined ? project : join(dir, values.only)}; run again in it with --project=${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
