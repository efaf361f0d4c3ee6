/**
 * The esbuild options and plugins of bundle.ts's builds: the options every
 * build shares, by target (common); Babel's lowering of a shell's script
 * (lowerForShell) and the shells' empty modules (shellStubs); the test
 * bundles' stand-ins and test/ sources' own import.meta.url (testPlugin);
 * the suite entry's list of files (fileListPlugin); and a Worker built as
 * wrangler builds one, its kernels as Wasm modules (workerBuild). What
 * each target gets in the end is bundle.ts's table.
 */
import { transformAsync } from '@babel/core';
import type * as esbuild from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './engines.js';
export const HARNESS = join(ROOT, 'scripts/engines/harness');
/** The browser page tests (pageFiles) and their workers. */
export const PAGES_DIR = 'test/pages';

export type Target = 'browser' | 'script' | 'shell' | 'worker';

/** Peers that need WebAssembly: shells, which have none, get an empty module instead (shellStubs). */
const WASM_ONLY = ['libsodium-wrappers', 'libsodium-wrappers-sumo', 'hash-wasm'];

/** esbuild options shared by every build: ES modules for current engines, or one classic script for shells. */
export function common(target: Target): esbuild.BuildOptions {
  return {
    bundle: true,
    format: target === 'shell' ? 'iife' : 'esm',
    // WPE WebKit 2.38 (Safari 16 level) is the oldest engine driven here; shells get Babel after this.
    target: 'es2022',
    platform: target === 'browser' ? 'browser' : target === 'script' ? 'node' : 'neutral',
    // As React Native's bundler (Metro) resolves packages. Hermes cannot parse import(): one of a
    // bundled file becomes its lazy initialisation, a computed one a promise that rejects when called.
    ...(target === 'shell'
      ? {
          mainFields: ['react-native', 'browser', 'module', 'main'],
          conditions: ['react-native', 'browser', 'import', 'default'],
          supported: { 'dynamic-import': false },
        }
      : {}),
    absWorkingDir: ROOT,
    logLevel: 'warning',
    // Shells: parallel/web-workers.ts's worker URL (new URL('./worker.js', import.meta.url)) is never used, as Hermes has no Worker.
    ...(target === 'shell' ? { logOverride: { 'empty-import-meta': 'silent' } } : {}),
    legalComments: 'none',
    sourcemap: false,
  };
}

/**
 * Lowers a shell bundle as React Native's Babel preset would for Hermes:
 * classes, async functions, generators, destructuring... (@babel/preset-env
 * for IE 11; typeof-symbol stays native, as Hermes has Symbol, and so does
 * `**`, which the preset leaves to Hermes since React Native 0.70: as
 * Math.pow it throws on BigInts, which @noble/curves' X25519 computes with
 * at load).
 */
export async function lowerForShell(code: string): Promise<string> {
  const out = await transformAsync(code, {
    babelrc: false,
    configFile: false,
    compact: true,
    sourceType: 'script',
    presets: [['@babel/preset-env', { targets: { ie: '11' }, modules: false, exclude: ['transform-typeof-symbol', 'transform-exponentiation-operator'] }]],
  });
  return out!.code!;
}

/** Shells: Node built-ins and WebAssembly-only peers become empty modules (any use of them fails). */
export const shellStubs: esbuild.Plugin = {
  name: 'fourfold-engines-shell-stubs',
  setup(build) {
    const filter = new RegExp(`^(node:.*|${WASM_ONLY.join('|')})$`);
    build.onResolve({ filter }, (a) => ({ path: a.path, namespace: 'shell-stub' }));
    build.onLoad({ filter: /.*/, namespace: 'shell-stub' }, (a) => ({
      contents: `// ${a.path}: not in this shell (a Node built-in, or WebAssembly only).\nmodule.exports = {};`,
      loader: 'js',
    }));
  },
};

export function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

/** The plugin that substitutes the stand-ins of bundle.ts's table and keeps `import.meta.url` of test/ sources. */
export function testPlugin(target: Target): esbuild.Plugin {
  const substitutes: Record<string, string> = { 'node:test': join(HARNESS, 'node-test.ts') };
  if (target !== 'script') {
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
        if (a.path.startsWith('engines:')) return a.path === 'engines:embedded-files' ? { path: a.path, namespace: 'engines' } : undefined;
        // Shells: shellStubs' empty module. Browsers: any other builtin stays an import that fails when (and if) it runs.
        return target === 'shell' ? undefined : { path: a.path, external: true };
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

/** `engines:test-files`, the suite entry's list: each file and how to load it (JavaScript source). */
export function fileListPlugin(source: string): esbuild.Plugin {
  return {
    name: 'fourfold-engines-file-list',
    setup(build) {
      build.onResolve({ filter: /^engines:test-files$/ }, (a) => ({ path: a.path, namespace: 'file-list' }));
      build.onLoad({ filter: /.*/, namespace: 'file-list' }, () => ({ contents: source, loader: 'js', resolveDir: ROOT }));
    },
  };
}

/** Where a workerd suite's Worker finds the kernels: the module names drivers/workerd.ts gives dist/kernels/<name>.wasm. */
export const WORKER_KERNELS = 'kernels';

/**
 * The edge entry points (dist/edge) import each kernel as
 * `../kernels/<name>.wasm?module`, which wrangler turns into a module of
 * the Worker's own: here an import of `./kernels/<name>.wasm`, a Wasm
 * module of the Worker's configuration, which workerd compiles.
 */
const wasmModules: esbuild.Plugin = {
  name: 'fourfold-engines-wasm-modules',
  setup(build) {
    build.onResolve({ filter: /\.wasm\?module$/ }, (a) => ({ path: `./${WORKER_KERNELS}/${basename(a.path, '.wasm?module')}.wasm`, external: true }));
  },
};

/**
 * workerd: `entry` built as wrangler builds a Worker, with its conditions
 * (so fourfold resolves to its edge entry points), its default export run
 * by the fetch handler of harness/worker-host.ts.
 */
export function workerBuild(entry: string, plugins: esbuild.Plugin[] = []): esbuild.BuildOptions {
  const host = join(HARNESS, 'worker-host.ts');
  return {
    ...common('browser'),
    conditions: ['workerd', 'worker', 'browser'],
    stdin: {
      contents: `import run from ${JSON.stringify(entry)};\nimport { workerOf } from ${JSON.stringify(host)};\nexport default workerOf(run);\n`,
      resolveDir: ROOT,
      sourcefile: 'worker.js',
      loader: 'js',
    },
    plugins: [...plugins, wasmModules],
  };
}
