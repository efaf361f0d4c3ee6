/** The ChaCha family's engine on each tier. */
import type { ChachaEngine } from './engine.js';
import { jsChacha } from './js.js';
import { nativeFirst } from './native.js';
import { simdChacha } from './simd.js';
import { chachaKernel } from '../chachapoly/wasm.js';
import { tierSelector } from '../runtime/kernels.js';
import { withJs } from './tiers-on-demand.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/chacha.js';

/**
 * The engine of the tier a call on this thread runs on, the kernels' or
 * js, without node:crypto: for work whose memory must not grow with its
 * input (age's file pieces), as node:crypto makes a new array for every
 * update. The one place the kernel's bytes come in, but for
 * tiers-on-demand.ts, which this gives the js tier (withJs) as it loads.
 */
export const ownEngine = /*#__PURE__*/ tierSelector<ChachaEngine>(chachaKernel, withJs(jsChacha), simdChacha, hex);

/** The engine of the tier a call on this thread runs on (index.ts, parallel/chacha.ts), node:crypto taking the calls where it is faster (native.ts). */
export const engine = /*#__PURE__*/ nativeFirst(ownEngine, jsChacha);
