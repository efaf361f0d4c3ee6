/**
 * The worker pool of fourfold/parallel: workers started on first use and
 * kept, each with a few slots (buffers of up to PIECE bytes) that the
 * calling thread fills, one job after another.
 *
 * - Node, Bun and Deno: node:worker_threads (threads.ts). An idle worker
 *   does not keep the process alive (unref), a worker with a job does. A
 *   stream's state held in a worker between two of its jobs does not
 *   either: a stream waiting for data has a source that keeps the process
 *   alive, or it will get none.
 * - Browsers: a module Web Worker, `new Worker(new URL('./worker.js',
 *   import.meta.url), { type: 'module' })`, the form Vite, webpack 5 and
 *   Parcel recognise and bundle; with esbuild, which does not, worker.js
 *   (fourfold/worker) is built beside the bundle. That form is written
 *   where the families are composed (src/parallel/workers.ts), beside the
 *   scripts, and given to the pool (WorkerScripts).
 *
 * A worker runs the tier its script carries (protocol.ts): worker.js the
 * simd engines, sent the compiled kernels with its first jobs, wherever
 * the engine can run them; worker-js.js the js engines elsewhere (no
 * WebAssembly SIMD, a policy that forbids it). A page downloads only the
 * one it starts, so the simd worker carries no js tier.
 *
 * Slots are SharedArrayBuffer views where the engine may share memory with
 * workers (always outside browsers; in a cross-origin-isolated page), so a
 * filled slot is posted without a copy; elsewhere a slot is an ArrayBuffer
 * transferred to the worker and back. A call zeroes the slots it used when
 * it ends (zeroing after every job cost the worker 7% of its time). With
 * shared memory each slot also has a claim word (protocol.ts), through
 * which the calling thread can take a job back before the worker starts it.
 *
 * A worker that fails to start (a bundle without the worker file, a CSP
 * without worker-src) breaks the pool for the page or process: calls then
 * run on the calling thread, with the same bytes, and status() says why.
 */
import { bytesOf, QUEUED, TAKEN, type FromWorker, type JobResult, type JobTable, type Job } from './protocol.js';
import { zeroize } from '../runtime/bytes.js';
import { cores } from '../runtime/host.js';
import { kernelsFor, nativeWelcome, workerTier, type OwnTier } from '../runtime/kernels.js';
import { workerThreads } from './threads.js';

/** Bytes of a slot: the largest piece of data one job carries. */
export const PIECE = 1 << 20;
/**
 * Jobs given to a worker at once. A finished job's slot comes back at the
 * caller's next turn of the event loop, so with 2 the worker mostly held
 * one job and waited for the next; 3 keeps one queued.
 */
const SLOTS = 3;

/** A worker's end of the connection: posting, keeping the process alive, terminating. */
interface Handle {
  post(message: Job | { type: 'setup'; claims: Int32Array | undefined }, transfer: ArrayBuffer[]): void;
  /** Whether the worker has work, so that it keeps the process alive (Node, Bun and Deno; a page has no such notion). */
  hold(on: boolean): void;
  /** Ends the worker; resolves once it has stopped running (or, for a Web Worker, which does not say, a while later). */
  terminate(): Promise<void>;
}

type Listener = (message: FromWorker | { type: 'error'; message: string }) => void;

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

/** How long a worker beyond a lowered size may stay idle before it ends. */
const RETIRE_MS = 1000;

/** How long a terminated Web Worker may still run (it finishes the WebAssembly call it is in). */
const STOP_MS = 1000;

