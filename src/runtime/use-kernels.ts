/**
 * useKernels(): the kernels as compiled modules, for a host that compiles
 * WebAssembly only from the modules its bundler imports (Cloudflare
 * Workers, Vercel's edge). The package's `workerd` and `edge-light`
 * entry points call it with the modules of dist/kernels/ (written by
 * scripts/build-edge.ts); a host with another bundler hands them over
 * itself (docs/edge.md).
 */
import { describe } from './assert.js';
import { handedEarly, modulesComing, recordNamed } from './kernel-registry.js';

/**
 * Each kernel, by the name of its file in fourfold/kernels/, and an export
 * only that kernel's module has (src/kernels.ts lists the generators): a
 * module handed over under the wrong name would fail mid-call otherwise.
 * argon2_shared, fourfold/parallel's, imports its memory where argon2
 * exports its own.
 */
const SIGNATURES: Readonly<Record<string, { readonly name: string; readonly ownMemory: boolean }>> = {
  chacha: { name: 'stream_seal', ownMemory: true },
  blake3: { name: 'push_cv', ownMemory: true },
  blake2: { name: 'compress', ownMemory: true },
  serpent: { name: 'ecb_encrypt', ownMemory: true },
  salsa: { name: 'box_seal', ownMemory: true },
  scrypt: { name: 'to_lanes', ownMemory: true },
  argon2: { name: 'fill_dependent', ownMemory: true },
  argon2_shared: { name: 'fill_dependent', ownMemory: false },
  siphash: { name: 'sipAbsorb', ownMemory: true },
};

/** The kernels' names, as useKernels() takes them. */
export const KERNEL_NAMES: readonly string[] = Object.keys(SIGNATURES);

/** Whether `value` is a WebAssembly.Module, of this realm or another (a vm context's, as an edge runtime's is). */
const isModule = (value: unknown): value is WebAssembly.Module => Object.prototype.toString.call(value) === '[object WebAssembly.Module]';

/** The module handed over as `name`, checked to be that kernel's. */
function checked(name: string, value: unknown): WebAssembly.Module {
  const signature = SIGNATURES[name];
  if (signature === undefined || !Object.hasOwn(SIGNATURES, name)) {
    throw new RangeError(`useKernels: no kernel is named '${name}' (the kernels: ${KERNEL_NAMES.join(', ')})`);
  }
  if (!isModule(value)) throw new TypeError(`useKernels: kernels.${name} must be a WebAssembly.Module, got ${describe(value)}`);
  const exports = WebAssembly.Module.exports(value).map((e) => e.name);
  if (!exports.includes(signature.name) || exports.includes('memory') !== signature.ownMemory) {
    throw new TypeError(`useKernels: kernels.${name} is not fourfold's ${name} kernel (fourfold/kernels/${name}.wasm)`);
  }
  return value;
}

/**
 * Runs fourfold's kernels from `kernels`, each a compiled
 * `WebAssembly.Module` of fourfold/kernels/<name>.wasm by its name
 * (`{ chacha, argon2 }`), where the host refuses to compile WebAssembly
 * from bytes and its bundler turns a .wasm import into a module. Call it
 * before the first call that should run on the simd tier; calls made
 * before it run on the js tier (the same bytes). Under the `workerd`
 * (wrangler) and `edge-light` (Vercel, Next.js) conditions the package
 * does this itself. Every name and module is checked before any is
 * taken: a name that is not a kernel's is a RangeError, a value that is
 * not that kernel's module a TypeError.
 *
 * @example
 * ```ts
 * import { useKernels } from 'fourfold';
 * // A bundler that imports .wasm files as compiled modules (the path as your bundler needs it).
 * declare const argon2: WebAssembly.Module; // import argon2 from 'fourfold/kernels/argon2.wasm';
 * useKernels({ argon2 });
 * ```
 */
export function useKernels(kernels: Readonly<Record<string, WebAssembly.Module>>): void {
  if (typeof kernels !== 'object' || kernels === null || Array.isArray(kernels)) {
    throw new TypeError(`useKernels: kernels must be an object of WebAssembly modules by name, got ${describe(kernels)}`);
  }
  // Own enumerable properties, each read once: no getter of the caller's runs after the checks.
  const modules = Object.entries(kernels).map(([name, value]) => [name, checked(name, value)] as const);
  if (modules.length === 0) return;
  modulesComing();
  for (const [name, module] of modules) {
    const record = recordNamed(name);
    if (record === undefined) handedEarly.set(name, module);
    else if (record.handle === undefined) {
      // In place of its bytes; an instance already made is kept.
      record.module = module;
      record.bytes = record.refused = record.compiling = undefined;
    }
  }
}
