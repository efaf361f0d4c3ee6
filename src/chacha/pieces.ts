/**
 * ChaCha20-Poly1305's pieces for fourfold/parallel (poly1305/aead-pieces.ts),
 * on each tier: one pass on the simd tier, the js tier's two.
 */
import { jsChacha } from './js.js';
import { simdChachaPiece } from './simd.js';
import { chachaKernel } from './wasm.js';
import { jsPoly1305 } from '../poly1305/js.js';
import { type PieceCrypt, twoPasses } from '../poly1305/polynomial.js';
import { jobSelector } from '../runtime/kernels.js';

/**
 * The piece function of `tier` (a job's, or 'simd' for the calling
 * thread's: the simd tier once this thread's kernel is instantiated, which
 * the call's engine() started, the js tier until then).
 */
export const pieceOf = /*#__PURE__*/ jobSelector<PieceCrypt>(chachaKernel, /*#__PURE__*/ twoPasses(jsChacha.xor, jsPoly1305), simdChachaPiece);
