/**
 * The worker's side of the pool: runs jobs one at a time, in arrival
 * order, and answers each (protocol.ts). The worker entries call serve()
 * with every family's handlers on one tier's engines: worker.ts the simd
 * tier's, worker-js.ts the js tier's. Runs as a worker_threads worker in
 * Node, Bun and Deno, and as a module Web Worker in browsers. No top-level
 * await and no import of node: modules, so that bundlers build it with
 * their defaults.
 */
import { isShared, zeroize } from '../runtime/bytes.js';
import { followCaller, type OwnTier } from '../runtime/kernels.js';
import { installKernels, KernelUnavailable } from '../runtime/kernel-registry.js';
import { workerThreads } from './threads.js';
import {
  resultBytes,
  movedBuffers,
  QUEUED,
  RUNNING,
  type FromWorker,
  type Handler,
  type Handlers,
  type Job,
  type JobResult,
  type JobTable,
  type JobType,
  type ToWorker,
} from './protocol.js';

interface Port {
  post(message: FromWorker, transfer?: ArrayBuffer[]): void;
  listen(handler: (message: ToWorker) => void): void;
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
    listen: (handler) => (scope.onmessage = (e) => handler(e.data as ToWorker)),
  };
}

/** The slot back to the pool when it was transferred (a shared one never left). */
const handBack = (slot: Uint8Array | undefined): { slot?: Uint8Array; transfer: ArrayBuffer[] } =>
  slot !== undefined && !isShared(slot) ? { slot, transfer: [slot.buffer as ArrayBuffer] } : { transfer: [] };

/** Serves `handlers` (every family's jobs on the engines of `tier`, by name) to the pool that started this worker. */
export function serve<T extends JobTable>(tier: OwnTier, jobs: Handlers<T>): void {
  // The one place a job is untyped: its name comes in a message.
  const handlers = jobs as unknown as Readonly<Record<string, Handler<JobType> | undefined>>;
  const out = port();
  let claims: Int32Array | undefined;

  function run(job: Job): void {
    const { id, slot } = job;
    // The kernels come with the first job that needs them and never again, so they are kept even when that job is skipped.
    if (job.kernels !== undefined) installKernels(job.kernels);
    followCaller(job.native);
    // The pool took the job back before it started: it does the piece itself.
    if (claims !== undefined && job.claim >= 0 && Atomics.compareExchange(claims, job.claim, QUEUED, RUNNING) !== QUEUED) {
      const back = handBack(slot);
      out.post({ type: 'skipped', id, slot: back.slot }, back.transfer);
      return;
    }
    let result: JobResult;
    let moving: ArrayBuffer[] = [];
    try {
      const handler = handlers[job.op];
      if (handler === undefined) throw new Error(`unknown job ${job.op}`);
      let input = job.input ?? slot;
      if (job.copyIn && input !== slot && input !== undefined) {
        slot!.set(input);
        input = slot;
      }
      result = handler(job.params, { input, output: job.output ?? slot, slot });
      const back = handBack(slot);
      moving = movedBuffers(result);
      out.post({ type: 'done', id, result, slot: back.slot }, [...back.transfer, ...moving]);
    } catch (e) {
      if (slot !== undefined) zeroize(slot);
      const back = handBack(slot);
      const message = e instanceof Error ? e.message : String(e);
      out.post({ type: 'failed', id, message, fatal: e instanceof KernelUnavailable, slot: back.slot }, back.transfer);
    } finally {
      // postMessage copied the result (or moved it: nothing of it is left here); keys and the like in params are this worker's copies.
      if (moving.length === 0) resultBytes(result)?.fill(0);
      for (const value of Object.values(job.params)) if (value instanceof Uint8Array && !isShared(value)) zeroize(value);
    }
  }

  // A family's kernel is instantiated (compiled first, synchronously, if it came as bytes) by its
  // first job: a worker is ready as soon as it listens, and instantiates only the kernels its jobs use.
  out.listen((message) => {
    if (message.type === 'setup') claims = message.claims;
    else run(message);
  });
  out.post({ type: 'ready', tier });
}
