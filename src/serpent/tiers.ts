/** Serpent's engine on each tier. */
import type { SerpentEngine } from './engine.js';
import { jsSerpent } from './js.js';
import { simdSerpent } from './simd.js';
import { serpentKernel } from './wasm.js';
import { hex } from '../generated/serpent.js';
import { jobSelector, tierSelector } from '../runtime/kernels.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<SerpentEngine>(serpentKernel, jsSerpent, simdSerpent, hex);

/** The engine of a pool job's tier (jobs.ts), without the kernel's bytes: the pool sends the worker the module. */
export const engineOf = /*#__PURE__*/ jobSelector<SerpentEngine>(serpentKernel, jsSerpent, simdSerpent);
