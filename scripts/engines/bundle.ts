/**
 * esbuild builds for engines that cannot run the TypeScript sources
 * directly: browsers, Deno and Bun (which get the same node:test stand-in
 * as browsers, so every non-Node engine reports results the same way), and
 * JavaScript shells without modules (Hermes).
 *
 * - `bundleEntry`: one self-contained program for a target; generic (the
 *   benchmarks can use it for their own entry points).
 * - `bundleTestSuite`: every test file as its own self-contained bundle (its
 *   own copy of fourfold and the peers, as Node gives each file its own
 *   process), plus `suite.js`, the entry that runs them one after another,
 *   and the worker pool's worker beside the bundles and their chunks. For
 *   shells: one script holding every file (each initialised only when
 *   run), and per file a copy that runs only that file, each in a process
 *   of its own.
 *
 * What the test bundles get, by target:
 *
 * | import                  | 'script' (Deno, Bun)      | 'browser'                              | 'shell' (Hermes)                |
 * |-------------------------|---------------------------|----------------------------------------|---------------------------------|
 * | node:test               | harness/node-test.ts      | harness/node-test.ts                   | harness/node-test.ts            |
 * | node:assert(/strict)    | the runtime's own         | harness/assert.ts                      | harness/assert.ts               |
 * | node:fs                 | the runtime's own         | harness/fs.ts (test/**.json embedded)  | harness/fs.ts                   |
 * | Buffer (global)         | the runtime's own         | the npm `buffer` package, injected     | the same                        |
 * | other node:* builtins   | the runtime's own         | left as imports: they fail if they run (test/chacha/peers.ts takes node:crypto only in Node-compatible runtimes) | an empty module: any use fails |
 * | WebAssembly-only peers (libsodium-wrappers, hash-wasm) | themselves | themselves                 | an empty module (the tests skip them without WebAssembly) |
 * | process.env.FOURFOLD_TEST_SEED | the environment    | replaced by the seed given to the build | the same                       |
 *
 * workerd ('worker') gets the browsers' stand-ins, built as wrangler
 * builds a Worker (bundleWorkerSuite).
 *
 * Shells also get what React Native gives an app and Hermes lacks
 * (harness/shell-globals.ts): TextEncoder / TextDecoder, a URL for file
 * paths, and crypto.getRandomValues standing in for the
 * react-native-get-random-values polyfill. Their script is an IIFE that
 * Babel lowers as React Native's toolchain does (classes, async functions,
 * generators...; @babel/preset-env for IE 11, as /work/shared/engines.md
 * describes), since Hermes has neither modules nor those.
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
 *
 * The esbuild options and plugins that make them are bundle-options.ts's.
 */
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { common, fileListPlugin, filesUnder, HARNESS, lowerForShell, PAGES_DIR, shellStubs, testPlugin, workerBuild, type Target } from './bundle-options.js';
import { ROOT } from './engines.js';

export { type Target, WORKER_KERNELS } from './bundle-options.js';

/** Bundles one entry module (and everything it imports) into `outfile`: an ES module, for workerd a Worker that runs it, or for shells a script that does. */
export async function bundleEntry(options: { entry: string; target: Target; outfile: string; define?: Record<string, string> }): Promise<string> {
  if (options.target === 'worker') {
    await esbuild.build({ ...workerBuild(options.entry), outfile: options.outfile, define: options.define ?? {} });
    return options.outfile;
  }
  if (options.target !== 'shell') {
    await esbuild.build({ ...common(options.target), entryPoints: [options.entry], outfile: options.outfile, define: options.define ?? {} });
    return options.outfile;
  }
  const host = join(HARNESS, 'shell-host.ts');
  const r = await esbuild.build({
    ...common('shell'),
    stdin: {
      contents: `import run from ${JSON.stringify(options.entry)};\nimport { host } from ${JSON.stringify(host)};\nhost(run);\n`,
      resolveDir: ROOT,
      sourcefile: 'shell-entry.js',
      loader: 'js',
    },
    define: options.define ?? {},
    plugins: [shellStubs],
    write: false,
  });
  mkdirSync(dirname(options.outfile), { recursive: true });
  writeFileSync(options.outfile, await lowerForShell(r.outputFiles[0]!.text));
  return options.outfile;
}

/** The worker scripts of fourfold/parallel's pool, by the name the pool starts them under (src/parallel/workers.ts). */
export const WORKER_FILES = ['worker.js', 'worker-js.js'] as const;

/**
 * The worker pool's workers (fourfold/parallel), each self-contained, in
 * `dir`: the pool starts `new URL('./worker.js', import.meta.url)` (the
 * simd tier's) or `./worker-js.js` (the js tier's, where the kernels
 * cannot run), so a bundle with fourfold inside needs both beside it.
 * Resolves to their paths.
 */
