/**
 * Poly1305's engine on each tier. Its simd tier runs on the ChaCha kernel
 * module, which links in poly1305/kernel.ts.
 */
import type { Poly1305Engine } from './engine.js';
import { jsPoly1305 } from './js.js';
import { simdPoly1305 } from './simd.js';
import { chachaKernel } from '../chachapoly/wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/chacha.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/poly1305.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<Poly1305Engine>(chachaKernel, jsPoly1305, simdPoly1305, hex);
