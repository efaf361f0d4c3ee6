/**
 * fourfold/worker: the worker the pool of fourfold/parallel starts
 * (pool/spawn.ts) wherever the engine can run the kernels, serving
 * every family's jobs (each family's jobs.ts) on the simd engines (age's
 * pieces on node:crypto past the crossovers, where the calling thread may
 * use it: chacha/native.ts nativeOver). It
 * carries neither a js tier nor kernel bytes: the pool sends it the
 * compiled modules its jobs need. Its twin for engines without
 * WebAssembly SIMD is worker-js.ts. With the families' every-core entries
 * beside them (chacha.ts, age.ts, ...) and index.ts, which names their
 * exports, they make src/parallel the one layer that names every family
 * and the pool's jobs for it. Bundlers that
 * follow `new Worker(new URL('./worker.js', import.meta.url), { type:
 * 'module' })` emit it as a chunk of its own; with esbuild, build it
 * beside the bundle (docs/parallel.md).
 */
import { ageJobs } from '../age/jobs.js';
import { argon2Jobs } from '../argon2/jobs.js';
import { simdAttach } from '../argon2/simd.js';
import { blake3Jobs } from '../blake3/jobs.js';
import { simdBlake3 } from '../blake3/simd.js';
import { chachaJobs } from '../chacha/jobs.js';
import { nativeOver } from '../chacha/native.js';
import { simdChacha, simdChachaPiece } from '../chacha/simd.js';
import { poly1305Jobs } from '../poly1305/jobs.js';
import { simdCopyPolynomial, simdPoly1305 } from '../poly1305/simd.js';
import { salsaJobs } from '../salsa/jobs.js';
import { simdSalsa, simdSalsaPiece } from '../salsa/simd.js';
import { scryptJobs } from '../scrypt/jobs.js';
import { simdScrypt } from '../scrypt/simd.js';
import { secretstreamJobs } from '../secretstream/jobs.js';
import { simdSecretstream } from '../secretstream/simd.js';
import { serpentJobs } from '../serpent/jobs.js';
import { simdSerpent } from '../serpent/simd.js';
import { serve } from '../pool/serve.js';

serve('simd', {
  ...argon2Jobs(simdAttach),
  ...ageJobs(nativeOver(simdChacha, 'simd'), simdChacha),
  ...blake3Jobs(simdBlake3),
  ...chachaJobs(simdChacha, simdChachaPiece, simdPoly1305),
  ...poly1305Jobs(simdPoly1305, simdCopyPolynomial),
  ...salsaJobs(simdSalsa, simdSalsaPiece, simdPoly1305),
  ...scryptJobs(simdScrypt),
  ...secretstreamJobs(() => simdSecretstream),
  ...serpentJobs(simdSerpent),
});
