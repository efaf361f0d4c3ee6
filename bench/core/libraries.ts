/**
 * Loads every library the benchmarks compare, in whatever engine runs the
 * core, and describes each for the harness and the report. Only
 * @noble/ciphers is required: fourfold is optional (the suite runs while it
 * does not build), libsodium and hash-wasm need WebAssembly, node:crypto is
 * not in browsers. '(output)' names a call style writing into a reused
 * caller buffer: without it, allocating 16 MiB would weigh more than the cipher.
 */
import type * as NobleAes from '@noble/ciphers/aes.js';
import type * as NobleChacha from '@noble/ciphers/chacha.js';
import type * as NoblePoly1305 from '@noble/ciphers/_poly1305.js';
import type * as NobleSalsa from '@noble/ciphers/salsa.js';
import type sodiumStandard from 'libsodium-wrappers';
import type * as NodeCrypto from 'node:crypto';
import { AGE_CLIS, type AgeCliLibrary, type FileSpace, loadAgeCli, loadFileSpace } from './age-cli.js';
import { describeError } from './errors.js';
import type { ParallelSettings } from './types.js';

type FourfoldRoot = typeof import('fourfold');
type FourfoldParallel = typeof import('fourfold/parallel');

/** fourfold by default where node:crypto has ChaCha20 (Node, Deno): ready() with no tier, past the crossovers OpenSSL. */
export const NATIVE = 'fourfold (native)';
/** node:crypto's ChaCha20-Poly1305 sealing into one array (ciphertext || tag, Buffer.concat), as fourfold's encrypt returns it. */
export const NODE_JOINED = 'node (joined)';
/** The least code keeping fourfold's contract on node:crypto's ChaCha20-Poly1305 (ops/chacha.ts contractAead): the native tier's floor. */
export const NODE_CONTRACT = 'node (contract)';
/** fourfold/parallel's functions on the default pool, awaited call by call. */
export const PARALLEL = 'fourfold (parallel)';
/** fourfold/parallel writing into one caller-supplied output, reused from call to call (its pages already written). */
export const PARALLEL_REUSED = 'fourfold (parallel, reused output)';
/** fourfold/parallel with its input and output on SharedArrayBuffers, which the workers read and write directly. */
export const PARALLEL_SHARED = 'fourfold (parallel, shared memory)';
/** The column of fourfold/parallel on a pool of `workers` workers (configure({ workers })). */
export const workerColumn = (workers: number): string => `fourfold (parallel, ${workers} worker${workers === 1 ? '' : 's'})`;
/** PARALLEL_SHARED on a pool of `workers` workers (the benchmark page's all-cores part). */
export const sharedWorkerColumn = (workers: number): string => `fourfold (parallel, shared memory, ${workers} worker${workers === 1 ? '' : 's'})`;

/** typage's API on fourfold (fourfold/age/typage): its chunks on the default pool, as it runs them. */
export const TYPAGE_API = 'fourfold (typage API)';
/** The same calls with the pool off (configure({ workers: 0 })): one core. */
export const TYPAGE_API_ONE_CORE = 'fourfold (typage API, 1 core)';

/** The pool size and memory of a worker-count column, from its name; undefined for any other column. */
export function parseWorkerColumn(name: string): { workers: number; shared: boolean } | undefined {
  const match = /^fourfold \(parallel(, shared memory)?, (\d+) workers?\)$/.exec(name);
  return match === null ? undefined : { workers: Number(match[2]), shared: match[1] !== undefined };
}

/**
 * fourfold/parallel runs inputs below this inline (docs/parallel.md): its
 * columns are timed from this message size on; a size of memory (scrypt's
 * lanes go to the pool at any N) at every size.
 */
export const PARALLEL_FROM = 2 << 20;

export interface Library {
  readonly name: string;
  readonly version: string;
  /** Whether its output is trusted as the expected answer when a case's outputs are cross-checked (the established peers). */
  readonly reference: boolean;
  /** Runs before a batch of its calls: fourfold's tiers share one module and one global switch, so each selects its own (the harness skips a repeat). */
  readonly activate?: () => unknown;
  /** The sizes this column is timed at (default: every size): a worker-count column's only at the chart's. */
  readonly takesSize?: (size: number) => boolean;
  /** The least message size it is timed at (fourfold/parallel's: PARALLEL_FROM); ops whose size is memory are timed at every size. */
  readonly pooledFrom?: number;
  /** A column timing the entries of another library (the ops list that one's), under its own activate. */
  readonly sameCallsAs?: string;
  /** A worker-count column's pool size (LibraryInfo.workers). */
  readonly workers?: number;
  /** A column of fourfold/parallel on SharedArrayBuffers (LibraryInfo.shared). */
  readonly shared?: boolean;
}

