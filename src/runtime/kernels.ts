/**
 * The runtime every primitive shares: the compiled WebAssembly kernels, and
 * the tier each call runs on. Each kernel module is named by the primitive
 * that uses it (defineKernel) and gets its bytes from that primitive's
 * tier selector (tierSelector), so a bundler drops what a program does not
 * import, and a pool worker, which calls the simd engines directly,
 * carries no kernel bytes at all: it receives the modules its jobs need
 * from the pool (kernelsFor, installKernels). Each is instantiated once,
 * with its own fixed linear memory that never grows.
 *
 * No call fails for want of a kernel. The first call of a family compiles
 * its kernel synchronously where that is allowed and cheap (Node, Deno,
 * Bun, any worker) and runs on the simd tier; on a browser page's main
 * thread it starts compiling it in the background and runs on the js tier
 * (the same bytes), as every call does until the kernel is ready. `ready()`
 * compiles every kernel registered so far and says which tier calls now
 * get; a kernel registered after it (a module loaded later) starts
 * compiling at once.
 *
 * The tier is chosen when a call starts and the choice only changes between
 * calls (a background compile completes in a task of its own), so no call
 * mixes tiers. Incremental objects keep working across a change: their
 * state between calls is either the same for both tiers (BLAKE3's tree,
 * secretstream's key and nonce) or tied to the tier it was created on
 * (Poly1305's; a kernel, once instantiated, stays).
 */

import * as check from './assert.js';
import { MAY_COMPILE_SYNCHRONOUSLY } from './host.js';
import { LinearMemory } from './memory.js';

/**
 * How calls run: 'simd', the WebAssembly SIMD kernels; 'js', plain
 * JavaScript (the same bytes, slower); 'native', node:crypto's OpenSSL
 * (Node, Deno), for the operations and sizes where it is faster than the
 * kernels.
 */
export type Tier = 'simd' | 'js' | 'native';
/** The tiers fourfold's own code runs on, which ready() can keep a process on. */
export type OwnTier = 'simd' | 'js';

/** An instantiated kernel: its exports and its memory. */
export interface Kernel<E extends KernelExports> {
  readonly k: E;
  readonly mem: LinearMemory;
}

/** Exports every kernel module has beside its functions. */
export interface KernelExports {
  readonly memory: WebAssembly.Memory;
}

interface KernelRecord {
  readonly name: string;
  /** The module's bytes as hexadecimal text (scripts/build-kernels.ts), once its tier selector gave them. */
  hex?: string;
  /** The compiled module, once compiled here or received from the pool (a worker). */
  module?: WebAssembly.Module;
  /** The module's bytes as a worker received them, to compile at first use. */
  bytes?: Uint8Array<ArrayBuffer>;
  /** Set once instantiated (and never replaced): what the simd tier uses on every call. */
  handle?: Kernel<KernelExports>;
  /** The asynchronous compile, once started. */
  compiling?: Promise<void>;
}

/** Every kernel named so far, by name. */
const byName = new Map<string, KernelRecord>();
/** The kernels whose bytes this thread has (ready() compiles these), in the order they came. */
const registry: KernelRecord[] = [];
const records = new WeakMap<() => Kernel<KernelExports>, KernelRecord>();

/**
 * What the last `ready()` call asked for: undefined before any, 'js' to
 * force the js tier, 'simd' for the best tier (kernels registered later
 * then compile at once).
 */
let requested: OwnTier | undefined;
/** Whether the last ready() named a tier: then calls stay on it, never native. */
let pinned = false;
/** Whether this engine may run the kernels: undefined until `simdUsable()` asks, false once anything failed. */
let usable: boolean | undefined;
/** What failed, once something did: ready({ tier: 'simd' }) says it. */
let unusableBecause: string | undefined;

/** The simd tier is not usable from now on, because of `error` (in the SIMD probe, or a kernel named `what`). */
function unusable(what: string, error: unknown): false {
  usable = false;
  unusableBecause ??= `${what}: ${error}`;
  return false;
}
/** What `tier()` reports. */
let last: Tier | undefined;

/** Whether calls may go to node:crypto (native.ts): not after ready() named a tier. */
export const nativeWelcome = (): boolean => !pinned;

/** In a worker, before each job: node:crypto only where the job's calling thread may use it (protocol.ts Job.native). */
export function followCaller(native: boolean): void {
  pinned = !native;
}

/** A call went to node:crypto: tier() says so. */
export function usedNative(): void {
  last = 'native';
}

