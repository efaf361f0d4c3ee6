/**
 * Shared test helpers: byte utilities, a seeded random source, the tier
 * loop, the wiping check and the libsodium-wrappers loader (whose builds
 * the ChaCha, Poly1305, Salsa20 and secretstream peers use). Each family's
 * references live beside its tests (test/<family>/peers.ts or
 * reference.ts). Nothing here calls fourfold except `forEachTier`, which
 * only selects the tier.
 *
 * The same files run in Node, Deno, Bun, browsers and engines without
 * WebAssembly (npm run test:engines), so what only some engines have is
 * detected here, not assumed: WebAssembly (`ENGINE_HAS_WASM`, which
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
import type Sodium from 'libsodium-wrappers';
import { kernelMemories } from './internal.js';

export const TIERS = ['simd', 'js'] as const;
export type TierName = (typeof TIERS)[number];

/** (module (func (result v128) (i8x16.popcnt (i8x16.splat (i32.const 0))))) */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** Whether this engine has WebAssembly at all (Hermes and `node --jitless` have none). */
export const ENGINE_HAS_WASM: boolean = typeof WebAssembly === 'object';

/**
 * Whether this engine compiles WebAssembly from bytes, as the WebAssembly
 * peers (libsodium-wrappers, hash-wasm) do: not where it has none, nor where
 * the host refuses it (workerd: "Wasm code generation disallowed by
 * embedder"), where fourfold's kernels come as the host's modules instead.
 */
export const ENGINE_COMPILES_WASM: boolean = ENGINE_HAS_WASM && compilesFromBytes();

function compilesFromBytes(): boolean {
  try {
    return new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])) instanceof WebAssembly.Module;
  } catch {
    return false;
  }
}

/** Whether this engine runs WebAssembly SIMD, asked of the engine itself rather than of fourfold. */
export const ENGINE_HAS_SIMD: boolean = ENGINE_HAS_WASM && WebAssembly.validate(SIMD_PROBE);

/**
 * The `skip` option for tests and suites that need the simd tier: false where
 * the engine has WebAssembly SIMD, else the reason they do not apply. (The
 * engine runner fails an engine that should have SIMD and reports these skips.)
 */
export const NO_SIMD: false | string = ENGINE_HAS_SIMD ? false : 'not applicable: this engine has no WebAssembly SIMD';

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

/**
 * The sizes of the writes that cut `length` bytes for a stream: one byte
 * at a time within `window` bytes of the start, the end and each of
 * `offsets` (where the stream's state changes: a header's end, a chunk's
 * end), up to `piece` bytes at a time between them. One-byte writes away
 * from those places would each meet the state of the one before.
 */
export function writesNear(length: number, offsets: readonly number[], window = 1024, piece = 4096): number[] {
  const clamp = (n: number) => Math.min(length, Math.max(0, n));
  const spans = [0, length, ...offsets].map((o) => [clamp(o - window), clamp(o + window)] as const).sort((a, b) => a[0] - b[0]);
  const sizes: number[] = [];
  let at = 0;
  for (const [from, to] of spans) {
    for (; at < from; at += sizes[sizes.length - 1]!) sizes.push(Math.min(piece, from - at));
    for (; at < to; at++) sizes.push(1);
  }
  for (; at < length; at += sizes[sizes.length - 1]!) sizes.push(Math.min(piece, length - at));
  return sizes;
}

/**
 * Where an age file's reader changes state (age-encryption.org/v1): the
 * header's end, the payload nonce's end, and the ends of the first two
 * sealed chunks (64 KiB and a 16-byte tag) and of the last two (each
 * chunk's end between meets the state of the one before). In an armored
 * file, where those bytes are in its text (64 base64 columns a line
 * after the BEGIN line); none where it does not decode (then the start
 * and the end are all).
 */
