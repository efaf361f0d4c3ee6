/**
 * Shared test helpers: byte utilities, a seeded random source, the tier
 * loop, the wiping check and guarded views; and, re-exported from the
 * modules beside it, the engine's features (engine-features.ts), the
 * libsodium-wrappers loader (sodium-peer.ts, whose builds the ChaCha,
 * Poly1305, Salsa20 and secretstream peers use), the cuts of a stream's
 * writes (age-offsets.ts) and a second thread (second-thread.ts). A stream
 * cipher's calling modes are stream-modes.ts. Each family's references
 * live beside its tests (test/<family>/peers.ts or reference.ts). Nothing
 * here calls fourfold except `forEachTier`, which only selects the tier.
 *
 * The same files run in Node, Deno, Bun, browsers and engines without
 * WebAssembly (npm run test:engines), so what only some engines have is
 * detected, not assumed: WebAssembly (`ENGINE_HAS_WASM`, which
 * libsodium-wrappers needs) and WebAssembly SIMD (`ENGINE_HAS_SIMD`);
 * test/chacha/peers.ts probes node:crypto's ChaCha ciphers (`NODE_CHACHA`). Nothing here uses top-level await:
 * Hermes runs the files as Babel-transformed scripts.
 */
import { describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ready } from 'fourfold';
import { chacha20 as nobleChacha20 } from '@noble/ciphers/chacha.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { kernelMemories } from './internal.js';
import { NO_SIMD } from './engine-features.js';

export { ENGINE_COMPILES_WASM, ENGINE_HAS_FETCH_API, ENGINE_HAS_SIMD, ENGINE_HAS_WASM, NO_SIMD } from './engine-features.js';
export { ageOffsets, writesNear } from './age-offsets.js';
export { loadSodium, NO_SODIUM, type SodiumSumo, SUMO_MAX_COUNTER, sodium, sumo } from './sodium-peer.js';
export { NO_SECOND_THREAD, type SpinningThread, spinThread } from './second-thread.js';

export const TIERS = ['simd', 'js'] as const;
export type TierName = (typeof TIERS)[number];

/**
 * The `skip` option for what the ARM64 engines under qemu leave to the
 * x86-64 engines (scripts/engines/files.ts; the runner sets
 * FOURFOLD_TEST_EMULATED there): they run the simd tier's vectors, whose
 * kernels the engine compiles to ARM64 code, and not the js tier (the same
 * JavaScript everywhere), the sweeps, or the GiB-sized vectors, each
 * minutes under emulation.
 */
export const EMULATED: false | string = (globalThis.process as { env?: Record<string, string | undefined> } | undefined)?.env?.FOURFOLD_TEST_EMULATED
  ? 'not run under emulation (ARM64 under qemu): the x86-64 engines run it on the same code; the ARM64 engines run the simd tier on the vectors'
  : false;

/** Runs `body` inside one `describe` per tier, with that tier made active first (the simd tier alone under emulation). */
export function forEachTier(title: string, body: (tier: TierName) => void): void {
  for (const t of TIERS) {
    describe(`${title} (${t})`, { skip: t === 'simd' ? NO_SIMD : EMULATED }, () => {
      before(async () => {
        assert.equal(await ready({ tier: t }), t, `ready({ tier: '${t}' }) must resolve to '${t}'`);
      });
      body(t);
    });
  }
}

const nodeCrypto = (globalThis.process as { getBuiltinModule?(id: string): unknown } | undefined)?.getBuiltinModule?.('node:crypto') as
  | typeof import('node:crypto')
  | undefined;

