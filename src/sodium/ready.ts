/**
 * libsodium-wrappers' `ready`, in a module of its own so that importing it
 * keeps no family's calls in a bundle (everything.ts, the default export,
 * imports it).
 */
import { importedKernelsCompiled } from '../runtime/kernels.js';

/**
 * Resolves once the calls a program imported run at full speed, as
 * libsodium-wrappers' `ready` resolves once its WebAssembly runs: on a
 * browser page's main thread the kernels compile in the background (the
 * calls work before that, in JavaScript, the same bytes, slower); in
 * Node, Deno, Bun and workers each kernel compiles at its family's first
 * call, and this resolves at once. It never rejects: where WebAssembly
 * SIMD is not available the calls stay in JavaScript.
 * `await sodium.ready` as with libsodium-wrappers.
 */
export const ready: Promise<void> = /*#__PURE__*/ importedKernelsCompiled();
