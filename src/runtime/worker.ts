/**
 * A worker of the pool (pool.ts starts it): runs jobs (parallel/jobs.ts)
 * one at a time, in arrival order, with the engines of the caller's tier,
 * and answers each (runtime/protocol.ts). Runs as a worker_threads worker
 * in Node, Bun and Deno, and as a module Web Worker in browsers. No
 * top-level await and no import of node: modules, so that bundlers build
 * it with their defaults (Vite's classic-worker format among them).
 */
import { isShared, zeroize } from './bytes.js';
import { workerThreads } from './pool.js';
import type { FromWorker, Job } from './protocol.js';
import { handlers } from '../parallel/jobs.js';

interface Port {
  post(message: FromWorker, transfer?: ArrayBuffer[]): void;
  listen(handler: (job: Job) => void): void;
}

/** worker_threads' parentPort where this is a worker_threads worker, else the Web Worker scope. */
function port(): Port {
  const parent = workerThreads()?.parentPort;
  if (parent != null) {
    return {
      post: (m, transfer) => parent.postMessage(m, transfer),
      listen: (handler) => parent.on('message', handler),
    };
  }
  const scope = globalThis as unknown as { postMessage(m: unknown, t?: Transferable[]): void; onmessage: ((e: MessageEvent) => void) | null };
  return {
    post: (m, transfer) => scope.postMessage(m, transfer ?? []),
    listen: (handler) => (scope.onmessage = (e) => handler(e.data as Job)),
  };
}

/** The slot back to the pool when it was transferred (a shared one never left). */
const handBack = (data: Uint8Array | undefined): ArrayBuffer[] => (data !== undefined && !isShared(data) ? [data.buffer as ArrayBuffer] : []);

function run(job: Job, out: Port): void {
  const { id, data } = job;
  let result: Uint8Array | undefined;
  try {
    const handler = handlers[job.op];
    if (handler === undefined) throw new Error(`unknown job ${job.op}`);
    // The input and output are the slot, unless the caller's views of shared memory came instead.
    const { input, output } = job.params as { input?: Uint8Array; output?: Uint8Array };
    result = handler(job.tier, job.params, input ?? data, output ?? data);
    const transfer = handBack(data);
    out.post({ type: 'done', id, result, data: transfer.length > 0 ? data : undefined }, transfer);
  } catch (e) {
    if (data !== undefined) zeroize(data);
    const transfer = handBack(data);
    out.post({ type: 'failed', id, message: e instanceof Error ? e.message : String(e), data: transfer.length > 0 ? data : undefined }, transfer);
  } finally {
    // postMessage copied the result; keys and the like in params are this worker's copies.
    result?.fill(0);
    for (const value of Object.values(job.params)) if (value instanceof Uint8Array && !isShared(value)) zeroize(value);
  }
}

// A family's kernel is compiled (synchronously, as a worker may) by its first job: a worker
// is ready as soon as it listens, and compiles only the kernels its jobs use.
const out = port();
out.listen((job) => run(job, out));
out.post({ type: 'ready' });
