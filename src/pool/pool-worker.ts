/**
 * One worker of the pool (PoolWorker): its slots, its jobs in flight, the
 * kernels it has been sent. The pool (pool.ts) decides how many there are
 * and which end; spawn.ts starts the thread behind each.
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
 */
import { PIECE, resultBytes, QUEUED, TAKEN, type FromWorker, type JobResult, type JobTable, type Job } from './protocol.js';
import { EMPTY, zeroize } from '../runtime/bytes.js';
import { kernelsFor } from '../runtime/kernel-registry.js';
import { nativeWelcome, type OwnTier, workerTier } from '../runtime/kernels.js';
import { type JobBytes, type JobDone, type JobHandle, WorkerLostError } from './job-handle.js';
import { type Handle, spawn } from './spawn.js';

export { PIECE } from './protocol.js';
/**
 * Jobs given to a worker at once. A finished job's slot comes back at the
 * caller's next turn of the event loop, so with 2 the worker mostly held
 * one job and waited for the next; 3 keeps one queued.
 */
const SLOTS = 3;

/** Whether slots can be SharedArrayBuffers that workers see without a copy. */
export const canShare = (): boolean =>
  typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;

/** Whether this engine posts a WebAssembly.Module to a worker (false after a DataCloneError: kernels then go as bytes). */
let modulesCloneable = true;

interface Pending {
  resolve(done: JobDone<JobResult>): void;
  reject(e: Error): void;
  /** The slot the job holds (its index; -1 for call()), and how many of its bytes the job's data filled. */
  slot: number;
  bytes: number;
  /** The bytes of input the job works on (for queued). */
  work: number;
  /** Whether its caller waits for the answer (letGo() says it no longer does), which keeps the process alive. */
  awaited: boolean;
}

/**
 * What a worker tells the pool that holds it (pool.ts Pool), declared here
 * so that this file does not import the file that imports it.
 */
export interface WorkerOwner {
  /** Jobs the workers have completed (status()). */
  jobs: number;
  /** A job ended or state was released: a retiring worker may end. */
  settled(w: PoolWorker): void;
  /** The worker failed (`kernels`: it cannot run its kernels). */
  broken(w: PoolWorker, reason: string, kernels?: boolean): void;
  /** The worker is idle and may end (Deno: spawn.ts DENO_IDLE_MS). */
  retire(w: PoolWorker): void;
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
  /** Jobs in flight whose callers wait for their answers: while any does, the worker keeps the process alive. */
  private awaited = 0;
  private nextId = 0;
  /** The kernels this worker has been sent (with a job: kernelsFor). */
  private readonly kernels = new Set<string>();
  private started!: (ok: boolean) => void;
  /** Things that keep state in this worker (pin()): it is not ended for idleness while any does. */
  private pins = 0;
  /** Callers waiting for the worker's start (whenReady()). */
  private startWaits = 0;
  /** Resolves to true once the worker takes jobs, to false if it failed to start or ended first. */
  private readonly startedPromise = new Promise<boolean>((resolve) => (this.started = resolve));
  /** What stopped resolves to: the worker's stop, once terminate() asked for it. */
  private stopping: Promise<void> = new Promise(() => {});

  constructor(private readonly owner: WorkerOwner) {
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
  }

  /**
   * Resolves to true once the worker takes jobs, to false if it failed to
   * start or ended first, or once `giveUp` settles first (a caller that
   * waits for whichever of several things comes first). While a caller
   * waits, the start keeps the process alive; a worker started for calls
   * that no longer wait for it does not.
   */
  async whenReady(giveUp?: Promise<unknown>): Promise<boolean> {
    if (this.ready || this.ended) return this.startedPromise;
    this.startWaits++;
    this.handle!.hold(true);
    const gaveUp = (): boolean => false;
    try {
      return await (giveUp === undefined ? this.startedPromise : Promise.race([this.startedPromise, giveUp.then(gaveUp, gaveUp)]));
    } finally {
      // Still starting, and nobody waits for it any more. (Once ready, its jobs say whether it holds the process.)
      if (--this.startWaits === 0 && !this.ready && !this.ended) this.handle!.hold(false);
    }
  }

