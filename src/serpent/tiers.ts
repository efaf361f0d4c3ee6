/** The Serpent's engine on each tier: for calls on this thread (index.ts, parallel.ts) and for the pool's jobs (jobs.ts). */
import type { SerpentEngine } from './engine.js';
import { jsSerpent } from './js.js';
import { simdSerpent } from './simd.js';
import { serpentKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';

export const engine = tierSelector<SerpentEngine>(serpentKernel, jsSerpent, simdSerpent);