interface DenoTimers {
  unrefTimer(id: number): void;
}

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
function spawn(tier: OwnTier, listen: Listener, idle: () => void): Handle {
  const deno = (globalThis as { Deno?: DenoTimers }).Deno;
  const threads = deno === undefined ? workerThreads() : undefined;
  if (threads !== undefined) {
    const url = workerUrl ?? workerScripts().module(tier);
    // No flags of the main thread's (--input-type would stop a worker from starting): worker.js needs none.
    const w = new threads.Worker(url, { execArgv: [] });
    w.on('message', listen);
    w.on('error', (e: Error) => listen({ type: 'error', message: e.message }));
    w.on('exit', (code: number) => listen({ type: 'error', message: `worker exited (code ${code})` }));
    return { post: (m, transfer) => w.postMessage(m, transfer), hold: (on) => (on ? w.ref() : w.unref()), terminate: () => w.terminate().then(() => {}) };
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

/** Whether slots can be SharedArrayBuffers that workers see without a copy. */
export const canShare = (): boolean =>
  typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;

const EMPTY = new Uint8Array(0);

/** Whether this engine posts a WebAssembly.Module to a worker (false after a DataCloneError: kernels then go as bytes). */
let modulesCloneable = true;

/**
 * A worker the pool needed is gone (terminate(), configure({ workerUrl }),
 * a crash, or it could not start) while something depended on it: state
 * a family keeps in one worker (pin(), a stream's, say) is lost with it.
 * One-shot calls never see it: the calling thread redoes their pieces.
 */
export class WorkerLostError extends Error {
  /** An error whose message says which worker was lost and why. */
  constructor(message: string) {
    super(message);
    this.name = 'WorkerLostError';
  }
}

/**
 * What a job gives back: its result, and the slot with its output (empty
 * for a job without data), which stays the caller's until it calls
 * release() (so no other job, and no zeroing, touches it before the
 * caller has read it). `skipped`: the caller took the job back (claim())
 * and the worker did nothing.
 */
export interface JobDone<R> {
  readonly result: R;
  readonly data: Uint8Array;
  readonly skipped: boolean;
  release(): void;
  /**
   * Releases the slot zeroed (as far as any job may have filled it), and
   * the result: for an answer nobody takes, which may come after its call
   * ended and zeroed the free slots, while this one was busy.
   */
  discard(): void;
}

/** A job in flight: its answer, and a way to take it back before the worker starts it. */
export interface JobHandle<R> {
  readonly done: Promise<JobDone<R>>;
  /** Takes the job back if the worker has not started it (the worker then answers skipped); false once it has, or without shared memory. */
  claim(): boolean;
}

interface Pending {
  resolve(done: JobDone<JobResult>): void;
  reject(e: Error): void;
  /** The slot the job holds (its index; -1 for call()), and how many of its bytes the job's data filled. */
  slot: number;
  bytes: number;
  /** The bytes of input the job works on (for queued). */
  work: number;
}

/** Where a job's bytes come from and go, besides its slot (protocol.ts Job). */
export interface JobBytes {
  /** The caller's SharedArrayBuffer views the worker reads or writes directly. */
  input?: Uint8Array;
  output?: Uint8Array;
  copyIn?: boolean;
}

/** One worker: its slots, its jobs in flight. */
export class PoolWorker {
  ready = false;
  /** The engines the worker runs, as its ready message said (undefined until then). */
  tier: OwnTier | undefined;
  private ended = false;
  private handle: Handle | undefined;
  private readonly slots: Uint8Array[] = [];
  /** Indexes of the free slots. */
  private readonly free: number[] = [];
  /** The slots' claim words (shared memory), or undefined. */
  private readonly claims: Int32Array | undefined;
  /** How many leading bytes of the slots may hold data since they were last zeroed. */
  private dirty = 0;
  /** Slots whose job is done and whose caller has not released them yet. */
  private held = 0;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** The kernels this worker has been sent (with a job: kernelsFor). */
  private readonly kernels = new Set<string>();
  private started!: (ok: boolean) => void;
  /** Things that keep state in this worker (pin()): it is not ended for idleness while any does. */
  private pins = 0;
  /** Resolves to true once the worker takes jobs, to false if it failed to start or ended first. */
  readonly whenReady = new Promise<boolean>((resolve) => (this.started = resolve));
  /** Resolves once the worker has stopped running after terminate() (pending until then). */
  stopped: Promise<void> = new Promise(() => {});

  constructor(private readonly owner: Pool) {
    const shared = canShare();
    for (let i = 0; i < SLOTS; i++) {
      this.slots.push(new Uint8Array(shared ? new SharedArrayBuffer(PIECE) : new ArrayBuffer(PIECE)));
      this.free.push(i);
    }
    this.claims = shared ? new Int32Array(new SharedArrayBuffer(4 * SLOTS)) : undefined;
  }

  start(): void {
    this.handle = spawn(
      workerTier(),
      (m) => this.receive(m),
      () => this.pins === 0 && this.pending.size === 0 && this.owner.retire(this),
    );
    this.handle.post({ type: 'setup', claims: this.claims }, []);
    // Starting, it keeps the process alive: a caller may be waiting for it (whenReady).
    this.handle.hold(true);
  }

  /** Set when the pool shrank below this worker: it takes no new job, and ends once idle. */
  retiring = false;

  /** Whether the worker may still take jobs: not terminated, not failed. */
  get alive(): boolean {
    return !this.ended;
  }

  /** Whether a job with a slot can be given now. */
  get idle(): boolean {
    return this.ready && this.free.length > 0 && !this.ended && !this.retiring;
  }

  /** Bytes of the jobs given and not answered yet. */
  get queued(): number {
    let bytes = 0;
    for (const p of this.pending.values()) bytes += p.work;
    return bytes;
  }

  /** Jobs given and not answered yet, and things pinned here: what keeps it from being retired. */
  get busy(): boolean {
    return this.pending.size > 0 || this.pins > 0 || this.held > 0;
  }

  /** The things whose state this worker holds (pin()). */
  get pinned(): number {
    return this.pins;
  }

  /**
   * The free slots (for tests: they must be zero between calls). A slot
   * still transferred to an ended worker is detached: nothing of it is here.
   */
  get freeSlots(): Uint8Array[] {
    return this.free.map((i) => this.slots[i]!).filter((slot) => slot.buffer.byteLength > 0);
  }

  /** A free slot's first `bytes` bytes, to fill and pass to run(). */
  slot(bytes: number): Uint8Array {
    return this.slots[this.free[this.free.length - 1]!]!.subarray(0, bytes);
  }

  /**
   * Runs `op` of the family table T with `params` on the slot (its first
   * `bytes` bytes, filled by the caller where the job reads it: slot()),
   * or on the caller's shared views in `shared`. Every ArrayBuffer in
   * `transfer` moves to the worker (the caller keeps no copy of what it
   * held); `work` is the bytes of input the job works on. Its answer
   * resolves to the job's result and the slot with the worker's output,
   * to be read before the next turn of the event loop, when the slot may
   * take another job.
   */
  run<T extends JobTable, K extends keyof T & string>(
    op: K,
    params: T[K]['params'],
    bytes: number,
    shared: JobBytes = {},
    transfer: ArrayBuffer[] = [],
    work = bytes,
  ): JobHandle<T[K]['result']> {
    const index = this.free.pop()!;
    const slot = this.slots[index]!;
    this.dirty = Math.max(this.dirty, bytes);
    if (slot.buffer instanceof ArrayBuffer) transfer.push(slot.buffer);
    const claims = this.claims;
    if (claims !== undefined) Atomics.store(claims, index, QUEUED);
    const done = this.send({ op, params, claim: index, slot: slot.subarray(0, bytes), ...shared }, transfer, { slot: index, bytes, work });
    return {
      done: done as Promise<JobDone<T[K]['result']>>,
      claim: () => claims !== undefined && !this.ended && Atomics.compareExchange(claims, index, QUEUED, TAKEN) === QUEUED,
    };
  }

  /**
   * Runs `op` with params only, outside the slots (for jobs whose inputs
   * their caller bounds itself, such as a stream's messages); resolves to
   * its result.
   */
  async call<T extends JobTable, K extends keyof T & string>(op: K, params: T[K]['params'], transfer: ArrayBuffer[] = []): Promise<T[K]['result']> {
    const done = await this.send({ op, params, claim: -1, slot: undefined }, transfer, { slot: -1, bytes: 0, work: 0 });
    return done.result as T[K]['result'];
  }

  private send(job: Omit<Job, 'type' | 'id' | 'native'>, transfer: ArrayBuffer[], p: Pick<Pending, 'slot' | 'bytes' | 'work'>): Promise<JobDone<JobResult>> {
    // An ended worker answers nothing: its job fails now, as its jobs in flight did when it ended.
    if (this.ended) {
      if (p.slot >= 0) this.free.push(p.slot);
      return Promise.reject(new WorkerLostError('the worker has ended'));
    }
    const id = this.nextId++;
    const done = new Promise<JobDone<JobResult>>((resolve, reject) => this.pending.set(id, { resolve, reject, ...p }));
    if (this.pending.size === 1) this.handle!.hold(true);
    this.post({ type: 'job', id, native: nativeWelcome(), ...job }, transfer);
    return done;
  }

  /** Posts a job, to a simd worker with the kernels it lacks, as modules or, where the engine cannot post one, as bytes. */
  private post(job: Job, transfer: ArrayBuffer[]): void {
    const kernels = this.tier === 'simd' ? kernelsFor(this.kernels, !modulesCloneable) : undefined;
    try {
      this.handle!.post(kernels === undefined ? job : { ...job, kernels }, transfer);
    } catch (e) {
      if (kernels === undefined || !modulesCloneable || (e as Error | undefined)?.name !== 'DataCloneError') throw e;
      modulesCloneable = false;
      for (const name of Object.keys(kernels)) this.kernels.delete(name);
      this.handle!.post({ ...job, kernels: kernelsFor(this.kernels, true) }, transfer);
    }
  }

  private receive(m: FromWorker | { type: 'error'; message: string }): void {
    if (this.ended) return;
    if (m.type === 'ready') {
      this.tier = m.tier;
      this.ready = true;
      if (this.pending.size === 0) this.handle!.hold(false);
      this.started(true);
      return;
    }
    if (m.type === 'error') {
      // The worker could not start, or died.
      this.owner.broken(this, m.message);
      return;
    }
    // A job's answer (a failed one too: the worker goes on), with its slot when it was transferred.
    const p = this.pending.get(m.id)!;
    this.pending.delete(m.id);
    if (m.slot !== undefined && p.slot >= 0) this.slots[p.slot] = new Uint8Array(m.slot.buffer, 0, PIECE);
    if (this.pending.size === 0) this.handle!.hold(false);
    if (m.type === 'failed') {
      this.release(p.slot);
      p.reject(new WorkerLostError(m.message));
      // It cannot run its kernels: no worker of this script will (the same engine, the same policy).
      if (m.fatal === true) this.owner.broken(this, `a worker cannot run its kernels (${m.message})`, true);
      return;
    }
    if (m.type === 'done') this.owner.jobs++;
    const slot = p.slot;
    if (slot >= 0) this.held++;
    const release = (): void => {
      if (slot >= 0) this.held--;
      this.release(slot);
      this.owner.settled(this);
    };
    p.resolve({
      result: m.type === 'done' ? m.result : undefined,
      data: slot >= 0 ? this.slots[slot]!.subarray(0, p.bytes) : EMPTY,
      skipped: m.type === 'skipped',
      release,
      discard: () => {
        if (slot >= 0) zeroize(this.slots[slot]!.subarray(0, this.dirty));
        // A result nobody takes may be a job's output (protocol.ts moved()): it holds what the slot would have.
        if (m.type === 'done') bytesOf(m.result)?.fill(0);
        release();
      },
    });
  }

  /** Ends this worker as failed (a job far overdue: schedule.ts): its jobs reject, and the next call that needs a worker starts another. */
  abandon(reason: string): void {
    this.owner.broken(this, reason);
  }

  /** State now lives in this worker (a stream's, say), or no longer: it must not be retired meanwhile (it does not keep the process alive). */
  pin(): void {
    this.pins++;
  }

  unpin(): void {
    this.pins--;
    this.owner.settled(this);
  }

  /** A slot back among the free ones (zeroed, if the worker has ended meanwhile). */
  private release(slot: number): void {
    if (slot < 0) return;
    if (this.ended) zeroize(this.slots[slot]!);
    else this.free.push(slot);
  }

  /** Zeroes the free slots' data (a call's last step; slots still busy are zeroed by the call they belong to). */
  zeroSlots(): void {
    // A slot still transferred to an ended worker (its job was pending at terminate()) is a view
    // of a detached buffer, with nothing here to zero: WebKit's subarray() throws on one.
    for (const i of this.free) if (this.slots[i]!.byteLength > 0) zeroize(this.slots[i]!.subarray(0, this.dirty));
    if (this.pending.size === 0 && this.held === 0) this.dirty = 0;
  }

  terminate(reason = 'the pool was terminated'): void {
    if (this.ended) return;
    this.ready = false;
    this.ended = true;
    this.started(false);
    // Shared slots of jobs in flight are ours again, but the worker may write to them until it
    // has stopped: zeroed now with the free ones, and again then.
    const inflight: Uint8Array[] = [];
    for (const p of this.pending.values()) {
      if (p.slot >= 0) {
        const slot = this.slots[p.slot]!;
        if (slot.buffer.byteLength > 0) inflight.push(slot);
        this.free.push(p.slot);
      }
      p.reject(new WorkerLostError(reason));
    }
    this.pending.clear();
    this.zeroSlots();
    this.stopped =
      this.handle?.terminate().then(() => {
        for (const slot of inflight) zeroize(slot);
      }) ?? Promise.resolve();
    void this.stopped;
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
  /** Streams and scrypt lanes whose state a worker holds now (fourfold/parallel's secretstream and scrypt): each lets go of it however it ends. */
  streams: number;
  /**
   * Whether calls leave the workers out for now because the process's
   * threads got about one core between them (another program holds the
   * others; docs/parallel.md, scheduling rule 5); they try again within a
   * second, or up to 8 s while the judgement keeps finding it.
   */
  contended: boolean;
}

export class Pool {
  readonly workers: PoolWorker[] = [];
  jobs = 0;
  failure: string | undefined;
  /** The worker count configure() set, or undefined for the default. */
  private configured: number | undefined;
  /** Tests only (src/testing.ts): a limit other than the logical cores, to run more workers than this machine has cores. */
  limit: number | undefined;

  /**
   * The most workers the pool starts: the logical cores. More threads than
   * cores cannot run at once, so they would add no speed, only memory (each
   * worker holds its slots, its kernels' memory and an engine instance, some
   * 15 MiB in Node).
   */
  get maxWorkers(): number {
    return this.limit ?? Math.max(1, cores());
  }

  /** The workers a call may use: configure()'s count, else the logical cores less one (the calling thread works too). */
  get size(): number {
    return Math.min(this.configured ?? this.maxWorkers - 1, this.maxWorkers);
  }

  /** Sets the size (undefined: the default); workers beyond it end once they are idle. */
  resize(count: number | undefined): void {
    this.configured = count;
    this.trim();
  }

  /** At least `count` workers (at most maxWorkers), started (not necessarily ready yet); none once the pool is broken. */
  grow(count: number): PoolWorker[] {
    if (this.failure !== undefined) return [];
    const wanted = Math.min(count, this.maxWorkers);
    // A retiring worker wanted again stays.
    for (const w of this.workers.slice(0, wanted)) w.retiring = false;
    while (this.workers.length < wanted) {
      const w = new PoolWorker(this);
      this.workers.push(w);
      try {
        w.start();
      } catch (e) {
        this.broken(w, e instanceof Error ? e.message : String(e));
        return [];
      }
    }
    return this.workers.slice(0, wanted);
  }

  /**
   * A worker to hold some state (a stream's, say): the one holding the
   * least (pin()), a new one while the pool is below its size and every
   * worker holds some; undefined when there can be none.
   */
  forState(): PoolWorker | undefined {
    if (this.failure !== undefined || this.size === 0) return undefined;
    const least = this.workers
      .slice(0, this.size)
      .reduce<PoolWorker | undefined>((best, w) => (best === undefined || w.pinned < best.pinned ? w : best), undefined);
    if (least !== undefined && (least.pinned === 0 || this.workers.length >= this.size)) return least;
    return this.grow(this.workers.length + 1).at(-1);
  }

  /**
   * A worker's job ended or its state was released: one retiring ends once
   * it has been idle for RETIRE_MS (a size raised again meanwhile keeps it:
   * starting a worker costs tens of milliseconds).
   */
  settled(w: PoolWorker): void {
    if (!w.retiring || w.busy) return;
    const timer = setTimeout(() => {
      if (w.retiring && !w.busy) this.retire(w);
    }, RETIRE_MS);
    // Not a reason for a process to stay alive (Node, Bun; Deno's timers).
    (timer as { unref?: () => void }).unref?.();
    (globalThis as { Deno?: DenoTimers }).Deno?.unrefTimer(timer as unknown as number);
  }

  /** The workers beyond the pool's size, after configure() lowered it, take no more jobs, and end once idle for RETIRE_MS. */
  trim(): void {
    for (const w of this.workers.slice(this.size)) {
      w.retiring = true;
      this.settled(w);
    }
  }

  /**
   * A worker failed: one that never started (a bundle without worker.js, a
   * CSP without worker-src), or one that cannot run its kernels (`kernels`),
   * means none will, and calls then run on the calling thread; one that
   * died after it started is replaced by the next call that needs it. Its
   * jobs' callers do their pieces themselves.
   */
  broken(w: PoolWorker, reason: string, kernels = false): void {
    const unavailable = (kernels || !w.ready) && this.failure === undefined;
    if (unavailable) {
      this.failure = reason;
      // Said once: a page whose bundle lacks the worker file otherwise only sees calls running slower.
      console.warn(`fourfold/parallel: workers are not available (${reason}); calls run on the calling thread`);
    }
    // Workers still starting would fail alike (the same file, the same policy), and so would every worker that
    // cannot run its kernels: ended with it, so status() shows none.
    const alike = (o: PoolWorker) => o !== w && (kernels || !o.ready);
    for (const other of unavailable ? [w, ...this.workers.filter(alike)] : [w]) {
      other.terminate(`a worker failed: ${reason}`);
      const i = this.workers.indexOf(other);
      if (i >= 0) this.workers.splice(i, 1);
    }
  }

  /** Ends a worker that is idle (Deno: see DENO_IDLE_MS) or beyond the pool's size; a later call starts another. */
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

  /** The pool's state; `contended` is the scheduler's to say (status() in parallel/control.ts). */
  status(): Omit<PoolStatus, 'contended'> {
    return {
      workers: this.workers.length,
      ready: this.workers.filter((w) => w.ready).length,
      jobs: this.jobs,
      shared: canShare(),
      failure: this.failure,
      streams: this.workers.reduce((n, w) => n + w.pinned, 0),
    };
  }
}

export const pool = new Pool();
