/** What WebAssembly the engine runs, asked of the engine itself. */
import type { Wasm } from '../engines.js';

/** (module (func (result v128) (i8x16.popcnt (i8x16.splat (i32.const 0))))) */
export const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

export function engineHasSimd(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** 'simd', 'no-simd' (WebAssembly without SIMD) or 'none' (no WebAssembly object at all). */
export function engineWasm(): Wasm {
  if (typeof WebAssembly !== 'object') return 'none';
  return engineHasSimd() ? 'simd' : 'no-simd';
}
