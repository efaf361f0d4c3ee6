/**
 * Starting one of the pool's workers, and its end of the connection
 * (Handle): posting, keeping the process alive, terminating. Where the
 * script comes from is set here too: the scripts fourfold/parallel gives
 * (WorkerScripts), or configure({ workerUrl }).
 *
 * - Node, Bun and Deno: node:worker_threads (threads.ts). An idle worker
 *   does not keep the process alive (unref), a worker with a job does. A
 *   stream's state held in a worker between two of its jobs does not
 *   either: a stream waiting for data has a source that keeps the process
 *   alive, or it will get none. Nor does a starting worker, unless a
 *   caller waits for it (PoolWorker.whenReady).
 * - Browsers: a module Web Worker, `new Worker(new URL('./worker.js',
 *   import.meta.url), { type: 'module' })`, the form Vite, webpack 5 and
 *   Parcel recognise and bundle; with esbuild, which does not, worker.js
 *   (fourfold/worker) is built beside the bundle. That form is written
 *   where the families are composed (src/parallel/web-workers.ts), beside
 *   the scripts, and given to the pool (WorkerScripts) by
 *   fourfold/parallel's default entry: its edge entry has none.
 * - Deno's Web Workers keep a process alive and have no unref(): one idle
 *   for a while is ended (DENO_IDLE_MS).
 *
 * The worker behind the Handle, its slots and its jobs, is pool-worker.ts's.
 */
import type { FromWorker, Job } from './protocol.js';
import type { DenoTimers } from '../runtime/host.js';
import type { OwnTier } from '../runtime/kernels.js';
import { workerThreads } from './threads.js';

/** A worker's end of the connection: posting, keeping the process alive, terminating. */
export interface Handle {
  post(message: Job | { type: 'setup'; claims: Int32Array | undefined }, transfer: ArrayBuffer[]): void;
  /** Whether the worker has work, so that it keeps the process alive (Node, Bun and Deno; a page has no such notion); a new one does not. */
  hold(on: boolean): void;
  /**
   * Ends the worker; resolves once it has stopped running (or, for a Web
   * Worker, which does not say, a while later). The stop keeps the process
   * alive only once hold(true) asks for it.
   */
  terminate(): Promise<void>;
}

/** Where a worker's messages go, and its failure to start or its exit, as an 'error' message. */
export type Listener = (message: FromWorker | { type: 'error'; message: string }) => void;

/** Where the worker comes from: the package's worker module, or what configure({ workerUrl }) set. */
let workerUrl: URL | undefined;

/** configure({ workerUrl }): the script every worker started from now on runs (relative to the page), or undefined for the package's. */
export function setWorkerUrl(url: string | URL | undefined): void {
  workerUrl = url === undefined ? undefined : new URL(url, (globalThis as { location?: { href: string } }).location?.href);
}

/**
 * Deno keeps a process alive while any Web Worker runs and has no unref()
 * for them (its node:worker_threads workers have one, but ran jobs at a
 * hundredth of the speed here): a Deno worker without work for this long
 * is ended, so that a script exits soon after its last call.
 */
const DENO_IDLE_MS = 250;

/** How long a terminated Web Worker may still run (it finishes the WebAssembly call it is in). */
const STOP_MS = 1000;

/**
 * Where the pool's worker scripts are: named where the families are
 * composed (src/parallel/workers.ts, beside the scripts, so that a bundle
 * finds them beside itself), never here, so the pool names no family.
 */
export interface WorkerScripts {
  /** A module Web Worker of `tier` (each form written out there, so that bundlers emit both scripts). */
  web(tier: OwnTier): Worker;
  /** The module of `tier`'s script, for node:worker_threads. */
  module(tier: OwnTier): URL;
}

let scripts: WorkerScripts | undefined;

/** The scripts the pool starts (the first call sets them; configure({ workerUrl }) still overrides them). */
export function useWorkerScripts(s: WorkerScripts): void {
  scripts ??= s;
}

/** The scripts set, or an error that ends the pool's start as a worker that cannot start does. */
function workerScripts(): WorkerScripts {
  if (scripts === undefined) throw new Error('no worker scripts: fourfold/parallel sets them (src/parallel/workers.ts)');
  return scripts;
}

/** A module Web Worker of `tier`, or of configure({ workerUrl }). */
const webWorker = (tier: OwnTier): Worker => (workerUrl !== undefined ? new Worker(workerUrl, { type: 'module' }) : workerScripts().web(tier));

/**
 * Starts a worker of `tier` (configure({ workerUrl }): that script for
 * either); `idle` is called when a Deno worker has been without work for
 * DENO_IDLE_MS (the pool then ends it).
 */
export function spawn(tier: OwnTier, listen: Listener, idle: () => void): Handle {
  const deno = (globalThis as { Deno?: DenoTimers }).Deno;
  const threads = deno === undefined ? workerThreads() : undefined;
  if (threads !== undefined) {
    const url = workerUrl ?? workerScripts().module(tier);
    // No flags of the main thread's (--input-type would stop a worker from starting): worker.js needs none.
    const w = new threads.Worker(url, { execArgv: [] });
    w.on('message', listen);
    w.on('error', (e: Error) => listen({ type: 'error', message: e.message }));
    w.on('exit', (code: number) => listen({ type: 'error', message: `worker exited (code ${code})` }));
    // After the listeners: Node refs a worker's port again when a 'message' listener is added.
    w.unref();
    const terminate = (): Promise<void> => {
      const stopped = w.terminate();
      // Node's terminate() refs the worker until it has stopped, for the caller awaiting that.
      w.unref();
      return stopped.then(() => {});
    };
    return { post: (m, transfer) => w.postMessage(m, transfer), hold: (on) => (on ? w.ref() : w.unref()), terminate };
  }
  if (typeof Worker !== 'function') throw new Error('this engine has no Worker');
  const w = webWorker(tier);
  w.onmessage = (e: MessageEvent) => listen(e.data as FromWorker);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    listen({ type: 'error', message: e.message || 'the worker failed to load' });
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hold = (on: boolean): void => {
    clearTimeout(timer);
    timer = undefined;
    if (on || deno === undefined) return;
    timer = setTimeout(idle, DENO_IDLE_MS);
    deno.unrefTimer(timer as unknown as number);
  };
  const terminate = (): Promise<void> => {
    hold(true);
    w.terminate();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, STOP_MS);
      deno?.unrefTimer(t as unknown as number);
    });
  };
  return { post: (m, transfer) => w.postMessage(m, transfer), hold, terminate };
}
