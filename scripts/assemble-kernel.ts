/**
 * A kernel's WebAssembly text to its bytes, as the build makes them:
 * binaryen parses and validates it, runs -O3 (with the module's no-inline
 * patterns), and validates again. The constant-time check
 * (scripts/constant-time/) assembles the same text with its generator
 * lines noted and binaryen's function names kept, and proves the code it
 * reads is the code the build shipped.
 */
import binaryen from 'binaryen';
import { NO_INLINE as noInline } from '../src/kernels.js';

export interface Assembled {
  bytes: Uint8Array;
  /** With `debug`: the source map (JSON) from the text's `;;@ file:line:column` notes to the bytes' offsets. */
  sourceMap?: string;
}

export function assembleKernel(name: string, text: string, debug = false): Assembled {
  const mod = binaryen.parseText(text);
  try {
    mod.setFeatures(
      binaryen.Features.MVP |
        binaryen.Features.Atomics |
        binaryen.Features.SIMD128 |
        binaryen.Features.BulkMemory |
        binaryen.Features.BulkMemoryOpt |
        binaryen.Features.Multivalue,
    );
    if (!mod.validate()) throw new Error(`kernel ${name}: binaryen validation failed`);
    // -O3 for every kernel: -O2 gzips ChaCha's 12% and BLAKE3's 21% smaller, but ran them 2-6% slower in
    // Firefox (docs/contributing/performance-history.md#code-size).
    binaryen.setOptimizeLevel(3);
    binaryen.setShrinkLevel(0);
    binaryen.setDebugInfo(debug);
    if (noInline[name]) {
      binaryen.setPassArgument('no-inline', noInline[name]);
      mod.runPasses(['no-inline']);
      binaryen.setPassArgument('no-inline', null);
    }
    mod.optimize();
    if (!mod.validate()) throw new Error(`kernel ${name}: invalid after optimization`);
    if (!debug) return { bytes: mod.emitBinary() };
    const { binary, sourceMap } = mod.emitBinary('kernel.wasm.map');
    return { bytes: binary, sourceMap: sourceMap ?? undefined };
  } finally {
    binaryen.setDebugInfo(false);
    mod.dispose();
  }
}

/** Optimized text with binaryen's names, for reading (KERNEL_WAT=1). */
export function optimizedText(name: string, text: string): string {
  const { bytes } = assembleKernel(name, text, true);
  const mod = binaryen.readBinary(bytes);
  try {
    return mod.emitText();
  } finally {
    mod.dispose();
  }
}
