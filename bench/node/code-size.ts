/**
 * Code size: what each import costs a page, as a bundler emits it. Pages
 * (size-budgets.ts): a one-line page per import, built by a default
 * `vite build` with the Vite the package check's fixture pins (installed
 * into node_modules/.cache on first use); its bytes are the files the page
 * loads, raw and gzip -9. Files emitted but never named, those a call
 * imports on demand, and the js-tier worker (started only where the kernels
 * cannot run) are listed apart, not counted. Kernels: each WebAssembly
 * module raw, gzip, and as embedded hexadecimal gzip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { PAGES, PEER_PAGES, type SizePage } from './size-budgets.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const gzipBytes = (data: Uint8Array | string): number => gzipSync(data, { level: 9 }).length;

export interface KernelSize {
  readonly kernel: string;
  readonly file: string;
  readonly wasmBytes: number;
  readonly wasmGzipBytes: number;
  /** The generated .js file carrying it as hexadecimal text, gzipped. */
  readonly jsGzipBytes: number;
}

export interface PageFile {
  /** The file's path in the build's output. */
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** Whether it embeds a WebAssembly module as hexadecimal text (a kernel: "\0asm" is 0061736d). */
  readonly hasKernel: boolean;
  /** Whether it carries the native tier's code (which names node:crypto and node:buffer): a browser build should not. */
  readonly hasNative: boolean;
}

export interface PageSize {
  readonly name: string;
  /** The files the page loads, and their totals. */
  readonly files: PageFile[];
  readonly bytes: number;
  readonly gzipBytes: number;
  /** Files the build emitted that the page never loads. */
  readonly unused: PageFile[];
  /** Files a call loads on demand (a dynamic import: a key type's code once such a key appears), not counted. */
  readonly onDemand: PageFile[];
  /** Files the page loads only where the engine cannot run the kernels (the pool's js-tier worker), instead of the simd worker. */
  readonly jsTierOnly: PageFile[];
  readonly budget?: number;
  readonly goal?: number;
  /** A fourfold/parallel page: the gzip bytes of the synchronous page it is compared with. */
  readonly syncGzipBytes?: number;
}

export interface CodeSizeResult {
  readonly kernels: KernelSize[];
  readonly pages: PageSize[];
  readonly peers: PageSize[];
}

function kernelSizes(): KernelSize[] {
  const dir = join(root, 'dist/generated');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const hex = /hex\s*=\s*['"`]([0-9a-f]+)['"`]/.exec(text)?.[1] ?? '';
      const wasm = Buffer.from(hex, 'hex');
      return {
        kernel: file.replace(/\.js$/, ''),
        file: `dist/generated/${file}`,
        wasmBytes: wasm.length,
        wasmGzipBytes: gzipBytes(wasm),
        jsGzipBytes: gzipBytes(text),
      };
    });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

/**
 * The pool's js-tier worker as Vite names it: the entry's name and an
 * 8-character hash (so the simd worker, `worker-<hash>.js`, never matches).
 */
const JS_TIER_WORKER = /(^|\/)worker-js-[\w-]{8}\.js$/;

/**
 * A loaded file's text split by how it names other files: `now` what loads
 * with it (imports, workers, assets), `later` what a call loads on demand
 * (import() and the dependencies Vite preloads with it, __vite__mapDeps).
 */