/** The peers only some ops use, each loaded on its own: one that does not load is a warning, and its columns are skipped. */
const PEERS = {
  nobleHashes: [
    'noble-hashes',
    '@noble/hashes',
    async () => ({
      blake3: (await import('@noble/hashes/blake3.js')).blake3,
      blake2b: (await import('@noble/hashes/blake2.js')).blake2b,
      sha256: (await import('@noble/hashes/sha2.js')).sha256,
      sha512: (await import('@noble/hashes/sha2.js')).sha512,
      hmac: (await import('@noble/hashes/hmac.js')).hmac,
      scrypt: (await import('@noble/hashes/scrypt.js')).scrypt,
      argon2id: (await import('@noble/hashes/argon2.js')).argon2id,
    }),
  ],
  // The curves fourfold/sodium runs on where node:crypto has none (ops/sodium.ts's dependency rows).
  nobleCurves: [
    'noble-curves',
    '@noble/curves',
    async () => {
      const { ed25519, x25519 } = await import('@noble/curves/ed25519.js');
      return { ed25519, x25519 };
    },
  ],
  // hash-wasm's synchronous hashers (its one-shot functions are async), scrypt and argon2id.
  hashWasm: [
    'hash-wasm',
    'hash-wasm',
    async () => {
      const module = await import('hash-wasm');
      return { blake3: await module.createBLAKE3(), blake2b: await module.createBLAKE2b(512), scrypt: module.scrypt, argon2id: module.argon2id };
    },
  ],
  // Pure-JavaScript Serpent and BLAKE2b.
  mipher: ['mipher', 'mipher', () => import('mipher')],
  blakejs: [
    'blakejs',
    'blakejs',
    async () => (await import('blakejs')) as unknown as { blake2b(message: Uint8Array, key?: Uint8Array, outlen?: number): Uint8Array },
  ],
  // typage (npm age-encryption), the age ops' reference.
  typage: ['typage', 'age-encryption', () => import('age-encryption')],
} as const;
type Peers = { readonly [K in keyof typeof PEERS]?: Awaited<ReturnType<(typeof PEERS)[K][2]>> };

/** The loaded modules, for the op definitions under ops/; a module absent where it cannot load here. */
export interface Apis extends Peers {
  /** Each subpath of SUBPATHS (libsodium.js's API on fourfold: ops/sodium.ts). */
  readonly fourfold?: { readonly [K in keyof typeof SUBPATHS]?: Awaited<ReturnType<(typeof SUBPATHS)[K]>> };
  readonly noble: {
    readonly chacha: typeof NobleChacha;
    readonly poly1305: typeof NoblePoly1305;
    readonly salsa: typeof NobleSalsa;
    readonly aes: typeof NobleAes;
  };
  /** Typed as the standard build; ops check for the functions only -sumo has. */
  readonly sodium?: typeof sodiumStandard;
  readonly node?: typeof NodeCrypto;
  /** The platform's WebCrypto (browsers only in a secure context: HTTPS or localhost). */
  readonly webcrypto?: SubtleCrypto;
  /** The age commands by column (Go's age, rage, fourfold's) where they run here (age-cli.ts). */
  readonly clis: Readonly<Record<string, AgeCliLibrary>>;
  /** The harness's files, where the engine has a file system (age-cli.ts). */
  readonly files?: FileSpace;
}

export interface Loaded {
  /** In column order: fourfold first, since the report compares it with the others. */
  readonly libraries: Library[];
  readonly apis: Apis;
  readonly warnings: string[];
  /** Milliseconds of fourfold's first ready() in this engine context (undefined when fourfold did not load). */
  readonly readyMs: number | undefined;
}

/** fourfold's subpaths the ops use, each imported by its specifier. */
const SUBPATHS = {
  chacha: () => import('fourfold/chacha'),
  poly1305: () => import('fourfold/poly1305'),
  blake3: () => import('fourfold/blake3'),
  blake2: () => import('fourfold/blake2'),
  serpent: () => import('fourfold/serpent'),
  secretstream: () => import('fourfold/secretstream'),
  salsa: () => import('fourfold/salsa'),
  scrypt: () => import('fourfold/scrypt'),
  argon2: () => import('fourfold/argon2'),
  age: () => import('fourfold/age'),
  'age/typage': () => import('fourfold/age/typage'),
  parallel: () => import('fourfold/parallel'),
  sodium: () => import('fourfold/sodium'),
};

