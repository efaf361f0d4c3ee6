/**
 * ChaCha20-Poly1305's pieces for fourfold/parallel (aead/pieces.ts),
 * on each tier: one pass on the simd tier, the js tier's two.
 */
import { jsChacha } from './js.js';
import { simdChachaPiece } from './simd.js';
import { chachaKernel } from '../chachapoly/wasm.js';
import { jsPoly1305 } from '../poly1305/js.js';
import { type PieceCrypt, twoPasses } from '../aead/jobs.js';
import { tierChoice } from '../runtime/kernels.js';

/** The js tier's piece: the keystream, then the polynomial (or the other way round, decrypting). */
export const jsChachaPiece = /*#__PURE__*/ twoPasses(jsChacha.xor, jsPoly1305);

/** The piece on this thread's tier: the simd tier once its kernel is instantiated (the call's engine() started that), the js tier until then. */
export const pieceHere = /*#__PURE__*/ tierChoice<PieceCrypt>(chachaKernel, jsChachaPiece, simdChachaPiece);
