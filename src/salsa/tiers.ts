/** The Salsa20 family's engine on each tier. */
import type { SalsaEngine } from './engine.js';
import { jsSalsa } from './js.js';
import { simdSalsa } from './simd.js';
import { salsaKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/salsa.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/salsa.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<SalsaEngine>(salsaKernel, jsSalsa, simdSalsa, hex);
