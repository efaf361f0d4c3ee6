/**
 * The worker pool of fourfold/parallel (and blake3Parallel): workers
 * started on first use and kept, each with a few slots (buffers of up to
 * PIECE bytes) that the calling thread fills, one job after another.
 *
 * - Node, Bun and Deno: node:worker_threads, reached through
 *   process.getBuiltinModule (Node 20.16+), so a bundler sees no node:
 *   import. An idle worker does not keep the process alive (unref), a
 *   worker with a job does.
 * - Browsers: a module Web Worker, `new Worker(new URL('./worker.js',
 *   import.meta.url), { type: 'module' })`, the form Vite, webpack 5 and
 *   Parcel recognise and bundle; with esbuild, which does not, worker.js
 *   (fourfold/worker) is built beside the bundle.
 *
 * Slots are SharedArrayBuffer views where the engine may share memory with
 * workers (always outside browsers; in a cross-origin-isolated page), so a
 * filled slot is posted without a copy; elsewhere a slot is an ArrayBuffer
 * transferred to the worker and back. A call zeroes the slots it used when
 * it ends (zeroing after every job cost the worker 7% of its time).
 *
 * A worker that fails to start (a bundle without the worker file, a CSP
 * without worker-src) breaks the pool for the page or process: calls then
 * run on the calling thread, with the same bytes, and status() says why.
 */
import type { FromWorker, Job, JobParams } from './protocol.js';
import { zeroize } from './bytes.js';
import { builtinModule } from './host.js';
import type { Tier } from './kernels.js';

/** Bytes of a slot: the largest piece of data one job carries. */
export const PIECE = 1 << 20;
/**
 * Jobs given to a worker at once. A finished job's slot comes back at the
 * caller's next turn of the event loop, so with 2 the worker mostly held
 * one job and waited for the next; 3 keeps one queued.
 */
const SLOTS = 3;

interface Handle {
  post(job: Job, transfer: ArrayBuffer[]): void;
  /** Whether the worker has work, so that it keeps the process alive (Node, Bun and Deno; a page has no such notion). */
  hold(on: boolean): void;
  /** Ends the worker; resolves once it has stopped running (or, for a Web Worker, which does not say, a while later). */
  terminate(): Promise<void>;
}

type Listener = (message: FromWorker | { type: 'error'; message: string }) => void;

/**
 * What the pool and its worker use of node:worker_threads, typed here: the
 * package's declaration files (this module's among them) then compile
 * without @types/node, for browser projects too.
 */
export interface WorkerThreads {
  Worker: new (url: URL, options: { execArgv: string[] }) => {
    on(event: 'message', listener: (message: FromWorker) => void): unknown;
    on(event: 'error', listener: (error: Error) => void): unknown;
    on(event: 'exit', listener: (code: number) => void): unknown;
    postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
    ref(): void;
    unref(): void;
    terminate(): Promise<number>;
  };
  parentPort: { postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void; on(event: 'message', listener: (message: never) => void): unknown } | null;
}

/** node:worker_threads where the runtime has it (Node, Bun, Deno), without an import a bundler would follow. */
export const workerThreads = (): WorkerThreads | undefined => builtinModule<WorkerThreads>('node:worker_threads');

/** Where the worker comes from: the package's worker module, or what configure({ workerUrl }) set. */
let workerUrl: URL | undefined;

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

interface DenoTimers {
  unrefTimer(id: number): void;
}

/**
 * Starts a worker; `idle` is called when a Deno worker has been without
 * work for DENO_IDLE_MS (the pool then ends it).
 */
function spawn(listen: Listener, idle: () => void): Handle {
  const deno = (globalThis as { Deno?: DenoTimers }).Deno;
  const threads = deno === undefined ? workerThreads() : undefined;
  if (threads !== undefined) {
    const url = workerUrl ?? new URL(WORKER_MODULE, HERE);
    // No flags of the main thread's (--input-type would stop a worker from starting): worker.js needs none.
    const w = new threads.Worker(url, { execArgv: [] });
    w.on('message', listen);
    w.on('error', (e: Error) => listen({ type: 'error', message: e.message }));
    w.on('exit', (code: number) => listen({ type: 'error', message: `worker exited (code ${code})` }));
    return { post: (job, transfer) => w.postMessage(job, transfer), hold: (on) => (on ? w.ref() : w.unref()), terminate: () => w.terminate().then(() => {}) };
  }
  if (typeof Worker !== 'function') throw new Error('this engine has no Worker');
  const w =
    workerUrl === undefined
      ? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
      : new Worker(workerUrl, { type: 'module' });
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
  return { post: (job, transfer) => w.postMessage(job, transfer), hold, terminate };
}

/**
 * The worker module for worker_threads, as a variable: written literally,
 * a bundler would also emit it as an asset for the browser build, which
 * uses the Web Worker form above. Its base is a variable too: webpack warns
 * of a "critical dependency" for new URL(<expression>, import.meta.url).
 */
const WORKER_MODULE = './worker.js';
const HERE = import.meta.url;

