/** The Web Worker of before-ready.page.ts: one ChaCha20 call first thing, and the tier it ran on. */
import { tier } from 'fourfold';
import { chacha20 } from 'fourfold/chacha';
import { hex, HAS_SIMD, pattern } from './page.js';

const out = chacha20(pattern(32, 1), pattern(12, 2), pattern(40_000, 4));
postMessage({ tier: tier(), chacha20: hex(out), simd: HAS_SIMD });
