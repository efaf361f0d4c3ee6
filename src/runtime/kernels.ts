/**
 * The runtime every primitive shares: which tier is active, and the
 * compiled WebAssembly kernels. Each kernel module is registered by the
 * primitive that uses it (so a bundler drops what a program does not
 * import), compiled by `ready()`, and instantiated once with its own fixed
 * linear memory that never grows.
 */

import { LinearMemory } from './memory.js';

export type Tier = 'simd' | 'js';

interface KernelRecord {
  readonly name: string;
  readonly base64: string;
  instance?: WebAssembly.Instance;
  /** Set with `instance`: what primitives use on every call. */
  handle?: Kernel<KernelExports>;
}

/** An instantiated kernel: its exports and its memory. */
export interface Kernel<E extends KernelExports> {
  readonly k: E;
  readonly mem: LinearMemory;
}

const registry: KernelRecord[] = [];
let active: Tier | undefined;

/** Exports every kernel module has beside its functions. */
export interface KernelExports {
  readonly memory: WebAssembly.Memory;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * Chrome forbids compiling large modules synchronously on a page's main
 * thread; server runtimes allow it, so there a primitive used before
 * `ready()` compiles on demand instead of failing.
 */
function mayCompileSynchronously(): boolean {
  const g = globalThis as { Deno?: unknown; Bun?: unknown; process?: { versions?: { node?: string } } };
  return g.Deno !== undefined || g.Bun !== undefined || g.process?.versions?.node !== undefined;
}

function install(record: KernelRecord, instance: WebAssembly.Instance): void {
  // Exports are read once: Instance.prototype.exports is an accessor, slow on every call.
  const k = instance.exports as unknown as KernelExports;
  record.instance = instance;
  record.handle = { k, mem: new LinearMemory(k.memory) };
}

function instantiateSync(record: KernelRecord): void {
  install(record, new WebAssembly.Instance(new WebAssembly.Module(decode(record.base64)), {}));
}

/**
 * Registers a kernel module and returns the accessor its primitive calls on
 * every use. The accessor is only called while the 'simd' tier is active.
 */
export function defineKernel<E extends KernelExports>(name: string, base64: string): () => Kernel<E> {
  const record: KernelRecord = { name, base64 };
  registry.push(record);
  return () => {
    if (record.handle !== undefined) return record.handle as Kernel<E>;
    if (!mayCompileSynchronously()) {
      throw new Error(`fourfold: call 'await ready()' before using ${name} (browsers do not allow compiling WebAssembly synchronously)`);
    }
    instantiateSync(record);
    return record.handle as unknown as Kernel<E>;
  };
}

/** The active tier, choosing one synchronously on first use outside browsers. */
export function activeTier(): Tier {
  if (active !== undefined) return active;
  if (!mayCompileSynchronously()) {
    throw new Error("fourfold: call 'await ready()' before using a primitive in a browser");
  }
  try {
    for (const record of registry) if (record.instance === undefined) instantiateSync(record);
    active = 'simd';
  } catch {
    active = 'js';
  }
  return active;
}

export interface ReadyOptions {
  /** Force a tier. Without it, `'simd'` where the engine can run the kernels, `'js'` otherwise. */
  tier?: Tier;
}

/**
 * Compiles and instantiates every registered kernel once, then selects the
 * tier. Safe to call again, for instance to switch tiers. Resolves to the
 * tier now active.
 */
export async function ready(options: ReadyOptions = {}): Promise<Tier> {
  const wanted = options.tier;
  if (wanted !== undefined && wanted !== 'simd' && wanted !== 'js') {
    throw new TypeError(`tier must be 'simd' or 'js', got ${String(wanted)}`);
  }
  if (wanted === 'js') return (active = 'js');
  try {
    if (typeof WebAssembly !== 'object') throw new Error('WebAssembly is not available');
    await Promise.all(
      registry
        .filter((record) => record.instance === undefined)
        .map(async (record) => {
          const module = await WebAssembly.compile(decode(record.base64));
          const instance = await WebAssembly.instantiate(module, {});
          if (record.instance === undefined) install(record, instance);
        }),
    );
  } catch (cause) {
    // No SIMD, no WebAssembly, or a Content-Security-Policy that forbids compiling it.
    if (wanted === 'simd') throw new Error('fourfold: the simd tier is not available in this engine', { cause });
    return (active = 'js');
  }
  return (active = 'simd');
}

/** The tier in use, or undefined before `ready()` or the first primitive call. */
export function tier(): Tier | undefined {
  return active;
}

/** Test-only: the linear memory of every instantiated kernel, to check that calls leave it wiped. */
export function kernelMemories(): { name: string; bytes: Uint8Array }[] {
  return registry
    .filter((record) => record.instance !== undefined)
    .map((record) => ({
      name: record.name,
      bytes: record.handle!.mem.bytes,
    }));
}
