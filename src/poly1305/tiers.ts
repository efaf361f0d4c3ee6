/**
 * Poly1305's engine on each tier: for calls on this thread (index.ts,
 * parallel/aead.ts) and for the pool's jobs (polynomial.ts). Its simd tier
 * runs on the ChaCha kernel module, which links in poly1305/kernel.ts.
 */
import type { Poly1305Engine } from './engine.js';
import { jsPoly1305 } from './js.js';
import { simdPoly1305 } from './simd.js';
import { chachaKernel } from '../chacha/wasm.js';
import { tierSelector } from '../runtime/kernels.js';

export const engine = tierSelector<Poly1305Engine>(chachaKernel, jsPoly1305, simdPoly1305);
