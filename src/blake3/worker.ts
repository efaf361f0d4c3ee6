/**
 * The worker of blake3Parallel's pool (pool.ts starts it): hashes complete
 * subtrees (protocol.ts Job) with the engine of the caller's tier and
 * answers with their chaining values. Runs as a worker_threads worker in
 * Node and Bun, and as a module Web Worker in browsers and Deno.
 */
import type { Blake3Engine } from './engine.js';
import { jsBlake3 } from './js.js';
import type { FromWorker, ToWorker } from './protocol.js';
import { simdBlake3 } from './simd.js';
import { zeroize } from '../runtime/bytes.js';
import { ready, tier, type Tier } from '../runtime/kernels.js';

interface Port {
  post(message: FromWorker, transfer?: ArrayBuffer[]): void;
  listen(handler: (message: ToWorker) => void): void;
}

/** worker_threads' parentPort where this is a worker_threads worker, else the Web Worker scope. */
async function port(): Promise<Port> {
  const g = globalThis as { process?: { versions?: { node?: string } } };
  if (g.process?.versions?.node !== undefined) {
    // A computed specifier, so bundlers for browsers leave it alone.
    const name = 'node:worker_threads';
    const { parentPort } = (await import(name)) as typeof import('node:worker_threads');
    if (parentPort !== null) {
      return {
        post: (m, transfer) => parentPort.postMessage(m, transfer),
        listen: (handler) => parentPort.on('message', handler),
      };
    }
  }
  const scope = globalThis as unknown as { postMessage(m: unknown, t?: Transferable[]): void; onmessage: ((e: MessageEvent) => void) | null };
  return {
    post: (m, transfer) => scope.postMessage(m, transfer ?? []),
    listen: (handler) => (scope.onmessage = (e) => handler(e.data as ToWorker)),
  };
}

const engineOf = (t: Tier | undefined): Blake3Engine => (t === 'js' ? jsBlake3 : simdBlake3);

async function run(job: ToWorker, out: Port): Promise<void> {
  const { id, key, data } = job;
  const cv = new Uint8Array(32);
  try {
    if (tier() !== job.tier) await ready({ tier: job.tier });
    engineOf(tier()).subtree(key, job.flags, data, job.counter, cv);
    // The slot is left as it is: the pool refills it with the next job and zeroes it when the call ends.
    const shared = typeof SharedArrayBuffer === 'function' && data.buffer instanceof SharedArrayBuffer;
    if (shared) out.post({ type: 'done', id, cv });
    else out.post({ type: 'done', id, cv, data }, [data.buffer as ArrayBuffer]);
  } catch (e) {
    zeroize(data);
    out.post({ type: 'failed', id, message: e instanceof Error ? e.message : String(e) });
  } finally {
    // postMessage has copied cv; the key is this worker's copy.
    cv.fill(0);
    key.fill(0);
  }
}

const out = await port();
try {
  await ready();
  // Jobs run one at a time, in arrival order: the pool queues at most a few per worker.
  let queue = Promise.resolve();
  out.listen((job) => (queue = queue.then(() => run(job, out))));
  out.post({ type: 'ready' });
} catch (e) {
  out.post({ type: 'failed', id: -1, message: e instanceof Error ? e.message : String(e) });
}