export function ageOffsets(file: Uint8Array): number[] {
  const text = new TextDecoder('latin1').decode(file);
  const armored = text.startsWith('-----BEGIN AGE ENCRYPTED FILE-----');
  const binary = armored ? unarmored(text) : text;
  const mac = binary.indexOf('\n--- ');
  if (mac < 0) return [];
  const payload = binary.indexOf('\n', mac + 1) + 1;
  const ends: number[] = [];
  for (let end = payload + 16 + 65552; end < binary.length; end += 65552) ends.push(end);
  const offsets = [payload, payload + 16, ...ends.slice(0, 2), ...ends.slice(2).slice(-2)];
  // Byte b of the file is base64 character 4b/3 of the armor, on line 4b/3/64 after the 35-byte BEGIN line.
  return armored ? offsets.map((b) => 35 + Math.floor((b * 4) / 3 / 64) * 65 + (Math.floor((b * 4) / 3) % 64)) : offsets;
}

/** The bytes (as latin1 text) inside an armored age file's base64 lines; '' where they are not base64. */
function unarmored(text: string): string {
  const lines = text.split(/\r?\n/).slice(1);
  const end = lines.findIndex((l) => l.startsWith('-----END'));
  try {
    return atob(lines.slice(0, end < 0 ? lines.length : end).join(''));
  } catch {
    return '';
  }
}

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

// ---------------------------------------------------------------- libsodium

/**
 * The sumo build of libsodium-wrappers adds the raw stream ciphers and
 * crypto_onetimeauth (Poly1305). It has no type declarations, hence this
 * interface. Its JS wrappers take the initial block counter (`ic`) as a
 * non-negative int32 and pass 0 as the high word of libsodium's 64-bit ic,
 * so it cannot express counters at or past 2^31 (see `SUMO_MAX_COUNTER`).
 */
export interface SodiumSumo {
  ready: Promise<void>;
  crypto_stream_chacha20_ietf_xor_ic(message: Uint8Array, nonce12: Uint8Array, ic: number, key: Uint8Array): Uint8Array;
  crypto_stream_chacha20_xor_ic(message: Uint8Array, nonce8: Uint8Array, ic: number, key32: Uint8Array): Uint8Array;
  crypto_stream_xchacha20_xor_ic(message: Uint8Array, nonce24: Uint8Array, ic: number, key: Uint8Array): Uint8Array;
  crypto_onetimeauth(message: Uint8Array, key: Uint8Array): Uint8Array;
  crypto_onetimeauth_init(key: Uint8Array): unknown;
  crypto_onetimeauth_update(state: unknown, chunk: Uint8Array): void;
  crypto_onetimeauth_final(state: unknown): Uint8Array;
}
export const SUMO_MAX_COUNTER = 2 ** 31 - 1;
let sumoLib: SodiumSumo | undefined;

/**
 * The `skip` option for tests that compare with libsodium-wrappers: it is
 * WebAssembly only (importing it where there is none rejects a promise
 * nobody awaits), so it is loaded by `loadSodium()` where it can run.
 */
export const NO_SODIUM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: libsodium-wrappers (the reference) compiles WebAssembly from bytes, which this engine lacks or refuses';

/** libsodium-wrappers, once `loadSodium()` has resolved (a live binding; undefined before, and where NO_SODIUM). */
export let sodium: typeof Sodium = undefined as unknown as typeof Sodium;

let sodiumReady: Promise<void> | undefined;
/**
 * Loads libsodium-wrappers and its sumo build; call (and await) in a
 * `before` hook. Without WebAssembly it loads nothing: the tests that use
 * it declare `{ skip: NO_SODIUM }`, and any other use fails on `sodium`.
 */
export function loadSodium(): Promise<void> {
  if (NO_SODIUM) return Promise.resolve();
  return (sodiumReady ??= Promise.all([
    import('libsodium-wrappers').then(async (m) => {
      await m.default.ready;
      sodium = m.default;
    }),
    // `as string`: the package has no type declarations; the literal still lets bundlers find it.
    import('libsodium-wrappers-sumo' as string).then(async (m: { default?: SodiumSumo }) => {
      const lib = (m.default ?? m) as SodiumSumo;
      await lib.ready;
      sumoLib = lib;
    }),
  ]).then(() => undefined));
}

