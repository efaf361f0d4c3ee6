/** Poly1305's jobs for the pool's workers (parallel/jobs.ts). */
import { polynomialOf } from './polynomial.js';
import { engine } from './tiers.js';
import type { JobHandler } from '../runtime/protocol.js';

export const poly1305Jobs: Record<string, JobHandler> = {
  /** params: key (r || 16 zero bytes), zeroPad (1 or 0); result: the input's polynomial. */
  'poly1305.polynomial': (tier, p, input) => polynomialOf(engine.of(tier), p.key as Uint8Array, input!, p.zeroPad === 1),
};
