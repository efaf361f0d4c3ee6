/**
 * Every job a worker of the pool can run, by name: each primitive's jobs
 * (its jobs.ts). Importing this is what puts every kernel in the worker.
 */
import { blake3Jobs } from '../blake3/jobs.js';
import { chachaJobs } from '../chacha/jobs.js';
import { poly1305Jobs } from '../poly1305/jobs.js';
import type { JobHandler } from '../runtime/protocol.js';
import { salsaJobs } from '../salsa/jobs.js';
import { secretstreamJobs } from '../secretstream/jobs.js';
import { serpentJobs } from '../serpent/jobs.js';

export const handlers: Readonly<Record<string, JobHandler>> = { ...blake3Jobs, ...chachaJobs, ...poly1305Jobs, ...salsaJobs, ...secretstreamJobs, ...serpentJobs };