/** Whether slots can be SharedArrayBuffers that workers see without a copy. */
export const canShare = (): boolean =>
  typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;

const EMPTY = new Uint8Array(0);

/**
 * What a job gives back: its result, and the slot with its output (empty
 * for a job without data), which stays the caller's until it calls
 * release() (so no other job, and no zeroing, touches it before the
 * caller has read it).
 */
export interface JobDone {
  readonly result: Uint8Array | undefined;
  readonly data: Uint8Array;
  release(): void;
}

interface Pending {
  resolve(done: JobDone): void;
  reject(e: Error): void;
  /** The slot the job holds (undefined for call()), and how many of its bytes the job's data filled. */
  slot: Uint8Array | undefined;
  bytes: number;
  /** The bytes of input the job works on (for queued). */
  work: number;
}

/** A job's rejection: its worker failed it, died or was terminated; the caller does the piece itself. */
export class WorkerLost extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerLost';
  }
}

/** One worker: its slots, its jobs in flight. */
export class PoolWorker {
  ready = false;
  private ended = false;
  private handle: Handle | undefined;
  private readonly free: Uint8Array[] = [];
  /** How many leading bytes of the slots may hold data since they were last zeroed. */
  private dirty = 0;
  /** Slots whose job is done and whose caller has not released them yet. */
  private held = 0;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private started!: (ok: boolean) => void;
  /** Streams (secretstream) whose state this worker holds: it must not be ended for idleness while any is open. */
  private streams = 0;
  /** Resolves to true once the worker takes jobs, to false if it failed to start or ended first. */
  readonly whenReady = new Promise<boolean>((resolve) => (this.started = resolve));

  constructor(private readonly pool: Pool) {
    const shared = canShare();
    for (let i = 0; i < SLOTS; i++) this.free.push(new Uint8Array(shared ? new SharedArrayBuffer(PIECE) : new ArrayBuffer(PIECE)));
  }

  start(): void {
    this.handle = spawn(
      (m) => this.receive(m),
      () => this.streams === 0 && this.pending.size === 0 && this.pool.retire(this),
    );
    // Starting, it keeps the process alive: a caller may be waiting for it (whenReady).
    this.handle.hold(true);
  }

  /** Whether a job with a slot can be given now. */
  get idle(): boolean {
    return this.ready && this.free.length > 0;
  }

  /** Bytes of the jobs given and not answered yet. */
  get queued(): number {
    let bytes = 0;
    for (const p of this.pending.values()) bytes += p.work;
    return bytes;
  }

  /** A free slot's first `bytes` bytes, to fill and pass to run(). */
  slot(bytes: number): Uint8Array {
    return this.free[this.free.length - 1]!.subarray(0, bytes);
  }

  /**
   * Runs `op` (parallel/jobs.ts) on `data`, which is slot(data.length),
   * filled, or undefined for a job whose params carry everything (it still
   * holds a slot while it runs: a worker has at most SLOTS jobs). Every
   * ArrayBuffer in `transfer` moves to the worker (the caller keeps no copy
   * of what it held); `work` is the input's length where the job reads it
   * from params. Resolves to the job's result and the slot with the
   * worker's output in it, to be read before the next turn of the event
   * loop, when the slot may take another job.
   */
  run(op: string, tier: Tier, params: JobParams, data: Uint8Array | undefined, transfer: ArrayBuffer[] = [], work = data?.length ?? 0): Promise<JobDone> {
    const slot = this.free.pop()!;
    const bytes = data?.length ?? 0;
    this.dirty = Math.max(this.dirty, bytes);
    if (data !== undefined && slot.buffer instanceof ArrayBuffer) transfer.push(slot.buffer);
    return this.send({ op, tier, params, data }, transfer, { slot, bytes, work });
  }

  /**
   * Runs `op` with params only, outside the slots (secretstream's messages,
   * which the stream bounds itself); resolves to its result.
   */
  async call(op: string, tier: Tier, params: JobParams, transfer: ArrayBuffer[] = []): Promise<Uint8Array | undefined> {
    return (await this.send({ op, tier, params, data: undefined }, transfer, { slot: undefined, bytes: 0, work: 0 })).result;
  }


  private send(job: Omit<Job, 'type' | 'id'>, transfer: ArrayBuffer[], p: Pick<Pending, 'slot' | 'bytes' | 'work'>): Promise<JobDone> {
    const id = this.nextId++;
    const done = new Promise<JobDone>((resolve, reject) => this.pending.set(id, { resolve, reject, ...p }));
    if (this.pending.size === 1) this.handle!.hold(true);
    this.handle!.post({ type: 'job', id, ...job }, transfer);
    return done;
  }

