/**
 * The runtime every primitive shares: the compiled WebAssembly kernels, and
 * the tier each call runs on. Each kernel module is registered by the
 * primitive that uses it (so a bundler drops what a program does not
 * import) and instantiated once, with its own fixed linear memory that never
 * grows.
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

/** How calls run: 'simd', the WebAssembly SIMD kernels; 'js', plain JavaScript (the same bytes, slower). */
export type Tier = 'simd' | 'js';

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
  readonly base64: string;
  /** Set once instantiated (and never replaced): what the simd tier uses on every call. */
  handle?: Kernel<KernelExports>;
  /** The asynchronous compile, once started. */
  compiling?: Promise<void>;
}

const registry: KernelRecord[] = [];
const records = new WeakMap<() => Kernel<KernelExports>, KernelRecord>();

/**
 * What the last `ready()` call asked for: undefined before any, 'js' to
 * force the js tier, 'simd' for the best tier (kernels registered later
 * then compile at once).
 */
let requested: Tier | undefined;
/** Whether this engine may run the kernels: undefined until `simdUsable()` asks, false once anything failed. */
let usable: boolean | undefined;
/** What `tier()` reports. */
let last: Tier | undefined;

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
    } catch {
      usable = false;
    }
  }
  return usable;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function install(record: KernelRecord, instance: WebAssembly.Instance): void {
  // An instance is kept once installed: the variant pickers hold its exports.
  if (record.handle !== undefined) return;
  // Exports are read once: Instance.prototype.exports is an accessor, slow on every call.
  const k = instance.exports as unknown as KernelExports;
  record.handle = { k, mem: new LinearMemory(k.memory) };
}

/** Compiles and instantiates `record` now; false (and the js tier from then on) if the engine refuses. */
function instantiateNow(record: KernelRecord): boolean {
  try {
    install(record, new WebAssembly.Instance(new WebAssembly.Module(decode(record.base64)), {}));
    return true;
  } catch {
    usable = false;
    return false;
  }
}

/** Compiles and instantiates `record` asynchronously, once; resolves when done (or failed: then the js tier). */
function compileInBackground(record: KernelRecord): Promise<void> {
  return (record.compiling ??= (async () => {
    try {
      const module = await WebAssembly.compile(decode(record.base64));
      install(record, await WebAssembly.instantiate(module, {}));
    } catch {
      usable = false;
    }
  })());
}

/** The tier a call on `record`'s primitives runs on. */
function tierOf(record: KernelRecord): Tier {
  // The hot path of every call: the kernel is instantiated and nothing forbids it.
  if (record.handle !== undefined && usable === true && requested !== 'js') return (last = 'simd');
  return (last = slowTier(record));
}

/** The tier when the fast path does not apply; gets the kernel ready where it can. */
function slowTier(record: KernelRecord): Tier {
  if (requested === 'js' || !simdUsable()) return 'js';
  if (record.handle !== undefined) return 'simd';
  if (MAY_COMPILE_SYNCHRONOUSLY) return instantiateNow(record) ? 'simd' : 'js';
  void compileInBackground(record);
  return 'js';
}

/**
 * Registers a kernel module and returns the accessor its simd tier calls on
 * every use (only once the kernel is instantiated: tierOf says 'simd' then).
 */
export function defineKernel<E extends KernelExports>(name: string, base64: string): () => Kernel<E> {
  const record: KernelRecord = { name, base64 };
  registry.push(record);
  // A module loaded after ready() (code splitting): its kernel is wanted as soon as possible.
  if (requested === 'simd' && !MAY_COMPILE_SYNCHRONOUSLY && simdUsable()) void compileInBackground(record);
  const accessor = (): Kernel<E> => {
    if (record.handle === undefined && !(MAY_COMPILE_SYNCHRONOUSLY && instantiateNow(record))) {
      throw new Error(`fourfold: the ${name} kernel is not instantiated (its tier is 'js' until it is)`);
    }
    return record.handle as Kernel<E>;
  };
  records.set(accessor, record);
  return accessor;
}

function recordOf(kernel: () => Kernel<KernelExports>): KernelRecord {
  const record = records.get(kernel);
  if (record === undefined) throw new Error('fourfold: not a kernel accessor from defineKernel');
  return record;
}

