/**
 * Secretbox (XSalsa20-Poly1305)'s pieces for fourfold/parallel (aead/pieces.ts),
 * on each tier: one pass on the simd tier, the js tier's two.
 */
import { jsSalsa } from './js.js';
import { simdSalsaPiece } from './simd.js';
import { salsaKernel } from './wasm.js';
import { jsPoly1305 } from '../poly1305/js.js';
import { type PieceCrypt, twoPasses } from '../aead/jobs.js';
import { tierChoice } from '../runtime/kernels.js';

/** The js tier's piece: the keystream, then the polynomial (or the other way round, decrypting). */
export const jsSalsaPiece = /*#__PURE__*/ twoPasses(jsSalsa.xor, jsPoly1305);

/** The piece on this thread's tier: the simd tier once its kernel is instantiated (the call's engine() started that), the js tier until then. */
export const pieceHere = /*#__PURE__*/ tierChoice<PieceCrypt>(salsaKernel, jsSalsaPiece, simdSalsaPiece);