  /**
   * Resolves once the worker has stopped running after terminate()
   * (pending until then). A caller reading it waits for the stop, which
   * then keeps the process alive; a worker ended with nobody waiting does
   * not.
   */
  get stopped(): Promise<void> {
    if (this.ended) this.handle?.hold(true);
    return this.stopping;
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
    const id = this.nextId;
    const done = this.send({ op, params, claim: index, slot: slot.subarray(0, bytes), ...shared }, transfer, { slot: index, bytes, work });
    return {
      done: done as Promise<JobDone<T[K]['result']>>,
      claim: () => claims !== undefined && !this.ended && Atomics.compareExchange(claims, index, QUEUED, TAKEN) === QUEUED,
      letGo: () => this.letGo(id),
    };
  }

  /**
   * Runs `op` with params only, outside the slots (for jobs whose inputs
   * their caller bounds itself, such as a stream's messages); resolves to
   * its result.
   */
  call<T extends JobTable, K extends keyof T & string>(op: K, params: T[K]['params'], transfer: ArrayBuffer[] = []): Promise<T[K]['result']> {
    return this.callJob<T, K>(op, params, transfer).result;
  }

  /** call(), for a caller that may stop waiting for the answer: letGo() then (the job no longer keeps the process alive). */
  callJob<T extends JobTable, K extends keyof T & string>(
    op: K,
    params: T[K]['params'],
    transfer: ArrayBuffer[] = [],
  ): { result: Promise<T[K]['result']>; letGo(): void } {
    const id = this.nextId;
    const done = this.send({ op, params, claim: -1, slot: undefined }, transfer, { slot: -1, bytes: 0, work: 0 });
    return { result: done.then((d) => d.result as T[K]['result']), letGo: () => this.letGo(id) };
  }

  /** Posts `op` with params only, for a caller that does not wait for its answer (a call's last word to the worker): it does not keep the process alive. */
  tell<T extends JobTable, K extends keyof T & string>(op: K, params: T[K]['params']): void {
    const job = this.callJob<T, K>(op, params);
    job.result.catch(() => {});
    job.letGo();
  }

  /** Job `id`'s caller no longer waits for its answer: the answer is still taken in as it comes, but the job no longer keeps the process alive. */
  private letGo(id: number): void {
    const p = this.pending.get(id);
    if (p === undefined || !p.awaited) return;
    p.awaited = false;
    if (--this.awaited === 0) this.handle!.hold(false);
  }

  private send(job: Omit<Job, 'type' | 'id' | 'native'>, transfer: ArrayBuffer[], p: Pick<Pending, 'slot' | 'bytes' | 'work'>): Promise<JobDone<JobResult>> {
    // An ended worker answers nothing: its job fails now, as its jobs in flight did when it ended.
    if (this.ended) {
      if (p.slot >= 0) this.free.push(p.slot);
      return Promise.reject(new WorkerLostError('the worker has ended'));
    }
    const id = this.nextId++;
    const done = new Promise<JobDone<JobResult>>((resolve, reject) => this.pending.set(id, { resolve, reject, ...p, awaited: true }));
    if (++this.awaited === 1) this.handle!.hold(true);
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
      if (this.awaited === 0) this.handle!.hold(false);
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
    if (p.awaited) this.awaited--;
    // Said at every answer while none is awaited: in Deno, a worker's idle time counts from its last answer (spawn.ts).
    if (this.awaited === 0) this.handle!.hold(false);
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
        if (m.type === 'done') resultBytes(m.result)?.fill(0);
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
    this.awaited = 0;
    this.zeroSlots();
    this.stopping =
      this.handle?.terminate().then(() => {
        for (const slot of inflight) zeroize(slot);
      }) ?? Promise.resolve();
  }
}

/** What status() and warm() tell of the pool of fourfold/parallel. */
