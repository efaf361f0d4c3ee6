/** Serpent's engine on each tier. */
import type { SerpentEngine } from './engine.js';
import { jsSerpent } from './js.js';
import { simdSerpent } from './simd.js';
import { serpentKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/serpent.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/serpent.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<SerpentEngine>(serpentKernel, jsSerpent, simdSerpent, hex);
