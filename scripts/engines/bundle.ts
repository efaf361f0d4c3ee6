/**
 * esbuild builds for engines that cannot run the TypeScript sources
 * directly: browsers, and Deno and Bun (which get the same node:test
 * stand-in as browsers, so every non-Node engine reports results the same
 * way).
 *
 * - `bundleEntry`: one ES module, self-contained, for a target; generic
 *   (the benchmarks can use it for their own entry points).
 * - `bundleTestSuite`: every test file as its own self-contained bundle (its
 *   own copy of fourfold and the peers, as Node gives each file its own
 *   process), plus `suite.js`, the entry that runs them one after another,
 *   and the worker pool's worker beside the bundles and their chunks.
 *
 * What the test bundles get, by target:
 *
 * | import                  | 'script' (Deno, Bun)      | 'browser'                              |
 * |-------------------------|---------------------------|----------------------------------------|
 * | node:test               | harness/node-test.ts      | harness/node-test.ts                   |
 * | node:assert(/strict)    | the runtime's own         | harness/assert.ts                      |
 * | node:fs                 | the runtime's own         | harness/fs.ts (test/**.json embedded)  |
 * | Buffer (global)         | the runtime's own         | the npm `buffer` package, injected     |
 * | other node:* builtins   | the runtime's own         | left as imports: they fail if they run (test/helpers.ts imports node:crypto only in Node-compatible runtimes) |
 * | process.env.FOURFOLD_TEST_SEED | the environment    | replaced by the seed given to the build |
 *
 * In test/ sources, `import.meta.url` is replaced by the source file's own
 * URL, so paths computed from it (the JSON vectors) keep pointing at the
 * real files once the module is inside a bundle elsewhere; except in the
 * browser page tests (test/pages), which find their workers beside their
 * bundle.
 *
 * - `bundlePage`: one browser page test as an application's build would
 *   make it: code splitting on, so a dynamic import() is a chunk loaded
 *   when it runs, and its Web Workers (test/pages/<name>.worker.ts) as
 *   entries beside it.
 */
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './engines.js';
const HARNESS = join(ROOT, 'scripts/engines/harness');
/** The browser page tests (pageFiles) and their workers. */
const PAGES_DIR = 'test/pages';

export type Target = 'browser' | 'script';

/** esbuild options shared by every build: ES modules for current engines. */
function common(target: Target): esbuild.BuildOptions {
  return {
    bundle: true,
    format: 'esm',
    // WPE WebKit 2.38 (Safari 16 level) is the oldest engine driven here.
    target: 'es2022',
    platform: target === 'browser' ? 'browser' : 'node',
    absWorkingDir: ROOT,
    logLevel: 'warning',
    legalComments: 'none',
    sourcemap: false,
  };
}

/** Bundles one ES module (and everything it imports) into `outfile`. */
export async function bundleEntry(options: { entry: string; target: Target; outfile: string; define?: Record<string, string> }): Promise<string> {
  await esbuild.build({ ...common(options.target), entryPoints: [options.entry], outfile: options.outfile, define: options.define ?? {} });
  return options.outfile;
}

/**
 * The worker pool's worker (fourfold/parallel, blake3Parallel),
 * self-contained, at `outfile`. The pool starts `new URL('./worker.js',
 * import.meta.url)` (src/runtime/pool.ts), so a bundle with fourfold inside
 * needs this file beside it, named worker.js.
 */
export function bundleWorker(outfile: string, target: Target): Promise<string> {
  return bundleEntry({ entry: join(ROOT, 'dist/runtime/worker.js'), target, outfile });
}

