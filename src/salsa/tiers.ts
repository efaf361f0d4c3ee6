/** The Salsa20 family's engine on each tier: for calls on this thread (index.ts, parallel.ts) and for the pool's jobs (jobs.ts). */
import type { SalsaEngine } from './engine.js';
import { jsSalsa } from './js.js';
import { simdSalsa } from './simd.js';
import { salsaKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';

export const engine = tierSelector<SalsaEngine>(salsaKernel, jsSalsa, simdSalsa);
