/**
 * What this engine has, asked of the engine itself rather than of
 * fourfold: WebAssembly at all, WebAssembly compiled from bytes (which the
 * WebAssembly peers need), and WebAssembly SIMD, with the `skip` option of
 * what needs the simd tier. test/helpers.ts re-exports them.
 */
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
 * Whether this engine has the Fetch API's Request and Response. Not asked
 * where there is no WebAssembly: that is Hermes (no Fetch API) or `node
 * --jitless`, whose Request and Response load undici when first read, and
 * undici's HTTP parser is WebAssembly: the read throws, and leaves a
 * rejected promise behind that no one can catch.
 */
export const ENGINE_HAS_FETCH_API: boolean = ENGINE_HAS_WASM && typeof Response === 'function' && typeof Request === 'function';