/** The test files of `npm test`: test/*.test.ts and test/<dir>/*.test.ts. */
export function testFiles(): string[] {
  const out: string[] = [];
  const testDir = join(ROOT, 'test');
  for (const e of readdirSync(testDir, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.test.ts')) out.push(`test/${e.name}`);
    if (e.isDirectory()) {
      for (const f of readdirSync(join(testDir, e.name))) if (f.endsWith('.test.ts')) out.push(`test/${e.name}/${f}`);
    }
  }
  return out.sort();
}

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

/** The plugin that substitutes the stand-ins above and keeps `import.meta.url` of test/ sources. */
function testPlugin(target: Target): esbuild.Plugin {
  const browser = target === 'browser';
  const substitutes: Record<string, string> = { 'node:test': join(HARNESS, 'node-test.ts') };
  if (browser) {
    Object.assign(substitutes, {
      'node:assert': join(HARNESS, 'assert.ts'),
      'node:assert/strict': join(HARNESS, 'assert.ts'),
      'node:fs': join(HARNESS, 'fs.ts'),
    });
  }
  const testDir = join(ROOT, 'test') + '/';
  const pagesDir = join(ROOT, PAGES_DIR) + '/';
  return {
    name: 'fourfold-engines-tests',
    setup(build) {
      build.onResolve({ filter: /^node:|^engines:/ }, (a) => {
        if (substitutes[a.path]) return { path: substitutes[a.path] };
        if (a.path.startsWith('engines:')) return { path: a.path, namespace: 'engines' };
        // Browsers: any other builtin stays an import that fails when (and if) it runs.
        return { path: a.path, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'engines' }, (a) => {
        if (a.path === 'engines:embedded-files') {
          const embedded: Record<string, string> = {};
          for (const f of filesUnder(join(ROOT, 'test'), '.json')) embedded[relative(ROOT, f)] = readFileSync(f, 'utf8');
          const rootUrl = pathToFileURL(ROOT + '/').href;
          return { contents: `export const ROOT_URL = ${JSON.stringify(rootUrl)};\nexport const EMBEDDED = ${JSON.stringify(embedded)};`, loader: 'js' };
        }
        return { errors: [{ text: `unknown virtual module ${a.path}` }] };
      });
      build.onLoad({ filter: /\.ts$/ }, (a) => {
        if (!a.path.startsWith(testDir) || a.path.startsWith(pagesDir)) return undefined;
        const source = readFileSync(a.path, 'utf8');
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href)), loader: 'ts' };
      });
    },
  };
}

export interface SuiteBundle {
  /** The entry module: its default export runs every file and resolves to a `SuiteReport`. */
  entry: string;
  files: string[];
}

/**
 * Builds the whole test suite for `target` into `outdir` (emptied first):
 * `outdir/files/test/...js`, one bundle per test file, and `outdir/suite.js`.
 * `seed` becomes process.env.FOURFOLD_TEST_SEED in browser bundles.
 * `splitting` puts dynamically imported modules and code the entries share
 * in chunks of their own; `companions` are more entries, bundled beside
 * the test files but not run by the suite (workers).
 */
export async function bundleTestSuite(options: {
  target: Target;
  outdir: string;
  files: string[];
  seed?: string;
  splitting?: boolean;
  companions?: string[];
}): Promise<SuiteBundle> {
  const { target, outdir, files } = options;
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const browser = target === 'browser';
  const define: Record<string, string> = browser ? { 'process.env.FOURFOLD_TEST_SEED': options.seed ? JSON.stringify(options.seed) : 'undefined' } : {};

  await esbuild.build({
    ...common(target),
    entryPoints: [...files, ...(options.companions ?? [])].map((f) => join(ROOT, f)),
    splitting: options.splitting ?? false,
    outbase: ROOT,
    outdir: join(outdir, 'files'),
    plugins: [testPlugin(target)],
    define,
    inject: browser ? [join(HARNESS, 'buffer-global.ts')] : [],
    // The libsodium builds mention Node's `require('crypto')` on a path browsers never take.
    logOverride: { 'unsupported-require-call': 'silent' },
  });

  // Inside a bundle import.meta.url is the bundle's, or its chunk's (code splitting): each directory of one gets the worker.
  const worker = await bundleWorker(join(outdir, 'worker.js'), target);
  for (const dir of new Set(filesUnder(join(outdir, 'files'), '.js').map((f) => dirname(f)))) copyFileSync(worker, join(dir, 'worker.js'));

  const list = files.map((f) => ({ file: f, url: './' + join('files', f.replace(/\.ts$/, '.js')) }));
  const listModule = join(outdir, 'files.json');
  writeFileSync(listModule, JSON.stringify(list, null, 2));
  await esbuild.build({
    ...common(target),
    entryPoints: [join(HARNESS, 'suite-entry.ts')],
    outfile: join(outdir, 'suite.js'),
    plugins: [
      {
        name: 'fourfold-engines-file-list',
        setup(build) {
          build.onResolve({ filter: /^engines:test-files$/ }, () => ({ path: listModule }));
        },
      },
    ],
  });
  return { entry: join(outdir, 'suite.js'), files };
}

/** The browser page tests: test/pages/*.page.ts. */
export function pageFiles(): string[] {
  return readdirSync(join(ROOT, PAGES_DIR))
    .filter((f) => f.endsWith('.page.ts'))
    .map((f) => `${PAGES_DIR}/${f}`)
    .sort();
}

/** One page test (`file`, from pageFiles()) with code splitting and its workers, as a suite of one file in `outdir`. */
export function bundlePage(options: { file: string; outdir: string; seed?: string }): Promise<SuiteBundle> {
  const workers = readdirSync(join(ROOT, PAGES_DIR))
    .filter((f) => f.endsWith('.worker.ts'))
    .map((f) => `${PAGES_DIR}/${f}`);
  return bundleTestSuite({ target: 'browser', outdir: options.outdir, files: [options.file], seed: options.seed, splitting: true, companions: workers });
}