/** The tier a call of the primitives on `kernel` runs on now (and what tier() then reports). */
export function kernelTier(kernel: () => Kernel<KernelExports>): Tier {
  return tierOf(recordOf(kernel));
}

/** A primitive family's engine on each tier, as tierSelector gives it. */
export interface TierSelector<E> {
  /** The engine of the tier a call on this thread runs on now: call it once at the start of each operation. */
  (): E;
  /** The engine of `tier`: what a worker runs a job on (the tier its caller chose: workerTier). */
  readonly of: (tier: Tier) => E;
}

/**
 * The engine selector of a primitive family whose simd tier runs on
 * `kernel`: the one place a tier is mapped to an engine, for this thread
 * and for the pool's workers.
 */
export function tierSelector<E>(kernel: () => Kernel<KernelExports>, js: E, simd: E): TierSelector<E> {
  const record = recordOf(kernel);
  const of = (asked: Tier): E => (asked === 'simd' ? simd : js);
  return Object.assign(() => of(tierOf(record)), { of });
}

/**
 * The tier a call asks of the pool's workers (fourfold/parallel): they
 * compile synchronously, so 'simd' wherever the engine can run the
 * kernels and the last ready() did not force 'js', whether or not this
 * thread has compiled its kernel yet. Work done on this thread goes
 * through tierSelector or kernelTier instead.
 */
export function workerTier(): Tier {
  return requested !== 'js' && simdUsable() ? 'simd' : 'js';
}

/** ready()'s options. Any other property is refused (TypeError). */
export interface ReadyOptions {
  /** Force a tier. Without it, `'simd'` where the engine can run the kernels, `'js'` otherwise. */
  tier?: Tier;
}

/** The `tier` option, read once: undefined, 'simd' or 'js'. */
function tierOption(options: unknown): Tier | undefined {
  const wanted = (check.options(options, 'options', ['tier']) as { tier?: unknown } | undefined)?.tier;
  if (wanted === undefined) return undefined;
  if (typeof wanted !== 'string') throw new TypeError(`options.tier must be 'simd' or 'js', got ${wanted === null ? 'null' : typeof wanted}`);
  if (wanted !== 'simd' && wanted !== 'js') throw new RangeError(`options.tier must be 'simd' or 'js', got '${wanted}'`);
  return wanted;
}

/** One ready() call's own work, from the moment it is called. */
async function settle(wanted: Tier | undefined): Promise<Tier> {
  if (wanted === 'js') return 'js';
  if (simdUsable()) await Promise.all(registry.map((record) => (record.handle === undefined ? compileInBackground(record) : undefined)));
  if (usable) return 'simd';
  // No WebAssembly SIMD, or a Content-Security-Policy that forbids running WebAssembly.
  if (wanted === 'simd') throw new Error('fourfold: the simd tier is not available in this engine');
  return 'js';
}

/** The newest ready() call's work: its answer is every pending call's answer. */
let newest: Promise<Tier> | undefined;

/**
 * Compiles and instantiates every kernel registered so far, then resolves
 * to the tier calls now run on: 'simd' (WebAssembly SIMD), or 'js' where
 * the engine cannot run the kernels (or when asked for). Optional: calls
 * work before it, with the same bytes. `{ tier: 'simd' }` rejects instead
 * of falling back. Calls take effect in order: the last call wins, and
 * every call still pending resolves (or rejects) as the last one does.
 *
 * @example
 * ```ts
 * import { ready } from 'fourfold';
 * await ready(); // 'simd', or 'js' where WebAssembly SIMD is not available
 * await ready({ tier: 'js' }); // pure JavaScript from now on (the same bytes)
 * ```
 */
export async function ready(options?: ReadyOptions): Promise<Tier> {
  const wanted = tierOption(options);
  requested = wanted ?? 'simd';
  const own = settle(wanted);
  newest = own;
  for (let current = own; ; current = newest) {
    let answer: Tier | undefined;
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
 * other families may already run on 'simd': this says what the last one did.
 */
export function tier(): Tier | undefined {
  return last;
}

/** Test-only: the linear memory of every instantiated kernel, to check that calls leave it wiped. */
export function kernelMemories(): { name: string; bytes: Uint8Array }[] {
  return registry.filter((record) => record.handle !== undefined).map((record) => ({ name: record.name, bytes: record.handle!.mem.bytes }));
}