function references(text: string): { now: string; later: string } {
  const later: string[] = [];
  const now = text.replace(/import\(\s*["'`][^"'`]+["'`]\s*\)|__vite__mapDeps=\([\s\S]*?m\.f=\[[^\]]*\]/g, (match) => {
    later.push(match);
    return '';
  });
  return { now, later: later.join('\n') };
}

/**
 * The emitted files the page loads: those index.html names, then every one
 * named in a file already loaded; those named only by a dynamic import (and
 * what they load) are `onDemand` (a key type's code, when such a key appears).
 */
function loaded(out: string): { used: string[]; onDemand: string[]; unused: string[] } {
  const all = filesUnder(out).filter((f) => !f.endsWith('.html'));
  const named = (text: string) => all.filter((f) => text.includes(f.slice(f.lastIndexOf('/') + 1)));
  const used = new Set(named(readFileSync(join(out, 'index.html'), 'utf8')));
  const later = new Set<string>();
  for (const file of used) {
    const text = references(readFileSync(file, 'latin1'));
    for (const next of named(text.now)) used.add(next);
    for (const next of named(text.later)) later.add(next);
  }
  for (const file of later) {
    if (used.has(file)) later.delete(file);
    else for (const next of named(readFileSync(file, 'latin1'))) if (!used.has(next)) later.add(next);
  }
  return { used: [...used], onDemand: [...later], unused: all.filter((f) => !used.has(f) && !later.has(f)) };
}

/** The pinned Vite, installed once into node_modules/.cache (a directory per version), imported from there. */
async function loadVite(): Promise<Vite> {
  const fixture = JSON.parse(readFileSync(join(root, 'scripts/package-check/fixture/package.json'), 'utf8')) as { devDependencies: { vite: string } };
  const version = fixture.devDependencies.vite;
  const dir = join(root, 'node_modules/.cache', `fourfold-vite-${version}`);
  if (!existsSync(join(dir, 'vite.mjs'))) {
    // Installed beside and renamed into place: a run interrupted half-way, or two at once, leave no half-installed directory.
    mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
    const tmp = mkdtempSync(`${dir}-`);
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `vite@${version}`], { cwd: tmp, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm install vite@${version} failed: ${r.stderr || r.error?.message}`);
    writeFileSync(join(tmp, 'vite.mjs'), "export * from 'vite';\n");
    try {
      renameSync(tmp, dir);
    } catch {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return (await import(pathToFileURL(join(dir, 'vite.mjs')).href)) as Vite;
}

/** What this file uses of Vite's API (its types come with it, which is not installed with the project). */
interface Vite {
  build(config: { root: string; configFile: false; logLevel: 'silent' }): Promise<unknown>;
}

/** Builds `page` with Vite's defaults in `dir` (a project whose node_modules has fourfold and the peers) and sizes what it loads. */
async function buildPage(vite: Vite, dir: string, page: SizePage): Promise<PageSize> {
  const app = join(dir, 'app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app);
  writeFileSync(join(app, 'index.html'), '<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="/main.js"></script>\n');
  writeFileSync(join(app, 'main.js'), page.code);
  await vite.build({ root: app, configFile: false, logLevel: 'silent' });
  const out = join(app, 'dist');
  const size = (file: string): PageFile => {
    const bytes = readFileSync(file);
    const text = bytes.toString('latin1');
    return {
      file: relative(out, file),
      bytes: bytes.length,
      gzipBytes: gzipBytes(bytes),
      hasKernel: /['"`]0061736d01000000[0-9a-f]{64}/.test(text),
      hasNative: /node:crypto|node:buffer/.test(text),
    };
  };
  const { used, onDemand, unused } = loaded(out);
  const files = used.filter((f) => !JS_TIER_WORKER.test(f)).map(size);
  return {
    name: page.name,
    files,
    jsTierOnly: used.filter((f) => JS_TIER_WORKER.test(f)).map(size),
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    gzipBytes: files.reduce((s, f) => s + f.gzipBytes, 0),
    unused: unused.map(size),
    onDemand: onDemand.map(size),
    ...(page.budget === undefined ? {} : { budget: page.budget }),
    ...(page.goal === undefined ? {} : { goal: page.goal }),
  };
}

/** A temporary project whose node_modules holds `fourfold` (this checkout by default) and the `peers` installed here (one that is not: left out). */
export function project(name: string, peers: readonly string[], fourfold = root): string {
  const dir = mkdtempSync(join(tmpdir(), `fourfold-${name}-`));
  mkdirSync(join(dir, 'node_modules/@noble'), { recursive: true });
  symlinkSync(fourfold, join(dir, 'node_modules/fourfold'));
  for (const peer of peers) {
    try {
      symlinkSync(join(root, 'node_modules', peer), join(dir, 'node_modules', peer));
    } catch {
      // not installed: its page fails and has no row
    }
  }
  return dir;
}

/**
 * Builds and sizes fourfold's pages (or those `only` names) and, unless
 * `peers` is false, the peers'; `packageRoot`: another build to measure.
 */
export async function measureCodeSize(options: { only?: (page: SizePage) => boolean; peers?: boolean; packageRoot?: string } = {}): Promise<CodeSizeResult> {
  const vite = await loadVite();
  const dir = project('code-size', ['@noble/ciphers', '@noble/hashes', 'hash-wasm', 'libsodium-wrappers', 'libsodium'], options.packageRoot);
  try {
    const pages: PageSize[] = [];
    for (const page of PAGES.filter(options.only ?? (() => true))) pages.push(await buildPage(vite, dir, page));
    const withSync = pages.map((p) => {
      const sync = PAGES.find((q) => q.name === p.name)?.syncPage;
      const of = sync === undefined ? undefined : pages.find((q) => q.name === sync);
      return of === undefined ? p : { ...p, syncGzipBytes: of.gzipBytes };
    });
    const peers: PageSize[] = [];
    if (options.peers !== false) {
      for (const page of PEER_PAGES) {
        try {
          peers.push(await buildPage(vite, dir, page));
        } catch {
          // a peer that is not installed: no row
        }
      }
    }
    return { kernels: kernelSizes(), pages: withSync, peers };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
