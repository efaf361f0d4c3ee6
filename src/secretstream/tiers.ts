/** The secretstream's engine on each tier. */
import type { SecretstreamEngine } from './engine.js';
import { jsSecretstream } from './js.js';
import { simdSecretstream } from './simd.js';
import { secretstreamKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/chacha.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/secretstream.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<SecretstreamEngine>(secretstreamKernel, jsSecretstream, simdSecretstream, hex);
