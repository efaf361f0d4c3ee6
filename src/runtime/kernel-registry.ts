/**
 * The kernels this thread knows. Each kernel module is named by the
 * primitive that uses it (defineKernel) and gets its bytes from that
 * primitive's tier selector (kernels.ts tierSelector), so a bundler drops
 * what a program does not import, and a pool worker, which calls the simd
 * engines directly, carries no kernel bytes at all: it receives the
 * modules its jobs need from the pool (kernelsFor, installKernels). Each
 * is instantiated once, with its own fixed linear memory that never
 * grows. Here too: whether this engine may run kernels at all (the SIMD
 * probe, and any kernel the engine refused since).
 *
 * Which tier a call runs on, when a kernel compiles, and ready() are
 * kernels.ts's, which builds on this file; this one knows no tiers.
 */
import type { Bytes } from './bytes.js';
import { MAY_COMPILE_SYNCHRONOUSLY } from './host.js';
import { LinearMemory } from './memory.js';
import { nodeHex } from './node-host.js';

/** An instantiated kernel: its exports and its memory. */
export interface Kernel<E extends KernelExports> {
  readonly k: E;
  readonly mem: LinearMemory;
}

/** Exports every kernel module has beside its functions. */
export interface KernelExports {
  readonly memory: WebAssembly.Memory;
}

/** One kernel as this thread has it: its name, its code (as it came), its instance once made. */
export interface KernelRecord {
  readonly name: string;
  /** The module's bytes as hexadecimal text (scripts/build-kernels.ts), once its tier selector gave them. */
  hex?: string;
  /** The compiled module, once compiled here or received from the pool (a worker). */
  module?: WebAssembly.Module;
  /** The module's bytes as a worker received them, to compile at first use. */
  bytes?: Bytes;
  /** Set once instantiated (and never replaced): what the simd tier uses on every call. */
  handle?: Kernel<KernelExports>;
  /** The asynchronous compile, once started. */
  compiling?: Promise<void>;
  /** Why this kernel runs on the js tier alone: the host refused to compile its bytes while other kernels came as modules (useKernels). */
  refused?: string;
}

/** Every kernel named so far, by name. */
const byName = new Map<string, KernelRecord>();
/** The kernels whose bytes this thread has (kernels.ts provide() adds them; ready() compiles these), in the order they came. */
export const registry: KernelRecord[] = [];
/** Each accessor's kernel (recordOf). */
const records = new WeakMap<() => Kernel<KernelExports>, KernelRecord>();

/**
 * Whether this engine may run the kernels: undefined until `simdUsable()`
 * asks, false once anything failed. Read on every call (kernels.ts
 * tierOf), set only here.
 */
export let usable: boolean | undefined;
/** What failed, once something did: ready({ tier: 'simd' }) says it. */
let unusableBecause: string | undefined;

/**
 * Whether kernels came as compiled modules (use-kernels.ts): on a host
 * that compiles WebAssembly only from modules its bundler imports
 * (Cloudflare Workers, Vercel's edge), where compiling bytes, the
 * probe's included, is refused.
 */
let modulesHanded = false;
/** Whether the probe itself was refused (not unsupported): modules handed over then ask again. */
let probeRefused = false;
/** Modules handed over before their kernel was named (defineKernel takes them up). */
export const handedEarly = new Map<string, WebAssembly.Module>();

/** Whether `error` is a host's refusal to compile WebAssembly (an embedder's or a Content-Security-Policy's), not a lack of support. */
const isRefusal = (error: unknown): boolean => /disallowed|refused|blocked|not allowed|CSP/i.test(String(error));

let warned = false;

/** Said once, where a host refused to compile: otherwise calls only run several times slower, with nothing to say why. */
function warnRefused(reason: string): void {
  if (warned) return;
  warned = true;
  const fix = typeof (globalThis as { document?: unknown }).document === 'object' ? "script-src needs 'wasm-unsafe-eval'" : 'see docs/edge.md';
  console.warn(`fourfold: WebAssembly refused (${reason}): calls run on the js tier, slower; ${fix}`);
}

/** The simd tier is not usable from now on, because of `error` (in the SIMD probe, or a kernel named `what`). */
function unusable(what: string, error: unknown): false {
  usable = false;
  unusableBecause ??= `${what}: ${error}`;
  if (isRefusal(error)) warnRefused(unusableBecause);
  return false;
}

/**
 * `record` cannot run, because of `error` while compiling or
 * instantiating it: where kernels came as modules and this one had to be
 * compiled from bytes, it alone stays on the js tier (the others run);
 * anything else makes the simd tier unusable.
 */
function failed(record: KernelRecord, compiledHere: boolean, error: unknown): false {
  if (!modulesHanded || !compiledHere) return unusable(`the ${record.name} kernel`, error);
  record.refused = `the ${record.name} kernel: ${error}`;
  if (isRefusal(error)) warnRefused(record.refused);
  return false;
}

