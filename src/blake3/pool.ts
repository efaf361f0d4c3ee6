/**
 * The worker pool behind blake3Parallel: workers started on first use and
 * kept (a Node process can still exit: a worker holds the event loop only
 * while it has a job), each with a few slots (buffers of up to PIECE
 * bytes) that the caller fills, one job after another, and zeroes when
 * its call ends (zeroing after every job cost the worker 7% of its time).
 *
 * - Node, Bun: node:worker_threads, the module dist/blake3/worker.js.
 * - Browsers and Deno: a module Web Worker of the same file, from
 *   `new URL('./worker.js', import.meta.url)`, the form bundlers (Vite,
 *   webpack 5, Parcel) recognise and bundle as a worker.
 *
 * Slots are SharedArrayBuffer views where the engine may share memory
 * with workers (always outside browsers; in a cross-origin-isolated
 * page), so a filled slot is posted without a copy; elsewhere a slot is an
 * ArrayBuffer transferred to the worker and back.
 *
 * A worker that fails to start (a bundle without worker.js, a CSP without
 * worker-src) breaks the pool for the process: blake3Parallel then hashes
 * on the calling thread, with the same result (poolStatus() says why).
 */
import type { Done, FromWorker, Job } from './protocol.js';
import { zeroize } from '../runtime/bytes.js';

/** Bytes of a slot, the largest job: 1024 chunks (1 MiB). */
export const PIECE = 1 << 20;
/**
 * Jobs given to a worker at once. A finished job's slot comes back at the
 * caller's next turn of the event loop, up to a piece later, so with 2 the
 * worker mostly held one job and waited for the next; 3 keeps one queued
 * (64 MiB on 2 cores in Node: 2-6% faster in six interleaved runs).
 */
const SLOTS = 3;

interface Handle {
  post(job: Job, transfer: ArrayBuffer[]): void;
  /** Node: whether the worker keeps the process alive. */
  hold(on: boolean): void;
  terminate(): void;
}

type Listener = (message: FromWorker | { type: 'error'; message: string }) => void;

/**
 * node:worker_threads where it is the native API (Node, Bun). Deno has it
 * too, but there each job's answer took ~100 ms to arrive (16 MiB at 101
 * MB/s); its Web Workers do not have that delay.
 */
const isNode = (): boolean => {
  const g = globalThis as { Deno?: unknown; process?: { versions?: { node?: string } } };
  return g.process?.versions?.node !== undefined && g.Deno === undefined;
};

async function spawn(listen: Listener): Promise<Handle> {
  if (isNode()) {
    const name = 'node:worker_threads';
    const { Worker } = (await import(name)) as typeof import('node:worker_threads');
    const w = new Worker(new URL('./worker.js', import.meta.url));
    w.on('message', listen);
    w.on('error', (e: Error) => listen({ type: 'error', message: e.message }));
    w.on('exit', (code: number) => listen({ type: 'error', message: `worker exited (code ${code})` }));
    w.unref();
    return { post: (job, transfer) => w.postMessage(job, transfer), hold: (on) => (on ? w.ref() : w.unref()), terminate: () => void w.terminate() };
  }
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent) => listen(e.data as FromWorker);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    listen({ type: 'error', message: e.message || 'the worker failed to load' });
  };
  return { post: (job, transfer) => w.postMessage(job, transfer), hold: () => {}, terminate: () => w.terminate() };
}

const canShare = (): boolean => typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;

/** One worker: its slots, its jobs in flight. */
export class PoolWorker {
  ready = false;
  private ended = false;
  private handle: Handle | undefined;
  private readonly free: Uint8Array[] = [];
  /** How many leading bytes of the slots may hold input since they were last zeroed. */
  private dirty = 0;
  private readonly pending = new Map<number, { resolve(cv: Uint8Array): void; reject(e: Error): void; slot: Uint8Array; bytes: number }>();
  private nextId = 0;

  constructor(private readonly pool: Pool) {
    const shared = canShare();
    for (let i = 0; i < SLOTS; i++) this.free.push(new Uint8Array(shared ? new SharedArrayBuffer(PIECE) : new ArrayBuffer(PIECE)));
  }

  async start(): Promise<void> {
    this.handle = await spawn((m) => this.receive(m));
  }

  /** Whether a job can be given now. */
  get idle(): boolean {
    return this.ready && this.free.length > 0;
  }

  /** Bytes of the jobs given and not answered yet. */
  get queued(): number {
    let bytes = 0;
    for (const p of this.pending.values()) bytes += p.bytes;
    return bytes;
  }

  /** A free slot's first `bytes` bytes, to fill and pass to run(). */
  slot(bytes: number): Uint8Array {
    return this.free[this.free.length - 1]!.subarray(0, bytes);
  }

