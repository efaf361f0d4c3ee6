/** scrypt's engine on each tier. */
import type { ScryptEngine } from './engine.js';
import { jsScrypt } from './js.js';
import { simdScrypt } from './simd.js';
import { scryptKernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/scrypt.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/scrypt.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<ScryptEngine>(scryptKernel, jsScrypt, simdScrypt, hex);