/** Imports fourfold through its own package name, as a user would: the built dist/ behind "exports". */
async function loadFourfold(warnings: string[]): Promise<{ ready?: FourfoldRoot['ready']; api: NonNullable<Apis['fourfold']> }> {
  const attempt = async <T>(specifier: string, load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (cause) {
      warnings.push(`fourfold: cannot import '${specifier}' (${describeError(cause)}); its ops are skipped`);
      return undefined;
    }
  };
  const root = await attempt('fourfold', () => import('fourfold'));
  if (root === undefined) return { api: {} };
  // Each subpath on its own, in turn: one that fails to import leaves only its ops out.
  const api: Record<string, unknown> = {};
  for (const [name, load] of Object.entries(SUBPATHS)) api[name] = await attempt<unknown>(`fourfold/${name}`, load);
  return { ready: root.ready, api: api as NonNullable<Apis['fourfold']> };
}

/** -sumo when installed: the standard build lacks crypto_stream_* and crypto_onetimeauth. */
async function loadSodium(versions: Record<string, string>, warnings: string[]): Promise<{ api: typeof sodiumStandard; version: string } | undefined> {
  let failure = 'not installed';
  for (const [name, load] of [
    ['libsodium-wrappers-sumo', () => import('libsodium-wrappers-sumo')],
    ['libsodium-wrappers', () => import('libsodium-wrappers')],
  ] as const) {
    try {
      const api = ((await load()) as { default: typeof sodiumStandard }).default;
      await api.ready;
      const sumoOnly = ['crypto_stream_chacha20_ietf_xor', 'crypto_stream_xchacha20_xor', 'crypto_onetimeauth'];
      const missing = sumoOnly.filter((fn) => typeof (api as unknown as Record<string, unknown>)[fn] !== 'function');
      if (missing.length > 0) warnings.push(`sodium: ${name} lacks ${missing.join(', ')} (only the -sumo build has them); those ops are not timed for sodium`);
      return { api, version: `${name} ${versions[name] ?? '?'} (libsodium ${api.SODIUM_VERSION_STRING})` };
    } catch (cause) {
      failure = `${name}: ${describeError(cause)}`;
    }
  }
  warnings.push(`libsodium-wrappers: cannot load (${failure}); its columns are skipped, and the ops it alone checks (secretstream) are not timed`);
  return undefined;
}

