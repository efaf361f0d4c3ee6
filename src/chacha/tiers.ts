/** The ChaCha family's engine on each tier: for calls on this thread (index.ts, parallel.ts) and for the pool's jobs (jobs.ts). */
import type { ChachaEngine } from './engine.js';
import { jsChacha } from './js.js';
import { simdChacha } from './simd.js';
import { chachaKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';

export const engine = tierSelector<ChachaEngine>(chachaKernel, jsChacha, simdChacha);
