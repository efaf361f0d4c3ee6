/** The secretstream's engine on each tier: for calls on this thread (index.ts, parallel.ts) and for the pool's jobs (jobs.ts). */
import type { SecretstreamEngine } from './engine.js';
import { jsSecretstream } from './js.js';
import { simdSecretstream } from './simd.js';
import { secretstreamKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';

export const engine = tierSelector<SecretstreamEngine>(secretstreamKernel, jsSecretstream, simdSecretstream);
