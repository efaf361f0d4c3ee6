/** BLAKE3's engine on each tier. */
import type { Blake3Engine } from './engine.js';
import { jsBlake3 } from './js.js';
import { simdBlake3 } from './simd.js';
import { blake3Kernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/blake3.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/blake3.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<Blake3Engine>(blake3Kernel, jsBlake3, simdBlake3, hex);
