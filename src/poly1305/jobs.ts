/** Poly1305's job for the pool's workers (pool/worker.ts serves it). */
import { polynomialJob, type PolynomialJob } from './polynomial.js';
import type { Handlers } from '../pool/protocol.js';

export type Poly1305Jobs = { readonly 'poly1305.polynomial': PolynomialJob };

export const poly1305Jobs: Handlers<Poly1305Jobs> = {
  'poly1305.polynomial': polynomialJob,
};
