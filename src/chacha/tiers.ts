/** The ChaCha family's engine on each tier. */
import type { ChachaEngine } from './engine.js';
import { jsChacha } from './js.js';
import { nativeFirst } from './native.js';
import { simdChacha } from './simd.js';
import { chachaKernel } from '../chachapoly/wasm.js';
import { hex } from '../generated/chacha.js';
import { tierSelector } from '../runtime/kernels.js';

/**
 * The engine of the tier a call on this thread runs on (index.ts,
 * parallel.ts), node:crypto taking the calls where it is faster
 * (native.ts): the one place the kernel's bytes come in.
 */
export const engine = /*#__PURE__*/ nativeFirst(/*#__PURE__*/ tierSelector<ChachaEngine>(chachaKernel, jsChacha, simdChacha, hex), jsChacha);
