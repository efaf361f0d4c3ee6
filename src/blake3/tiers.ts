/** BLAKE3's engine on each tier. */
import type { Blake3Engine } from './engine.js';
import { jsBlake3 } from './js.js';
import { simdBlake3 } from './simd.js';
import { blake3Kernel } from './wasm.js';
import { hex } from '../generated/blake3.js';
import { tierSelector } from '../runtime/kernels.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/blake3.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<Blake3Engine>(blake3Kernel, jsBlake3, simdBlake3, hex);
