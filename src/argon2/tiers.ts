/** Argon2's engine on each tier. */
import type { Argon2Engine } from './engine.js';
import { jsArgon2 } from './js.js';
import { simdArgon2 } from './simd.js';
import { argon2Kernel } from './wasm.js';
import { tierSelector } from '../runtime/kernels.js';
// The kernel's bytes last: a bundle then holds fourfold's code together before them, within gzip's 32 KiB window.
import { hex } from '../generated/argon2.js';

/** The engine of the tier a call on this thread runs on (index.ts, parallel/argon2.ts): the one place the kernel's bytes come in. */
export const engine = /*#__PURE__*/ tierSelector<Argon2Engine>(argon2Kernel, jsArgon2, simdArgon2, hex);
