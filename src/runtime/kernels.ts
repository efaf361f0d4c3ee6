/**
 * The tier each call runs on, and the calls that choose it: a family's
 * engine selector (tierSelector, tierChoice), ready() and tier(), the tier
 * of the pool's next worker (workerTier) and whether a call may go to
 * node:crypto. The kernels themselves, their code and their instances,
 * are kernel-registry.ts's.
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
import {
  compileInBackground,
  hasCode,
  instantiateNow,
  type Kernel,
  type KernelExports,
  type KernelRecord,
  recordOf,
  registry,
  simdFailure,
  simdUsable,
  usable,
} from './kernel-registry.js';

/**
 * How calls run: 'simd', the WebAssembly SIMD kernels; 'js', plain
 * JavaScript (the same bytes, slower); 'native', node:crypto's OpenSSL
 * (Node, Deno), for the operations and sizes where it is faster than the
 * kernels.
 */
export type Tier = 'simd' | 'js' | 'native';
/** The tiers fourfold's own code runs on, which ready() can keep a process on. */
export type OwnTier = 'simd' | 'js';

/**
 * What the last `ready()` call asked for: undefined before any, 'js' to
 * force the js tier, 'simd' for the best tier (kernels registered later
 * then compile at once).
 */
let requested: OwnTier | undefined;
/** Whether the last ready() named a tier: then calls stay on it, never native. */
let pinned = false;
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
  // No bytes for it on this thread (nothing loaded its family's tierSelector), or a host that refused them: the js tier, the same bytes.
  if (!hasCode(record) || record.refused !== undefined) return 'js';
  // A module at hand (handed over, or compiled already) only needs an instance, which is quick anywhere.
  if (MAY_COMPILE_SYNCHRONOUSLY || record.hex === undefined || record.module !== undefined) return instantiateNow(record) ? 'simd' : 'js';
  void compileInBackground(record);
  return 'js';
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

/** Gives `record` its bytes (once): ready() compiles it from then on, and a pool worker can be sent it. */
function provide(record: KernelRecord, hex: string): void {
  if (record.hex !== undefined) return;
  record.hex = hex;
  registry.push(record);
  // A module loaded after ready() (code splitting): its kernel is wanted as soon as possible.
  if (requested === 'simd' && !MAY_COMPILE_SYNCHRONOUSLY && simdUsable()) void compileInBackground(record);
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
  if (typeof wanted !== 'string') throw new TypeError(`options.tier must be 'simd' or 'js', got ${check.describe(wanted)}`);
  if (wanted !== 'simd' && wanted !== 'js') throw new RangeError(`options.tier must be 'simd' or 'js', got '${wanted}'`);
  return wanted;
}

/** One ready() call's own work, from the moment it is called. */
async function settle(wanted: OwnTier | undefined): Promise<OwnTier> {
  if (wanted === 'js') return 'js';
  if (simdUsable()) await Promise.all(registry.map((record) => (record.handle === undefined ? compileInBackground(record) : undefined)));
  // No WebAssembly SIMD, a Content-Security-Policy that forbids running WebAssembly, or a host that compiles only the modules it imports.
  const failure = simdFailure();
  if (wanted === 'simd' && failure !== undefined) throw new Error(`fourfold: the simd tier is not available in this engine (${failure})`);
  return usable ? 'simd' : 'js';
}

/**
 * Why calls run on the js tier where fourfold would run its kernels, in
 * the engine's words; undefined while nothing stands in the way. Say,
 * "this engine has no WebAssembly SIMD", a page's
 * Content-Security-Policy without 'wasm-unsafe-eval', or "Wasm code
 * generation disallowed by embedder" on a host that compiles WebAssembly
 * only from the modules its bundler imports (Cloudflare Workers, Vercel's
 * edge: docs/edge.md says what to do). ready({ tier: 'js' }) is not a
 * reason: this answers whatever the tier asked for.
 *
 * @example
 * ```ts
 * import { ready, simdUnavailable } from 'fourfold';
 * if ((await ready()) === 'js') console.log(simdUnavailable());
 * ```
 */
export function simdUnavailable(): string | undefined {
  simdUsable();
  return simdFailure();
}

/**
 * Resolves once the kernels of every family a program has imported run
 * on this thread, where they would otherwise not be there for its first
 * calls: a page's main thread, which compiles them in the background
 * while calls run on the js tier. Elsewhere each compiles at its first
 * call and this resolves at once. Unlike ready(), it chooses no tier and
 * never rejects (a kernel that fails leaves its calls on the js tier).
 * The kernels are those registered when its first step runs, a
 * microtask after the call: a module graph evaluates in one go before any
 * microtask, its families' tier selectors with it.
 */
export function importedKernelsCompiled(): Promise<void> {
  return Promise.resolve().then(async () => {
    if (MAY_COMPILE_SYNCHRONOUSLY || !simdUsable()) return;
    await Promise.all(registry.map((record) => (record.handle === undefined ? compileInBackground(record) : undefined)));
  });
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
  const settling = settle(wanted);
  newest = settling;
  for (let current = settling; ; current = newest) {
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