  private receive(m: FromWorker | { type: 'error'; message: string }): void {
    if (this.ended) return;
    if (m.type === 'ready') {
      this.ready = true;
      if (this.pending.size === 0) this.handle!.hold(false);
      this.started(true);
      return;
    }
    if (m.type === 'done' || m.type === 'failed') {
      // A job's answer (a failed one too: the worker goes on), with its slot when it was transferred.
      const p = this.pending.get(m.id)!;
      this.pending.delete(m.id);
      const slot = m.data !== undefined ? new Uint8Array(m.data.buffer, 0, PIECE) : p.slot;
      if (this.pending.size === 0) this.handle!.hold(false);
      if (m.type === 'done') {
        this.pool.jobs++;
        if (slot !== undefined) this.held++;
        p.resolve({
          result: m.result,
          data: slot?.subarray(0, p.bytes) ?? EMPTY,
          release: () => {
            if (slot !== undefined) this.held--;
            this.release(slot);
          },
        });
      } else {
        this.release(slot);
        p.reject(new WorkerLost(m.message));
      }
      return;
    }
    // The worker could not start, or died.
    this.pool.broken(this, m.message);
  }

  /** A stream's state now lives in this worker (openStream), or no longer (closeStream). */
  openStream(): void {
    this.streams++;
  }

  closeStream(): void {
    this.streams--;
    if (this.pending.size === 0 && this.ready) this.handle!.hold(false);
  }

  /** A slot back among the free ones (zeroed, if the worker has ended meanwhile). */
  private release(slot: Uint8Array | undefined): void {
    if (slot === undefined) return;
    if (this.ended) zeroize(slot);
    else this.free.push(slot);
  }

  /** Zeroes the free slots' data (a call's last step; slots still busy are zeroed by the call they belong to). */
  zeroSlots(): void {
    for (const slot of this.free) zeroize(slot.subarray(0, this.dirty));
    if (this.pending.size === 0 && this.held === 0) this.dirty = 0;
  }

  terminate(reason = 'the pool was terminated'): void {
    this.ready = false;
    this.ended = true;
    this.started(false);
    // Shared slots of jobs in flight are ours again, but the worker may write to them until it
    // has stopped: zeroed now with the free ones, and again then.
    const inflight: Uint8Array[] = [];
    for (const p of this.pending.values()) {
      if (p.slot !== undefined && p.slot.buffer.byteLength > 0) inflight.push(p.slot);
      p.reject(new WorkerLost(reason));
    }
    this.pending.clear();
    this.free.push(...inflight);
    this.zeroSlots();
    void this.handle?.terminate().then(() => inflight.forEach((slot) => zeroize(slot)));
  }
}

/** What status() and warm() tell of the pool of fourfold/parallel. */
export interface PoolStatus {
  /** Workers started (ready or starting). */
  workers: number;
  /** Workers that have compiled their kernels and take jobs. */
  ready: number;
  /** Jobs the workers have completed since the page or process started. */
  jobs: number;
  /** Whether slots are shared with workers (SharedArrayBuffer) rather than transferred. */
  shared: boolean;
  /** Why calls run on the calling thread only, once a worker failed to start or died; undefined while workers can be used. */
  failure: string | undefined;
}

export class Pool {
  readonly workers: PoolWorker[] = [];
  jobs = 0;
  failure: string | undefined;
  /** The worker count configure() set, or undefined for the default. */
  size: number | undefined;

  /** At least `count` workers, started (not necessarily ready yet); none once the pool is broken. */
  grow(count: number): PoolWorker[] {
    if (this.failure !== undefined) return [];
    while (this.workers.length < count) {
      const w = new PoolWorker(this);
      this.workers.push(w);
      try {
        w.start();
      } catch (e) {
        this.broken(w, e instanceof Error ? e.message : String(e));
        return [];
      }
    }
    return this.workers.slice(0, count);
  }

  /**
   * A worker failed: one that never started (a bundle without worker.js, a
   * CSP without worker-src) means none will, and calls then run on the
   * calling thread; one that died after it started is replaced by the
   * next call that needs it. Its jobs' callers do their pieces themselves.
   */
  broken(w: PoolWorker, reason: string): void {
    const unavailable = !w.ready && this.failure === undefined;
    if (unavailable) {
      this.failure = reason;
      // Said once: a page whose bundle lacks the worker file otherwise only sees calls running slower.
      console.warn(`fourfold/parallel: workers are not available (${reason}); calls run on the calling thread`);
    }
    // Workers still starting would fail alike (the same file, the same policy): ended with it, so status() shows none.
    for (const other of unavailable ? [w, ...this.workers.filter((o) => o !== w && !o.ready)] : [w]) {
      other.terminate(`a worker failed: ${reason}`);
      const i = this.workers.indexOf(other);
      if (i >= 0) this.workers.splice(i, 1);
    }
  }

  /** Ends a worker that has been idle (Deno: see DENO_IDLE_MS); a later call starts another. */
  retire(w: PoolWorker): void {
    w.terminate('the worker was idle');
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
  }

  /** Ends every worker; a later call starts new ones (and tries again after a failure). */
  terminate(): void {
    for (const w of this.workers.splice(0)) w.terminate();
    this.failure = undefined;
  }

  status(): PoolStatus {
    return { workers: this.workers.length, ready: this.workers.filter((w) => w.ready).length, jobs: this.jobs, shared: canShare(), failure: this.failure };
  }
}

export const pool = new Pool();