function nodeHas(cipher: string, ivLength: number): boolean {
  try {
    nodeCrypto!.createCipheriv(cipher as 'chacha20-poly1305', new Uint8Array(32), new Uint8Array(ivLength), { authTagLength: 16 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether node:crypto has OpenSSL's ChaCha20 and ChaCha20-Poly1305 here
 * (Node, Deno; not Bun's BoringSSL, not browsers): then fourfold's default
 * tier sends calls past the crossovers to it (the native tier).
 */
export const NODE_CHACHA: boolean = nodeCrypto !== undefined && nodeHas('chacha20', 16) && nodeHas('chacha20-poly1305', 12);

/** The tiers a call can take: 'default' (ready() naming none) and each of fourfold's own. */
export const CALL_TIERS = ['default', ...TIERS] as const;
export type CallTier = (typeof CALL_TIERS)[number];

/**
 * Why the default tier needs no sweep of its own here, or false: it does
 * wherever it reaches code beyond fourfold's own tiers (today node:crypto's
 * ChaCha, NODE_CHACHA). A new tier adds its condition here, and every class
 * test (shared input, shared output, lost worker) covers it that day.
 */
export const DEFAULT_IS_OWN: false | string = NODE_CHACHA
  ? false
  : 'not applicable: the default tier here is the simd or js tier (no node:crypto ChaCha), swept as such';

/**
 * forEachTier for the class tests, over CALL_TIERS: the default tier
 * first, with ready() naming no tier (and put back after, so the files
 * that follow find the default), then each of fourfold's own.
 */
export function forEveryTier(title: string, body: (tier: CallTier) => void): void {
  describe(`${title} (default)`, { skip: DEFAULT_IS_OWN }, () => {
    before(async () => {
      await ready();
    });
    body('default');
  });
  forEachTier(title, body);
}

// ---------------------------------------------------------------- bytes

export function hex(s: string): Uint8Array {
  const clean = s.replace(/[\s:]/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new Error(`not hex: ${s.slice(0, 40)}`);
  return new Uint8Array(Buffer.from(clean, 'hex'));
}

export function toHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Equality for byte arrays of any size, reporting the first difference instead of dumping megabytes. */
export function assertBytes(actual: unknown, expected: Uint8Array, message = ''): void {
  assert.ok(actual instanceof Uint8Array, `${message}: expected a Uint8Array, got ${Object.prototype.toString.call(actual)}`);
  const a = actual as Uint8Array;
  if (a.length !== expected.length) {
    assert.fail(`${message}: length ${a.length}, expected ${expected.length}`);
  }
  const ab = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const eb = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (!ab.equals(eb)) {
    let i = 0;
    while (ab[i] === eb[i]) i++;
    const from = Math.max(0, i - 4);
    assert.fail(
      `${message}: bytes differ first at index ${i} of ${a.length}: got ${toHex(a.subarray(from, i + 12))}, ` +
        `expected ${toHex(expected.subarray(from, i + 12))} (from index ${from})`,
    );
  }
}

export function isAllZero(b: Uint8Array): boolean {
  // Compare in 8-byte words where possible: kernel memories are megabytes.
  const words = Math.floor(b.length / 8);
  if (b.byteOffset % 8 === 0 && words > 0) {
    const w = new BigUint64Array(b.buffer, b.byteOffset, words);
    for (let i = 0; i < w.length; i++) if (w[i] !== 0n) return false;
  } else {
    for (let i = 0; i < words * 8; i++) if (b[i] !== 0) return false;
  }
  for (let i = words * 8; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

export function firstNonZero(b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return i;
  return -1;
}

/**
 * The wiping rule: every instantiated kernel's whole linear memory is zero
 * again. `kernel` names one that must have been instantiated, so the check
 * cannot pass vacuously.
 */
export function assertKernelsWiped(label: string, kernel?: string): void {
  const mems = kernelMemories();
  assert.ok(mems.length >= 1, 'kernelMemories() is empty: no WebAssembly kernel was instantiated by the simd tier');
  if (kernel !== undefined)
    assert.ok(
      mems.some((m) => m.name === kernel),
      `the ${kernel} kernel is not instantiated`,
    );
  for (const m of mems) {
    assert.ok(m.bytes instanceof Uint8Array && m.bytes.length > 0 && m.bytes.length % 65536 === 0, `kernel ${m.name}: not a linear memory`);
    if (!isAllZero(m.bytes)) {
      const i = firstNonZero(m.bytes);
      assert.fail(`${label}: kernel '${m.name}' memory is not wiped: byte ${i} is 0x${m.bytes[i]!.toString(16)} (of ${m.bytes.length})`);
    }
  }
}

/** Runs `f` (which may throw `expected`) and then checks the wiping rule. */
export function wiped(label: string, f: () => unknown, expected?: new (...a: never[]) => Error, kernel?: string): void {
  if (expected) assert.throws(f, expected, label);
  else f();
  assertKernelsWiped(label, kernel);
}

// ---------------------------------------------------------------- randomness

/**
 * A seeded byte source (@noble/ciphers' ChaCha20 keystream under SHA-256 of
 * the seed, the same in every engine), so a failure can be replayed with
 * FOURFOLD_TEST_SEED=<hex>. Each test file gets its own stream; the seed is
 * printed once per file.
 */
const SEED = process.env.FOURFOLD_TEST_SEED ?? toHex(crypto.getRandomValues(new Uint8Array(16)));
console.log(`# test seed: FOURFOLD_TEST_SEED=${SEED}`);
const rngKey = sha256(new TextEncoder().encode(SEED));
let rngBlock = 0;

export function rand(n: number): Uint8Array {
  const out = nobleChacha20(rngKey, new Uint8Array(12), new Uint8Array(n), undefined, rngBlock);
  rngBlock += Math.ceil(n / 64);
  return out;
}

/** A uniformly random integer in [0, n), n <= 2^32. */
export function randInt(n: number): number {
  return Math.floor((Buffer.from(rand(4)).readUInt32LE(0) / 2 ** 32) * n);
}

/**
 * `data` copied into a fresh buffer at `offset`, surrounded by guard bytes,
 * so a primitive sees an unaligned view and out-of-bounds writes are
 * detectable with `intact()`.
 */
export function guarded(data: Uint8Array, offset: number): { view: Uint8Array; intact(): boolean } {
  const pad = 16;
  const buf = new Uint8Array(offset + data.length + pad).fill(0xa5);
  buf.set(data, offset);
  const view = buf.subarray(offset, offset + data.length);
  return {
    view,
    intact: () => {
      for (let i = 0; i < offset; i++) if (buf[i] !== 0xa5) return false;
      for (let i = offset + data.length; i < buf.length; i++) if (buf[i] !== 0xa5) return false;
      return true;
    },
  };
}

/** Whether this engine has ArrayBuffer.prototype.transfer (Node >= 22). */
export const HAS_TRANSFER = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';

/** The `skip` option for checks of detached buffers: Hermes can detach none (no structuredClone, no transfer). */
/** Why a test of encryptStream / decryptStream does not apply: the engine has no web streams (Hermes). */
export const NO_ABORT: false | string = typeof AbortController === 'function' ? false : 'not applicable: this engine has no AbortController';
export const NO_STREAMS: false | string = typeof TransformStream === 'function' ? false : 'not applicable: this engine has no TransformStream (web streams)';

/**
 * The `skip` option for the sweeps inside the files that the engines
 * without a JIT run (node --jitless, Hermes: scripts/engines/files.ts
 * gives them the vector, format, error and tier tests): every engine with
 * a JIT runs the same js-tier code through them in seconds, where an
 * interpreter takes minutes and shows nothing more.
 */
export const NO_JIT: false | string =
  (globalThis as { HermesInternal?: unknown }).HermesInternal !== undefined ||
  ((globalThis.process as { execArgv?: string[] } | undefined)?.execArgv?.includes('--jitless') ?? false)
    ? 'not run without a JIT: every engine with one runs this sweep on the same js-tier code (scripts/engines/files.ts)'
    : false;

export const NO_DETACH: false | string =
  typeof structuredClone === 'function' || HAS_TRANSFER
    ? false
    : 'not applicable: this engine cannot detach an ArrayBuffer (no structuredClone or ArrayBuffer.prototype.transfer)';

/**
 * Detaches `u8`'s ArrayBuffer (the view then has length 0), by transferring
 * it with structuredClone or, where the engine has it, ArrayBuffer.prototype.transfer.
 */
export function detach(u8: Uint8Array, via: 'structuredClone' | 'transfer' = 'structuredClone'): Uint8Array {
  if (via === 'transfer') (u8.buffer as unknown as { transfer(): ArrayBuffer }).transfer();
  else structuredClone(u8.buffer, { transfer: [u8.buffer as ArrayBuffer] });
  assert.equal(u8.byteLength, 0, 'the buffer should be detached');
  return u8;
}

// ---------------------------------------------------------------- realms

/**
 * The global object of another realm, whose Uint8Array (and every other
 * intrinsic) is not this realm's: a node:vm context in Node, Deno and Bun,
 * a same-origin iframe's window in a browser. Undefined where the engine
 * has neither (the reason is then OTHER_REALM_MISSING).
 */
export function otherRealm(): typeof globalThis | undefined {
  if (typeof document === 'object') {
    const frame = document.createElement('iframe');
    (document.body ?? document.documentElement).appendChild(frame);
    return (frame.contentWindow as unknown as typeof globalThis | null) ?? undefined;
  }
  // Synchronous (no top-level await in tests: Hermes' bundle is a script): Node, Deno and Bun have getBuiltinModule.
  const vm = (globalThis.process as { getBuiltinModule?: (id: string) => unknown } | undefined)?.getBuiltinModule?.('node:vm') as
    | typeof import('node:vm')
    | undefined;
  return vm === undefined ? undefined : (vm.runInNewContext('globalThis') as typeof globalThis);
}
export const OTHER_REALM_MISSING = 'not applicable: this engine offers no second realm (no node:vm, no document)';

// ---------------------------------------------------------------- vectors

export function loadJson<T>(relativeToTestDir: string): T {
  return JSON.parse(readFileSync(new URL(`./${relativeToTestDir}`, import.meta.url), 'utf8')) as T;
}

// ---------------------------------------------------------------- counters

export const TWO32 = 2 ** 32;
export const TWO64 = 1n << 64n;

/** The number of 64-byte blocks of `len` bytes (ChaCha and Salsa20 blocks). */
export const blocksOf = (len: number): number => Math.ceil(len / 64);

/** Every chunk a readable stream gives, in order (WebKit's ReadableStream is not async-iterable). */
export async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = readable.getReader();
  const parts: Uint8Array[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}
