/** BLAKE2b's engine on each tier. */
import type { Blake2bEngine } from './engine.js';
import { jsBlake2b } from './js.js';
import { simdBlake2b } from './simd.js';
import { blake2Kernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/blake2.js';

/** The engine of the tier a call on this thread runs on (index.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<Blake2bEngine>(blake2Kernel, jsBlake2b, simdBlake2b, hex);