/** (module (func (result v128) (i8x16.popcnt (i8x16.splat (i32.const 0))))): 31 bytes. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/**
 * Asked once per page or process: WebAssembly with SIMD (validating a
 * module compiles nothing), and permission to run it. A
 * Content-Security-Policy without 'wasm-unsafe-eval' forbids compiling
 * (Chromium, Firefox) or instantiating (WebKit) any module; trying this
 * tiny one costs at most one securitypolicyviolation report, where one
 * attempt per kernel would cost one each.
 */
function simdUsable(): boolean {
  if (usable === undefined) {
    try {
      usable = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
      if (usable) new WebAssembly.Instance(new WebAssembly.Module(SIMD_PROBE), {});
    } catch (e) {
      return unusable('the SIMD probe', e);
    }
  }
  return usable;
}

/** Uint8Array.fromHex where the engine has it (2025's engines: native, and quicker on a cold page than the loop below), captured at load. */
const fromHex = (Uint8Array as { fromHex?: (hex: string) => Uint8Array<ArrayBuffer> }).fromHex;

/** The bytes of hexadecimal text (lower case): a digit's value is its low 4 bits, plus 9 for 'a'..'f' (0x61..0x66). */
function decode(hex: string): Uint8Array<ArrayBuffer> {
  if (fromHex !== undefined) return fromHex.call(Uint8Array, hex);
  const out = new Uint8Array(hex.length >> 1);
  const nibble = (c: number) => (c & 15) + 9 * (c >> 6);
  for (let i = 0; i < out.length; i++) out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

function install(record: KernelRecord, instance: WebAssembly.Instance): void {
  // An instance is kept once installed: the variant pickers hold its exports.
  if (record.handle !== undefined) return;
  // Exports are read once: Instance.prototype.exports is an accessor, slow on every call.
  const k = instance.exports as unknown as KernelExports;
  record.handle = { k, mem: new LinearMemory(k.memory) };
}

/** Whether this thread has the module of `record` or its bytes. */
const hasCode = (record: KernelRecord): boolean => record.module !== undefined || record.bytes !== undefined || record.hex !== undefined;

/** Compiles (unless compiled or received) and instantiates `record` now; false (and the js tier from then on) if the engine refuses. */
function instantiateNow(record: KernelRecord): boolean {
  try {
    record.module ??= new WebAssembly.Module(record.bytes ?? decode(record.hex!));
    record.bytes = undefined;
    install(record, new WebAssembly.Instance(record.module, {}));
    return true;
  } catch (e) {
    return unusable(`the ${record.name} kernel`, e);
  }
}

/** Compiles and instantiates `record` (which has its hex) asynchronously, once; resolves when done (or failed: then the js tier). */
function compileInBackground(record: KernelRecord): Promise<void> {
  return (record.compiling ??= (async () => {
    try {
      const module = (record.module ??= await WebAssembly.compile(decode(record.hex!)));
      install(record, await WebAssembly.instantiate(module, {}));
    } catch (e) {
      unusable(`the ${record.name} kernel`, e);
    }
  })());
}

/** The tier a call on `record`'s primitives runs on. */
function tierOf(record: KernelRecord): OwnTier {
  // The hot path of every call: the kernel is instantiated and nothing forbids it.
  if (record.handle !== undefined && usable === true && requested !== 'js') return (last = 'simd');
  return (last = slowTier(record));
}

/** The tier when the fast path does not apply; gets the kernel ready where it can. */
function slowTier(record: KernelRecord): OwnTier {
  if (requested === 'js' || !simdUsable()) return 'js';
  if (record.handle !== undefined) return 'simd';
  // No bytes for it on this thread (nothing loaded its family's tierSelector): the js tier, the same bytes.
  if (!hasCode(record)) return 'js';
  if (MAY_COMPILE_SYNCHRONOUSLY || record.hex === undefined) return instantiateNow(record) ? 'simd' : 'js';
  void compileInBackground(record);
  return 'js';
}

/**
 * What a kernel's accessor throws when the kernel cannot run: a pool
 * worker of the simd tier that was sent no module, or whose engine refused
 * to compile or instantiate it (pool/serve.ts tells the pool, which then
 * gives that worker no more jobs).
 */
export class KernelUnavailable extends Error {}

/**
 * Names a kernel module and returns the accessor its simd tier calls on
 * every use (only once the kernel is instantiated: tierOf says 'simd'
 * then). The bytes come with the family's tier selector (tierSelector),
 * or from the pool (installKernels).
 */
export function defineKernel<E extends KernelExports>(name: string): () => Kernel<E> {
  const record: KernelRecord = { name };
  byName.set(name, record);
  const accessor = (): Kernel<E> => {
    if (record.handle === undefined && !((MAY_COMPILE_SYNCHRONOUSLY || record.hex === undefined) && hasCode(record) && instantiateNow(record))) {
      throw new KernelUnavailable(`fourfold: the ${name} kernel is not instantiated (its tier is 'js' until it is)`);
    }
    return record.handle as Kernel<E>;
  };
  records.set(accessor, record);
  return accessor;
}

/**
 * Resolves once `kernel` runs on this thread, or cannot: for an
 * asynchronous call that would rather wait for the kernel than run long
 * on the js tier (on a page's main thread a kernel compiles in the
 * background, and calls before that run on the js tier).
 */
export async function kernelCompiled(kernel: () => Kernel<KernelExports>): Promise<void> {
  const record = recordOf(kernel);
  if (record.handle !== undefined || requested === 'js' || !simdUsable() || record.hex === undefined) return;
  await compileInBackground(record);
}

/**
 * A new instance of `kernel`'s module, with a memory of its own: for a
 * kernel whose memory grows with a call (scrypt's), whose caller keeps
 * the instance while calls need it and then lets the engine collect it.
 * Only once the kernel runs here (its tier selector said 'simd').
 */
export function newInstance<E extends KernelExports>(kernel: () => Kernel<E>): E {
  kernel();
  return new WebAssembly.Instance(recordOf(kernel).module!, {}).exports as unknown as E;
}

/** Gives `record` its bytes (once): ready() compiles it from then on, and a pool worker can be sent it. */
function provide(record: KernelRecord, hex: string): void {
  if (record.hex !== undefined) return;
  record.hex = hex;
  registry.push(record);
  // A module loaded after ready() (code splitting): its kernel is wanted as soon as possible.
  if (requested === 'simd' && !MAY_COMPILE_SYNCHRONOUSLY && simdUsable()) void compileInBackground(record);
}

function recordOf(kernel: () => Kernel<KernelExports>): KernelRecord {
  const record = records.get(kernel);
  if (record === undefined) throw new Error('fourfold: not a kernel accessor from defineKernel');
  return record;
}

/**
 * The engine selector of a primitive family whose simd tier runs on
 * `kernel`, for calls on this thread: called once at the start of each
 * operation, it gives the engine of the tier the call runs on. `hex` is
 * the kernel's bytes (src/generated), given here and only here: a program
 * that never selects this family's engine on its own thread (a pool
 * worker, which calls one tier's engines directly) leaves this call and the
 * bytes out of its bundle, as the pure-call annotation at each call site
 * allows.
 */
export function tierSelector<E>(kernel: () => Kernel<KernelExports>, js: E, simd: E, hex: string): () => E {
  provide(recordOf(kernel), hex);
  return tierChoice(kernel, js, simd);
}

/**
 * The engine of the tier calls on `kernel`'s family run on now, on this
 * thread, for a function the family keeps beside its engine (an AEAD's
 * piece, say): `simd` once the kernel is instantiated (the family's
 * tierSelector brought its bytes and started that), `js` until then.
 */
export function tierChoice<E>(kernel: () => Kernel<KernelExports>, js: E, simd: E): () => E {
  const record = recordOf(kernel);
  return () => (tierOf(record) === 'simd' ? simd : js);
}

/**
 * What a pool worker of the simd tier is sent so that its jobs can run:
 * every kernel this thread has the bytes of and `sent` does not list yet
 * (which then lists it), as its compiled module where it has one, else as
 * bytes for the worker to compile; undefined when there is nothing new.
 * Whether this thread runs the kernels itself does not matter: the worker
 * compiles its own (and says so if its engine refuses). `asBytes`: bytes
 * only, for an engine that cannot post a WebAssembly.Module (a
 * DataCloneError).
 */
export function kernelsFor(sent: Set<string>, asBytes = false): Record<string, WebAssembly.Module | Uint8Array> | undefined {
  let out: Record<string, WebAssembly.Module | Uint8Array> | undefined;
  for (const record of registry) {
    if (sent.has(record.name)) continue;
    sent.add(record.name);
    (out ??= {})[record.name] = (!asBytes && record.module) || decode(record.hex!);
  }
  return out;
}

/** A pool worker's side of kernelsFor: the modules (or bytes) it was sent, instantiated at their first use. */
export function installKernels(kernels: Readonly<Record<string, WebAssembly.Module | Uint8Array>>): void {
  for (const [name, code] of Object.entries(kernels)) {
    const record = byName.get(name);
    if (record === undefined || hasCode(record)) continue;
    if (code instanceof Uint8Array) record.bytes = code as Uint8Array<ArrayBuffer>;
    else record.module = code;
  }
}

/**
 * The tier of the pool's next worker (fourfold/parallel): 'simd', a worker
 * that carries only the simd engines and compiles the kernels it is sent,
 * wherever the engine can run them and the last ready() did not force
 * 'js', whether or not this thread has compiled its kernel yet; else 'js',
 * a worker with the js engines. Work done on this thread goes through
 * tierSelector instead.
 */
export function workerTier(): OwnTier {
  return requested !== 'js' && simdUsable() ? 'simd' : 'js';
}

/** ready()'s options. Any other property is refused (TypeError). */
export interface ReadyOptions {
  /**
   * Keep calls on one tier. Without it, `'simd'` where the engine can run
   * the kernels, `'js'` otherwise, and node:crypto where it is faster.
   */
  tier?: OwnTier;
}

/** The `tier` option, read once: undefined, 'simd' or 'js'. */
function tierOption(options: unknown): OwnTier | undefined {
  const wanted = (check.options(options, 'options', ['tier']) as { tier?: unknown } | undefined)?.tier;
  if (wanted === undefined) return undefined;
  if (typeof wanted !== 'string') throw new TypeError(`options.tier must be 'simd' or 'js', got ${wanted === null ? 'null' : typeof wanted}`);
  if (wanted !== 'simd' && wanted !== 'js') throw new RangeError(`options.tier must be 'simd' or 'js', got '${wanted}'`);
  return wanted;
}

/** One ready() call's own work, from the moment it is called. */
async function settle(wanted: OwnTier | undefined): Promise<OwnTier> {
  if (wanted === 'js') return 'js';
  if (simdUsable()) await Promise.all(registry.map((record) => (record.handle === undefined ? compileInBackground(record) : undefined)));
  if (usable) return 'simd';
  // No WebAssembly SIMD, or a Content-Security-Policy that forbids running WebAssembly.
  if (wanted === 'simd')
    throw new Error(`fourfold: the simd tier is not available in this engine${unusableBecause === undefined ? '' : ` (${unusableBecause})`}`);
  return 'js';
}

/** The newest ready() call's work: its answer is every pending call's answer. */
let newest: Promise<OwnTier> | undefined;

/**
 * Compiles and instantiates every kernel registered so far, then resolves
 * to the tier calls now run on: 'simd' (WebAssembly SIMD), or 'js' where
 * the engine cannot run the kernels (or when asked for). Optional: calls
 * work before it, with the same bytes. `{ tier: 'simd' }` rejects instead
 * of falling back. Where node:crypto has a cipher (Node, Deno), calls
 * large enough that OpenSSL is faster go to it (tier() then says
 * 'native'), unless a tier is named: `{ tier: 'simd' }` and
 * `{ tier: 'js' }` keep every call on fourfold's own code. Calls take
 * effect in order: the last call wins, and every call still pending
 * resolves (or rejects) as the last one does.
 *
 * @example
 * ```ts
 * import { ready } from 'fourfold';
 * await ready(); // 'simd', or 'js' where WebAssembly SIMD is not available
 * await ready({ tier: 'js' }); // pure JavaScript from now on (the same bytes)
 * await ready({ tier: 'simd' }); // the kernels only: no node:crypto
 * ```
 */
export async function ready(options?: ReadyOptions): Promise<OwnTier> {
  const wanted = tierOption(options);
  requested = wanted ?? 'simd';
  pinned = wanted !== undefined;
  const own = settle(wanted);
  newest = own;
  for (let current = own; ; current = newest) {
    let answer: OwnTier | undefined;
    let failure: unknown;
    try {
      answer = await current;
    } catch (e) {
      failure = e;
    }
    if (current !== newest) continue;
    if (answer === undefined) throw failure;
    return (last = answer);
  }
}

/**
 * Which tier the most recent call of a primitive used, or the tier the most
 * recent `ready()` resolved to if that came later; undefined before both.
 * While a kernel compiles in the background its primitives run on 'js' and
 * other families may already run on 'simd': this says what the last one did
 * ('native' when it went to node:crypto).
 */
export function tier(): Tier | undefined {
  return last;
}

/** Test-only: the linear memory of every instantiated kernel, to check that calls leave it wiped. */
export function kernelMemories(): { name: string; bytes: Uint8Array }[] {
  return registry.filter((record) => record.handle !== undefined).map((record) => ({ name: record.name, bytes: record.handle!.mem.bytes }));
}
