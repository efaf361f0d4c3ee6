/** Poly1305's job for the pool's workers (parallel/worker.ts and worker-js.ts serve it). */
import type { Poly1305Engine } from './engine.js';
import { polynomialJob, type CopyPolynomial, type PolynomialJob } from './polynomial.js';
import type { Handlers } from '../pool/protocol.js';

export type Poly1305Jobs = { readonly 'poly1305.polynomial': PolynomialJob };

/** The job on one tier's engine, and its copy with polynomial (polynomial.ts). */
export function poly1305Jobs(poly: Poly1305Engine, copy: CopyPolynomial): Handlers<Poly1305Jobs> {
  return { 'poly1305.polynomial': polynomialJob(poly, copy) };
}