/** The loaded sumo build (after `loadSodium()`). */
export function sumo(): SodiumSumo {
  assert.ok(sumoLib, 'call loadSodium() first');
  return sumoLib;
}

/** Every chunk a readable stream gives, in order (WebKit's ReadableStream is not async-iterable). */
export async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = readable.getReader();
  const parts: Uint8Array[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}

/** A stream cipher's synchronous call: key, nonce, data, optional output and counter. */
export type StreamFn = (key: Uint8Array, nonce: Uint8Array, data: Uint8Array, output?: Uint8Array, counter?: number | bigint) => Uint8Array;

/** Calls `fn` with `counter` only when one is given (so the function's own default is tested too). */
export function callStream(
  fn: StreamFn,
  key: Uint8Array,
  nonce: Uint8Array,
  data: Uint8Array,
  output: Uint8Array | undefined,
  counter: number | bigint | undefined,
) {
  return counter === undefined ? fn(key, nonce, data, output) : fn(key, nonce, data, output, counter);
}

/** A random 64-bit counter (bigint) that leaves room for `len` bytes. */
export function randomCounter64(len: number): bigint {
  const r = Buffer.from(rand(8)).readBigUInt64LE(0);
  return r % (TWO64 - BigInt(Math.max(blocksOf(len), 1)) + 1n);
}

/**
 * Checks `fn` in every calling mode against `expected` (from a peer): new
 * output, in place, and with `all` also caller output, unaligned
 * key/nonce/input/output views with guard bytes (at `offsets`, chosen by
 * the length), unaligned in place, Buffer input.
 */
export function checkStreamModes(
  fn: StreamFn,
  label: string,
  key: Uint8Array,
  nonce: Uint8Array,
  data: Uint8Array,
  counter: number | bigint | undefined,
  expected: Uint8Array,
  all = true,
  offsets: readonly [number, number, number] = [1, 3, 7],
): void {
  const len = data.length;
  const input = data.slice();
  const r1 = callStream(fn, key, nonce, input, undefined, counter);
  assertBytes(r1, expected, `${label}: new output`);
  assert.notEqual(r1, input, `${label}: without an output the input must not be overwritten`);
  assertBytes(input, data, `${label}: input modified`);

  const buf = data.slice();
  const r3 = callStream(fn, key, nonce, buf, buf, counter);
  assert.equal(r3, buf, `${label}: in place must return the output`);
  assertBytes(buf, expected, `${label}: in place`);
  if (!all) return;

  const out = new Uint8Array(len).fill(0x5a);
  const r2 = callStream(fn, key, nonce, data, out, counter);
  assert.equal(r2, out, `${label}: caller output must be returned`);
  assertBytes(out, expected, `${label}: caller output`);

  const o = offsets[len % 3]!;
  const gi = guarded(data, o);
  const go = guarded(new Uint8Array(len), offsets[(len + 1) % 3]!);
  const gk = guarded(key, offsets[(len + 2) % 3]!);
  const gn = guarded(nonce, o);
  const r4 = callStream(fn, gk.view, gn.view, gi.view, go.view, counter);
  assert.equal(r4, go.view, `${label}: unaligned output must be returned`);
  assertBytes(go.view, expected, `${label}: unaligned input/output/key/nonce`);
  assertBytes(gi.view, data, `${label}: unaligned input modified`);
  assert.ok(gi.intact() && go.intact() && gk.intact() && gn.intact(), `${label}: wrote outside the views`);

  const gp = guarded(data, offsets[(len + 1) % 3]!);
  const r5 = callStream(fn, key, nonce, gp.view, gp.view, counter);
  assert.equal(r5, gp.view);
  assertBytes(gp.view, expected, `${label}: unaligned in place`);
  assert.ok(gp.intact(), `${label}: unaligned in place wrote outside the view`);

  const b = Buffer.from(data);
  assertBytes(callStream(fn, key, nonce, b, undefined, counter), expected, `${label}: Buffer input`);
}