/** node:crypto where the engine has a global process (a bundler leaves the import); browsers are not asked: Firefox logs each failed try. */
async function loadNodeCrypto(): Promise<typeof NodeCrypto | undefined> {
  if (typeof (globalThis as { process?: { versions?: unknown } }).process?.versions !== 'object') return undefined;
  try {
    const specifier = 'node:crypto';
    const module = (await import(/* @vite-ignore */ specifier)) as typeof NodeCrypto;
    return typeof module.createCipheriv === 'function' ? module : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this engine's node:crypto offers a cipher: Bun's (BoringSSL) has no ChaCha20 at all. */
export function nodeHasCipher(node: typeof NodeCrypto, name: string): boolean {
  try {
    return node.getCiphers().includes(name);
  } catch {
    return false;
  }
}

/** Where the engine says which TLS library backs node:crypto. */
function nodeCryptoVersion(): string {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process?.versions ?? {};
  const backend =
    versions.openssl !== undefined ? `OpenSSL ${versions.openssl}` : versions.boringssl !== undefined ? `BoringSSL ${versions.boringssl}` : undefined;
  return backend === undefined ? 'node:crypto' : `node:crypto (${backend})`;
}

/**
 * fourfold/parallel's columns: the default pool and one per worker count,
 * each sizing the global pool as it is activated; the activation waits for
 * the workers to start, so the first call the cap estimates by excludes it.
 */
function parallelColumns(parallel: FourfoldParallel, version: string, settings: ParallelSettings | undefined, typageApi: boolean): Library[] {
  const pooled = (workers: number | undefined) => async () => {
    parallel.configure({ workers });
    await parallel.ready({ tier: 'simd' });
    await parallel.warm();
  };
  const column = (name: string, pool: string, workers: number | undefined, more: Partial<Library> = {}): Library => ({
    name,
    version: `${version} (simd, ${pool})`,
    reference: false,
    activate: pooled(workers),
    ...more,
  });
  const from = { pooledFrom: PARALLEL_FROM };
  // Where the engine (or page) has SharedArrayBuffer.
  const shared = typeof SharedArrayBuffer === 'function';
  const columns = [
    column(PARALLEL, 'workers', undefined, from),
    column(PARALLEL_REUSED, 'workers', undefined, from),
    // typage's API on fourfold runs its chunks on this pool: its calls with the pool, and with none (one core).
    ...(typageApi ? [column(TYPAGE_API, 'workers', undefined), column(TYPAGE_API_ONE_CORE, 'no workers', 0, { sameCallsAs: TYPAGE_API })] : []),
    ...(shared ? [column(PARALLEL_SHARED, 'workers', undefined, { ...from, shared: true })] : []),
  ];
  // The worker counts: on plain arrays, and on SharedArrayBuffers where there are some.
  const styles = [[PARALLEL, workerColumn, {}] as const, ...(shared ? [[PARALLEL_SHARED, sharedWorkerColumn, { shared: true }] as const] : [])];
  for (const [calls, name, flag] of styles) {
    for (const workers of settings?.workerCounts ?? []) {
      const chart = { takesSize: (size: number) => size === settings!.chartSize, sameCallsAs: calls, workers };
      columns.push(column(name(workers), `${workers} workers`, workers, { ...chart, ...from, ...flag }));
    }
  }
  return columns;
}

export async function loadLibraries(versions: Record<string, string>, parallelSettings?: ParallelSettings): Promise<Loaded> {
  const warnings: string[] = [];
  const libraries: Library[] = [];

  const fourfold = await loadFourfold(warnings);
  const node = await loadNodeCrypto();
  const ready = fourfold.ready;
  let readyMs: number | undefined;
  if (ready !== undefined) {
    const version = versions.fourfold ?? '?';
    // ready() with no tier picks 'simd' where the engine supports it. If it
    // falls back, timing "fourfold" would silently measure the JS tier twice.
    // This is the first ready() in a fresh page or process: its time is the
    // cost of decoding, compiling and instantiating the kernels there.
    const readyStart = performance.now();
    const tier = await ready();
    readyMs = performance.now() - readyStart;
    if (tier === 'simd') {
      const simd = () => ready({ tier: 'simd' });
      libraries.push(
        { name: 'fourfold', version: `${version} (simd)`, reference: false, activate: simd },
        { name: 'fourfold (output)', version: `${version} (simd)`, reference: false, activate: simd },
      );
      const typageApi = fourfold.api['age/typage'] !== undefined;
      if (fourfold.api.parallel !== undefined) libraries.push(...parallelColumns(fourfold.api.parallel, version, parallelSettings, typageApi));
      // Where node:crypto has the AEAD, fourfold's default takes it past the crossovers.
      if (node !== undefined && nodeHasCipher(node, 'chacha20-poly1305'))
        libraries.push({ name: NATIVE, version: `${version} (native past the crossovers, else simd)`, reference: false, activate: () => ready() });
    } else {
      warnings.push(`fourfold: the simd tier is unavailable in this engine (ready() chose '${tier}'); only fourfold-js is timed`);
    }
    libraries.push({ name: 'fourfold-js', version: `${version} (js)`, reference: false, activate: () => ready({ tier: 'js' }) });
  }

  const nobleVersion = `@noble/ciphers ${versions['@noble/ciphers'] ?? '?'}`;
  const [nobleChacha, noblePoly1305, nobleSalsa, nobleAes] = await Promise.all([
    import('@noble/ciphers/chacha.js'),
    import('@noble/ciphers/_poly1305.js'),
    import('@noble/ciphers/salsa.js'),
    import('@noble/ciphers/aes.js'),
  ]);
  const sodium = await loadSodium(versions, warnings);
  libraries.push(
    { name: 'noble', version: nobleVersion, reference: true },
    // The same library; not a reference, since its output is the caller's reused buffer.
    { name: 'noble (output)', version: nobleVersion, reference: false },
  );
  if (sodium !== undefined) libraries.push({ name: 'sodium', version: sodium.version, reference: true });
  if (node !== undefined) {
    const version = nodeCryptoVersion();
    const column = (name: string) => ({ name, version, reference: false });
    libraries.push({ name: 'node', version, reference: true }, column(NODE_JOINED), column(NODE_CONTRACT));
  }
  const peers: Record<string, unknown> = {};
  for (const [key, [name, pkg, load]] of Object.entries(PEERS)) {
    const version = `${pkg} ${versions[pkg] ?? '?'}${name === 'typage' ? ' (typage)' : ''}`;
    try {
      peers[key] = await load();
      libraries.push({ name, version, reference: true });
    } catch (cause) {
      warnings.push(`${version}: ${describeError(cause)}; its columns are skipped`);
    }
  }
  const clis: Record<string, AgeCliLibrary> = {};
  for (const [name, client] of Object.entries(AGE_CLIS)) {
    const cli = await loadAgeCli(client);
    if (cli === undefined) continue;
    clis[name] = cli.api;
    libraries.push({ name, version: cli.version, reference: false });
  }
  const files = await loadFileSpace();
  // Checked against @noble (ops/webcrypto.ts), so not a reference itself.
  const webcrypto = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (webcrypto !== undefined) libraries.push({ name: 'webcrypto', version: 'WebCrypto (the platform)', reference: false });

  return {
    libraries,
    apis: {
      fourfold: ready === undefined ? undefined : fourfold.api,
      noble: { chacha: nobleChacha, poly1305: noblePoly1305, salsa: nobleSalsa, aes: nobleAes },
      sodium: sodium?.api,
      node,
      ...(peers as Peers),
      webcrypto,
      clis,
      files,
    },
    warnings,
    readyMs,
  };
}