/**
 * Kernels come as modules from now on (use-kernels.ts gives them to their
 * records): the probe compiles nothing, and is asked again if it was
 * refused for want of them (the modules prove the host compiled them).
 */
export function modulesComing(): void {
  modulesHanded = true;
  if (usable === false && probeRefused) usable = unusableBecause = undefined;
}

/** The record of the kernel named `name`, once its module was loaded. */
export const recordNamed = (name: string): KernelRecord | undefined => byName.get(name);

/** Why calls run on the js tier though the simd tier was wanted: the probe's or a kernel's failure; undefined while none failed. */
export function simdFailure(): string | undefined {
  return unusableBecause ?? registry.find((record) => record.refused !== undefined)?.refused;
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
export function simdUsable(): boolean {
  if (usable === undefined) {
    try {
      usable = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
      if (!usable) unusableBecause = typeof WebAssembly === 'object' ? 'this engine has no WebAssembly SIMD' : 'this engine has no WebAssembly';
      // Kernels handed over as modules were compiled by the host, which may refuse to compile anything else.
      if (usable && !modulesHanded) new WebAssembly.Instance(new WebAssembly.Module(SIMD_PROBE), {});
    } catch (e) {
      probeRefused = isRefusal(e);
      return unusable('the SIMD probe', e);
    }
  }
  return usable;
}

/** Uint8Array.fromHex where the engine has it (2025's engines: native, and quicker on a cold page than the loop below), captured at load. */
const fromHex = (Uint8Array as { fromHex?: (hex: string) => Uint8Array<ArrayBuffer> }).fromHex;

/**
 * A kernel's bytes from the hexadecimal text the build embeds (lower case):
 * natively where the engine can (the loop, cold, takes a fresh Node 5 to
 * 9 ms on ChaCha's 25 KB, which a command on a small file pays), else a
 * digit's value is its low 4 bits, plus 9 for 'a'..'f' (0x61..0x66).
 */
export function decode(hex: string): Bytes {
  if (fromHex !== undefined) return fromHex.call(Uint8Array, hex);
  const native = nodeHex?.(hex);
  if (native !== undefined) return native;
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
export const hasCode = (record: KernelRecord): boolean => record.module !== undefined || record.bytes !== undefined || record.hex !== undefined;

/** Compiles (unless compiled or received) and instantiates `record` now; false (and the js tier from then on) if the engine refuses. */
export function instantiateNow(record: KernelRecord): boolean {
  const compiledHere = record.module === undefined;
  try {
    record.module ??= new WebAssembly.Module(record.bytes ?? decode(record.hex!));
    record.bytes = undefined;
    install(record, new WebAssembly.Instance(record.module, {}));
    return true;
  } catch (e) {
    return failed(record, compiledHere, e);
  }
}

/** Compiles and instantiates `record` (which has its hex) asynchronously, once; resolves when done (or failed: then the js tier). */
export function compileInBackground(record: KernelRecord): Promise<void> {
  return (record.compiling ??= (async () => {
    const compiledHere = record.module === undefined;
    try {
      const module = (record.module ??= await WebAssembly.compile(decode(record.hex!)));
      install(record, await WebAssembly.instantiate(module, {}));
    } catch (e) {
      failed(record, compiledHere, e);
    }
  })());
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
 * every use (only once the kernel is instantiated: kernels.ts tierOf
 * says 'simd' then). The bytes come with the family's tier selector (tierSelector),
 * or from the pool (installKernels).
 */
export function defineKernel<E extends KernelExports>(name: string): () => Kernel<E> {
  const record: KernelRecord = { name, module: handedEarly.get(name) };
  byName.set(name, record);
  const accessor = (): Kernel<E> => {
    if (
      record.handle === undefined &&
      !(
        (MAY_COMPILE_SYNCHRONOUSLY || record.hex === undefined || record.module !== undefined) &&
        record.refused === undefined &&
        hasCode(record) &&
        instantiateNow(record)
      )
    ) {
      throw new KernelUnavailable(`fourfold: the ${name} kernel is not instantiated (its tier is 'js' until it is)`);
    }
    return record.handle as Kernel<E>;
  };
  records.set(accessor, record);
  return accessor;
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

/** The kernel behind an accessor defineKernel returned. */
export function recordOf(kernel: () => Kernel<KernelExports>): KernelRecord {
  const record = records.get(kernel);
  if (record === undefined) throw new Error('fourfold: not a kernel accessor from defineKernel');
  return record;
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

/** Test-only: the linear memory of every instantiated kernel, to check that calls leave it wiped. */
export function kernelMemories(): { name: string; bytes: Uint8Array }[] {
  return registry.filter((record) => record.handle !== undefined).map((record) => ({ name: record.name, bytes: record.handle!.mem.bytes }));
}
