/**
 * fourfold/worker-js: the worker the pool of fourfold/parallel starts
 * where the engine cannot run the kernels (no WebAssembly SIMD, a
 * Content-Security-Policy without 'wasm-unsafe-eval', `ready({ tier: 'js'
 * })`), serving every family's jobs on the js engines: the same bytes as
 * worker.ts, which a page downloads instead wherever the kernels run.
 */
import { ageJobs } from '../age/jobs.js';
import { argon2Jobs } from '../argon2/jobs.js';
import { jsAttach } from '../argon2/js.js';
import { blake3Jobs } from '../blake3/jobs.js';
import { jsBlake3 } from '../blake3/js.js';
import { chachaJobs } from '../chacha/jobs.js';
import { jsChacha } from '../chacha/js.js';
import { jsChachaPiece } from '../chacha/pieces.js';
import { poly1305Jobs } from '../poly1305/jobs.js';
import { jsPoly1305 } from '../poly1305/js.js';
import { jsCopyPolynomial } from '../poly1305/polynomial.js';
import { salsaJobs } from '../salsa/jobs.js';
import { jsSalsa } from '../salsa/js.js';
import { jsSalsaPiece } from '../salsa/pieces.js';
import { scryptJobs } from '../scrypt/jobs.js';
import { jsScrypt } from '../scrypt/js.js';
import { secretstreamJobs } from '../secretstream/jobs.js';
import { jsSecretstream } from '../secretstream/js.js';
import { serpentJobs } from '../serpent/jobs.js';
import { jsSerpent } from '../serpent/js.js';
import { serve } from '../pool/serve.js';

serve('js', {
  ...argon2Jobs(jsAttach),
  ...ageJobs(() => jsChacha, jsChacha),
  ...blake3Jobs(jsBlake3),
  ...chachaJobs(jsChacha, jsChachaPiece, jsPoly1305),
  ...poly1305Jobs(jsPoly1305, jsCopyPolynomial),
  ...salsaJobs(jsSalsa, jsSalsaPiece, jsPoly1305),
  ...scryptJobs(jsScrypt),
  ...secretstreamJobs(() => jsSecretstream),
  ...serpentJobs(jsSerpent),
});
