/**
 * The worker pool of fourfold/parallel (Pool, and `pool`, the one a page
 * or process has): workers started on first use and kept, how many a
 * call may use (configure()'s size, the cores), which to hold a stream's
 * state, and which end: one beyond a lowered size once idle, one that
 * failed, every one at terminate().
 *
 * Its parts: a worker with its slots and jobs (pool-worker.ts), starting
 * one and its scripts (spawn.ts), what a caller holds for a job
 * (job-handle.ts), the messages between them (protocol.ts).
 *
 * A worker that fails to start (a bundle without the worker file, a CSP
 * without worker-src) breaks the pool for the page or process: calls then
 * run on the calling thread, with the same bytes, and status() says why.
 */
import { backgroundTimer, cores } from '../runtime/host.js';
import { canShare, PoolWorker, type WorkerOwner } from './pool-worker.js';

/** How long a worker beyond a lowered size may stay idle before it ends. */
const RETIRE_MS = 1000;

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

export class Pool implements WorkerOwner {
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
    return this.leastPinned(1, this.size)[0];
  }

  /**
   * `count` workers among the first `among` (at most maxWorkers), those
   * holding the least (pin()), for calls that each keep state in theirs:
   * one holding nothing is taken before a new one starts, and a new one
   * (while fewer than `among` run) before one holding some, so that calls
   * made at once go to different workers. Ties go to the first.
   */
  leastPinned(count: number, among: number): PoolWorker[] {
    if (this.failure !== undefined) return [];
    const limit = Math.min(among, this.maxWorkers);
    const wanted = Math.min(count, limit);
    const running = Math.min(this.workers.length, limit);
    const free = this.workers.slice(0, running).filter((w) => w.pinned === 0).length;
    const candidates = this.grow(Math.min(limit, running + Math.max(0, wanted - free)));
    return candidates.sort((a, b) => a.pinned - b.pinned).slice(0, wanted);
  }

  /**
   * A worker's job ended or its state was released: one retiring ends once
   * it has been idle for RETIRE_MS (a size raised again meanwhile keeps it:
   * starting a worker costs tens of milliseconds).
   */
  settled(w: PoolWorker): void {
    if (!w.retiring || w.busy) return;
    // Not a reason for a process to stay alive.
    backgroundTimer(() => {
      if (w.retiring && !w.busy) this.retire(w);
    }, RETIRE_MS);
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