// ---------------------------------------------------------------- a second thread

/** Why a test that needs a second thread on shared memory does not apply here, or false. */
export const NO_SECOND_THREAD: false | string =
  typeof SharedArrayBuffer !== 'function'
    ? 'not applicable: this engine (or page) has no SharedArrayBuffer'
    : typeof Worker !== 'function' && typeof (globalThis.process as { getBuiltinModule?: unknown } | undefined)?.getBuiltinModule !== 'function'
      ? 'not applicable: this engine has neither Web Workers nor node:worker_threads'
      : false;

/** A second thread that runs loops over shared memory (spinThread), one at a time. */
export interface SpinningThread {
  /**
   * Runs `body` (JavaScript source, a statement) over and over, with `d`
   * bound to `data` (SharedArrayBuffers and views of them, shared with
   * this thread), until pause(); resolves once the loop runs.
   */
  spin(body: string, data: Record<string, unknown>): Promise<void>;
  /** Stops the loop (the thread waits for the next spin). */
  pause(): Promise<void>;
  /** How many times the loop's body has run since the last spin. */
  turns(): number;
  /** Until the loop has run once more (a condition polled on timers, 30 s at most): the thread has a core between two calls. */
  turn(): Promise<void>;
  /** Ends the thread. */
  stop(): Promise<void>;
}

/** Until `condition` holds (polled on timers), or a rejection after `ms`. */
async function until(what: string, condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`spinThread: ${what} within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * Starts a thread that runs loops over shared memory: a module Web Worker
 * from a blob where the engine has them (browsers, Deno, Bun), else
 * node:worker_threads (Node). One thread serves a whole test: a thread
 * per case would start dozens, and browsers reclaim a worker's memory
 * late (Chromium then ran out of address space for WebAssembly memories).
 */
export async function spinThread(): Promise<SpinningThread> {
  // control[0]: 0 idle, 1 while a loop runs, 2 to stop it; control[1]: turns of the loop.
  const control = new Int32Array(new SharedArrayBuffer(8));
  const run = `(m) => { const c = m.c; const f = new Function('d', m.body); Atomics.store(c, 1, 0); Atomics.store(c, 0, 1);
    while (Atomics.load(c, 0) === 1) { f(m.d); Atomics.add(c, 1, 1); } Atomics.store(c, 0, 0); }`;
  let post: (message: { body: string; d: Record<string, unknown>; c: Int32Array }) => void;
  let end: () => Promise<void>;
  if (typeof Worker === 'function') {
    const url = URL.createObjectURL(new Blob([`const run = ${run}; onmessage = (e) => run(e.data);`], { type: 'text/javascript' }));
    // A module worker: Deno has no classic ones.
    const w = new Worker(url, { type: 'module' });
    post = (m) => w.postMessage(m);
    end = async () => {
      w.terminate();
      URL.revokeObjectURL(url);
    };
  } else {
    const { Worker: NodeWorker } = (globalThis.process as unknown as { getBuiltinModule(id: string): typeof import('node:worker_threads') }).getBuiltinModule(
      'node:worker_threads',
    );
    const w = new NodeWorker(`const run = ${run}; require('node:worker_threads').parentPort.on('message', run);`, { eval: true });
    post = (m) => w.postMessage(m);
    end = async () => {
      await w.terminate();
    };
  }
  return {
    async spin(body, data) {
      post({ body, d: data, c: control });
      await until('the loop did not start', () => Atomics.load(control, 0) === 1);
    },
    async pause() {
      Atomics.compareExchange(control, 0, 1, 2);
      await until('the loop did not stop', () => Atomics.load(control, 0) === 0);
    },
    turns: () => Atomics.load(control, 1),
    turn() {
      const seen = Atomics.load(control, 1);
      return until('the loop did not run again', () => Atomics.load(control, 1) !== seen);
    },
    async stop() {
      Atomics.store(control, 0, 2);
      await end();
    },
  };
}
