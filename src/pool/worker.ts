/**
 * fourfold/worker: the worker the pool of fourfold/parallel starts
 * (pool.ts, beside it), serving every family's jobs (each family's
 * jobs.ts): the one file of the pool that names the families, as index.ts
 * names their exports. Bundlers that follow `new Worker(new
 * URL('./worker.js', import.meta.url), { type: 'module' })` emit it as a
 * chunk of its own; with esbuild, build it beside the bundle
 * (docs/parallel.md).
 */
import { blake3Jobs } from '../blake3/jobs.js';
import { chachaJobs } from '../chacha/jobs.js';
import { poly1305Jobs } from '../poly1305/jobs.js';
import { salsaJobs } from '../salsa/jobs.js';
import { secretstreamJobs } from '../secretstream/jobs.js';
import { serpentJobs } from '../serpent/jobs.js';
import type { Handler, JobType } from './protocol.js';
import { serve } from './serve.js';

// Each table is typed against its family's job map; here they are only dispatched by name.
const tables: Readonly<Record<string, Handler<JobType>>>[] = [blake3Jobs, chachaJobs, poly1305Jobs, salsaJobs, secretstreamJobs, serpentJobs] as never;
serve(Object.assign({}, ...tables));
