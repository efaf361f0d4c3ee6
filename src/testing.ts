/**
 * The internals the tests reach, in one module: hooks that observe state
 * (kernelMemories, stateOf, the pool) and the tiers' engines and helpers
 * that tests compare with each other. Not a public entry: package.json
 * does not export it; tests import it through test/internal.ts only.
 */
export { kernelMemories } from './runtime/kernels.js';
export { pool, type JobDone, type JobHandle, type PoolWorker } from './pool/pool.js';
export { contention, runPieces, type Piece, type PieceWork } from './pool/schedule.js';
export { VariantPicker, variantPicker, type VariantKernel } from './runtime/variants.js';
export { stateOf } from './secretstream/state.js';
export { chachaKernel, chachaVariants } from './chacha/wasm.js';
export type { Blake3Engine, TreeState } from './blake3/engine.js';
export { jsBlake3 } from './blake3/js.js';
export { PARALLEL_MIN } from './blake3/parallel.js';
export { simdBlake3 } from './blake3/simd.js';
export { blake3Kernel, blake3Variants } from './blake3/wasm.js';
export { PolynomialSum } from './poly1305/combine.js';
export { add, clampedR, multiply, newLimbs, setBytes, setRadix, tagInto, toBytes } from './poly1305/field.js';
export { jsPoly1305 } from './poly1305/js.js';
export { simdPoly1305 } from './poly1305/simd.js';
export { INVERSE_FUNCTIONS, SBOX_FUNCTIONS } from './serpent/js-sboxes.js';
export { evaluate, INVERSE_CIRCUITS, parseGates, SBOX_CIRCUITS, type Logic } from './serpent/sboxes.js';
export { inverse, SBOXES } from './serpent/tables.js';