  /** Hashes the subtree in slot(data.length) (filled by the caller); resolves to its chaining value. */
  run(key: Uint8Array, flags: number, counter: number, data: Uint8Array, tier: Job['tier']): Promise<Uint8Array> {
    const slot = this.free.pop()!;
    this.dirty = Math.max(this.dirty, data.length);
    const id = this.nextId++;
    const job: Job = { type: 'job', id, tier, key: key.slice(), flags, counter, data };
    const done = new Promise<Uint8Array>((resolve, reject) => this.pending.set(id, { resolve, reject, slot, bytes: data.length }));
    if (this.pending.size === 1) this.handle!.hold(true);
    this.handle!.post(job, slot.buffer instanceof ArrayBuffer ? [slot.buffer, job.key.buffer as ArrayBuffer] : [job.key.buffer as ArrayBuffer]);
    return done;
  }

  private receive(m: FromWorker | { type: 'error'; message: string }): void {
    if (this.ended) return;
    if (m.type === 'ready') {
      this.ready = true;
      return;
    }
    if (m.type === 'done') return this.settle(m);
    // A job failed (the worker goes on), or the worker could not start or died.
    const failed = m.type === 'failed' && m.id >= 0 ? [m.id] : [...this.pending.keys()];
    for (const id of failed) {
      const p = this.pending.get(id)!;
      this.pending.delete(id);
      p.reject(new Error(`blake3Parallel worker: ${m.message}`));
    }
    if (m.type === 'error' || m.id < 0) this.pool.broken(this, m.message);
    if (this.pending.size === 0) this.handle?.hold(false);
  }

  private settle(m: Done): void {
    const p = this.pending.get(m.id)!;
    this.pending.delete(m.id);
    // A transferred slot comes back (still holding its data: zeroSlots() clears it); a shared one never left.
    this.free.push(m.data !== undefined ? new Uint8Array(m.data.buffer, 0, PIECE) : p.slot);
    if (this.pending.size === 0) this.handle!.hold(false);
    this.pool.jobs++;
    p.resolve(m.cv);
  }

  /** Zeroes the free slots' input (a call's last step; slots still busy are zeroed by the call they belong to). */
  zeroSlots(): void {
    for (const slot of this.free) zeroize(slot.subarray(0, this.dirty));
    if (this.pending.size === 0) this.dirty = 0;
  }

  terminate(): void {
    this.ready = false;
    this.ended = true;
    for (const p of this.pending.values()) {
      // A shared slot is still ours (zeroed below with the free ones); a transferred one went with the worker.
      if (p.slot.buffer.byteLength > 0) this.free.push(p.slot);
      p.reject(new Error('blake3Parallel: the pool was terminated'));
    }
    this.pending.clear();
    this.zeroSlots();
    this.handle?.terminate();
  }
}

export class Pool {
  readonly workers: PoolWorker[] = [];
  /** Jobs the workers completed (for tests: that they did the work). */
  jobs = 0;
  /** Why workers cannot be used in this process, once one failed to start. */
  failure: string | undefined;

  /** At least `count` workers, started (not necessarily ready yet); none once the pool is broken. */
  grow(count: number): PoolWorker[] {
    if (this.failure !== undefined) return [];
    while (this.workers.length < count) {
      const w = new PoolWorker(this);
      this.workers.push(w);
      w.start().catch((e: unknown) => this.broken(w, e instanceof Error ? e.message : String(e)));
    }
    return this.workers.slice(0, count);
  }

  broken(w: PoolWorker, reason: string): void {
    this.failure ??= reason;
    w.terminate();
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
  }

  terminate(): void {
    for (const w of this.workers.splice(0)) w.terminate();
  }
}

export const pool = new Pool();

/** Logical cores: navigator.hardwareConcurrency, or os.availableParallelism() in Node 20 (which has no navigator). */
export function cores(): Promise<number> {
  // Asked once: a dynamic import costs a turn of the event loop on every call.
  return (coreCount ??= countCores());
}
let coreCount: Promise<number> | undefined;

async function countCores(): Promise<number> {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  if (typeof n === 'number' && n > 0) return n;
  if (isNode()) {
    const name = 'node:os';
    const os = (await import(name)) as typeof import('node:os');
    return os.availableParallelism?.() ?? os.cpus().length;
  }
  return 1;
}

/** For tests: the pool's workers and whether it is usable. */
export function poolStatus(): { workers: number; ready: number; jobs: number; failure: string | undefined } {
  return { workers: pool.workers.length, ready: pool.workers.filter((w) => w.ready).length, jobs: pool.jobs, failure: pool.failure };
}
