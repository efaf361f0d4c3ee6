/**
 * Loads every library the benchmarks compare and describes it for the
 * harness and the report. The peers are required; fourfold is optional, so
 * the suite still runs (peers only, with a warning) while it does not build.
 */
import { readFileSync } from 'node:fs';
import * as nodeCrypto from 'node:crypto';
import * as nobleChacha from '@noble/ciphers/chacha.js';
import * as noblePoly1305 from '@noble/ciphers/_poly1305.js';
import type sodiumStandard from 'libsodium-wrappers';
import type { Library } from './harness.js';

type FourfoldRoot = typeof import('fourfold');
type FourfoldChacha = typeof import('fourfold/chacha');
type FourfoldPoly1305 = typeof import('fourfold/poly1305');

/** Each fourfold family is absent when its module failed to load. */
export interface Fourfold {
  readonly chacha?: FourfoldChacha;
  readonly poly1305?: FourfoldPoly1305;
}

/** The loaded modules, for the op definitions under ops/. */
export interface Apis {
  /** Absent when fourfold is not built. */
  readonly fourfold?: Fourfold;
  readonly noble: { readonly chacha: typeof nobleChacha; readonly poly1305: typeof noblePoly1305 };
  /** Typed as the standard build; ops check for the functions only -sumo has. */
  readonly sodium: typeof sodiumStandard;
  readonly node: typeof nodeCrypto;
}

export interface Loaded {
  /** In column order: fourfold first, since the report compares it with the others. */
  readonly libraries: Library[];
  readonly apis: Apis;
  readonly warnings: string[];
}

const root = new URL('../', import.meta.url);

function packageVersion(path: string): string {
  return (JSON.parse(readFileSync(new URL(path, root), 'utf8')) as { version: string }).version;
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message.split('\n')[0]! : String(cause);
}

/**
 * Imports fourfold through its own package name, as a user would, so what
 * is measured is the built dist/ behind package.json "exports".
 */
async function loadFourfold(warnings: string[]): Promise<{ ready?: FourfoldRoot['ready']; api: Fourfold }> {
  const attempt = async <T>(specifier: string, load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (cause) {
      warnings.push(`fourfold: cannot import '${specifier}' (${describe(cause)}); its ops are skipped`);
      return undefined;
    }
  };
  const rootModule = await attempt('fourfold', () => import('fourfold'));
  if (rootModule === undefined) return { api: {} };
  const chacha = await attempt('fourfold/chacha', () => import('fourfold/chacha'));
  const poly1305 = await attempt('fourfold/poly1305', () => import('fourfold/poly1305'));
  return { ready: rootModule.ready, api: { chacha, poly1305 } };
}

/**
 * libsodium-wrappers comes in two builds of the same C code compiled to
 * WebAssembly: the standard one lacks crypto_stream_* and
 * crypto_onetimeauth, -sumo has everything. Use -sumo when installed, so
 * sodium has a column for every op, from one build.
 */
async function loadSodium(warnings: string[]): Promise<{ api: typeof sodiumStandard; version: string }> {
  for (const name of ['libsodium-wrappers-sumo', 'libsodium-wrappers']) {
    let api: typeof sodiumStandard;
    try {
      api = ((await import(name)) as { default: typeof sodiumStandard }).default;
    } catch {
      continue;
    }
    await api.ready;
    const missing = ['crypto_stream_chacha20_ietf_xor', 'crypto_stream_xchacha20_xor', 'crypto_onetimeauth'].filter(
      (fn) => typeof (api as unknown as Record<string, unknown>)[fn] !== 'function',
    );
    if (missing.length > 0) {
      warnings.push(`sodium: ${name} lacks ${missing.join(', ')} (only the -sumo build has them); those ops are not timed for sodium`);
    }
    const version = `${name} ${packageVersion(`node_modules/${name}/package.json`)} (libsodium ${api.SODIUM_VERSION_STRING})`;
    return { api, version };
  }
  throw new Error('cannot import libsodium-wrappers');
}

export async function loadLibraries(): Promise<Loaded> {
  const warnings: string[] = [];
  const libraries: Library[] = [];

  const fourfold = await loadFourfold(warnings);
  const ready = fourfold.ready;
  if (ready !== undefined) {
    const version = packageVersion('package.json');
    // ready() with no tier picks 'simd' where the engine supports it. If it
    // falls back, timing "fourfold" would silently measure the JS tier twice.
    const tier = await ready();
    if (tier === 'simd') {
      libraries.push({ name: 'fourfold', version: `${version} (simd)`, reference: false, activate: () => ready({ tier: 'simd' }) });
    } else {
      warnings.push(`fourfold: the simd tier is unavailable in this engine (ready() chose '${tier}'); only fourfold-js is timed`);
    }
    libraries.push({ name: 'fourfold-js', version: `${version} (js)`, reference: false, activate: () => ready({ tier: 'js' }) });
  }

  const sodium = await loadSodium(warnings);
  libraries.push(
    { name: 'noble', version: `@noble/ciphers ${packageVersion('node_modules/@noble/ciphers/package.json')}`, reference: true },
    { name: 'sodium', version: sodium.version, reference: true },
    { name: 'node', version: `node:crypto (OpenSSL ${process.versions.openssl})`, reference: true },
  );

  return {
    libraries,
    apis: {
      fourfold: ready === undefined ? undefined : fourfold.api,
      noble: { chacha: nobleChacha, poly1305: noblePoly1305 },
      sodium: sodium.api,
      node: nodeCrypto,
    },
    warnings,
  };
}