export function bundleWorkers(dir: string, target: Target): Promise<string[]> {
  return Promise.all(WORKER_FILES.map((name) => bundleEntry({ entry: join(ROOT, 'dist/parallel', name), target, outfile: join(dir, name) })));
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

export interface SuiteBundle {
  /** The entry module: its default export runs every file and resolves to a `SuiteReport`. */
  entry: string;
  files: string[];
  /** Shells and workerd: one entry per test file, each running only that file (a process each, as Node does). */
  perFile?: { file: string; entry: string }[];
  /**
   * Browsers: entries that each run a part of the files, in a page of its
   * own. Each test file's bundle has its own copy of fourfold, whose
   * kernels' WebAssembly memories live as long as the page; V8 bounds the
   * address space all of a process's Wasm memories reserve (about a
   * hundred), and one page for every file reached that bound in Chromium.
   */
  parts?: { file: string; entry: string }[];
}

/** Test files per browser page (parts of SuiteBundle). */
const FILES_PER_PAGE = 20;

/**
 * Builds the whole test suite for `target` into `outdir` (emptied first):
 * `outdir/files/test/...js`, one bundle per test file, and `outdir/suite.js`
 * (shells: `outdir/suite.js` holding every file, and `outdir/files/<n>.js`
 * running file n only). `seed` becomes process.env.FOURFOLD_TEST_SEED in
 * browser and shell bundles. `splitting` puts dynamically imported modules and code the entries share
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
  mkdirSync(join(outdir, 'files'), { recursive: true });
  const define: Record<string, string> =
    target === 'script' ? {} : { 'process.env.FOURFOLD_TEST_SEED': options.seed ? JSON.stringify(options.seed) : 'undefined' };
  if (target === 'shell') return bundleShellSuite(outdir, files, define);
  if (target === 'worker') return bundleWorkerSuite(outdir, files, define);

  await esbuild.build({
    ...common(target),
    entryPoints: [...files, ...(options.companions ?? [])].map((f) => join(ROOT, f)),
    splitting: options.splitting ?? false,
    outbase: ROOT,
    outdir: join(outdir, 'files'),
    plugins: [testPlugin(target)],
    define,
    inject: target === 'browser' ? [join(HARNESS, 'buffer-global.ts')] : [],
    // The libsodium builds mention Node's `require('crypto')` on a path browsers never take.
    logOverride: { 'unsupported-require-call': 'silent' },
  });

  // Inside a bundle import.meta.url is the bundle's, or its chunk's (code splitting): each directory of one gets the worker.
  const workers = await bundleWorkers(outdir, target);
  for (const dir of new Set(filesUnder(join(outdir, 'files'), '.js').map((f) => dirname(f))))
    for (const worker of workers) copyFileSync(worker, join(dir, basename(worker)));

  // Each file's own bundle, imported by URL when its turn comes.
  const load = (f: string) =>
    `{ file: ${JSON.stringify(f)}, load: () => import(new URL(${JSON.stringify('./' + join('files', f.replace(/\.ts$/, '.js')))}, import.meta.url).href) }`;
  const suite = async (name: string, some: string[]): Promise<string> => {
    await esbuild.build({
      ...common(target),
      entryPoints: [join(HARNESS, 'suite-entry.ts')],
      outfile: join(outdir, name),
      plugins: [fileListPlugin(`export default [\n${some.map(load).join(',\n')}\n];`)],
    });
    return join(outdir, name);
  };
  const entry = await suite('suite.js', files);
  if (target !== 'browser' || files.length <= FILES_PER_PAGE) return { entry, files };
  const parts: { file: string; entry: string }[] = [];
  for (let i = 0; i < files.length; i += FILES_PER_PAGE) {
    const some = files.slice(i, i + FILES_PER_PAGE);
    parts.push({ file: `suite part ${parts.length + 1} (${some[0]} ...)`, entry: await suite(`suite-${parts.length + 1}.js`, some) });
  }
  return { entry, files, parts };
}

/**
 * Shells: one script with the suite entry and every test file, each file
 * initialised only when its turn comes (esbuild makes a literal dynamic
 * import lazy), lowered by Babel once. Then per file a copy that first sets
 * `__fourfoldTestFile`, so the suite entry runs that file alone.
 */
async function bundleShellSuite(outdir: string, files: string[], define: Record<string, string>): Promise<SuiteBundle> {
  const list = files.map((f) => `{ file: ${JSON.stringify(f)}, load: () => import(${JSON.stringify(join(ROOT, f))}) }`);
  const r = await esbuild.build({
    ...common('shell'),
    stdin: {
      contents: `import run from ${JSON.stringify(join(HARNESS, 'shell-suite-entry.ts'))};\nimport { host } from ${JSON.stringify(join(HARNESS, 'shell-host.ts'))};\nhost(run);\n`,
      resolveDir: ROOT,
      sourcefile: 'shell-suite.js',
      loader: 'js',
    },
    plugins: [testPlugin('shell'), fileListPlugin(`export default [\n${list.join(',\n')}\n];`), shellStubs],
    define,
    inject: [join(HARNESS, 'buffer-global.ts')],
    write: false,
  });
  const suite = await lowerForShell(r.outputFiles[0]!.text);
  writeFileSync(join(outdir, 'suite.js'), suite);
  const perFile = files.map((file, i) => {
    const entry = join(outdir, 'files', `${i}.js`);
    writeFileSync(entry, `var __fourfoldTestFile = ${JSON.stringify(file)};\n${suite}`);
    return { file, entry };
  });
  return { entry: join(outdir, 'suite.js'), files, perFile };
}
/**
 * workerd: per test file a Worker, `outdir/files/<n>.js`, running that
 * file with the browsers' stand-ins (node:fs answers from the embedded
 * vectors). One workerd process per file, as Node gives each file its own.
 */
async function bundleWorkerSuite(outdir: string, files: string[], define: Record<string, string>): Promise<SuiteBundle> {
  const perFile = await Promise.all(
    files.map(async (file, i) => {
      const entry = join(outdir, 'files', `${i}.js`);
      const list = `export default [{ file: ${JSON.stringify(file)}, load: () => import(${JSON.stringify(join(ROOT, file))}) }];`;
      await esbuild.build({
        ...workerBuild(join(HARNESS, 'suite-entry.ts'), [testPlugin('browser'), fileListPlugin(list)]),
        outfile: entry,
        define,
        inject: [join(HARNESS, 'buffer-global.ts')],
        logOverride: { 'unsupported-require-call': 'silent' },
      });
      return { file, entry };
    }),
  );
  return { entry: perFile[0]?.entry ?? '', files, perFile };
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
