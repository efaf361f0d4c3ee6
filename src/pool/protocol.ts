/**
 * The messages between the pool (pool-worker.ts) and its workers
 * (serve.ts), and the typed tables through which a family declares the
 * jobs it offers:
 *
 *   pool -> worker  Setup    once, first: the worker's claim words (shared memory), if any
 *   worker -> pool  Ready    once, when it listens, with its tier (a family's kernel compiles at its first job)
 *   pool -> worker  Job      any number, each answered by Done, Skipped or Failed, in order;
 *                            to a simd worker, with the kernel modules it has not been sent yet
 *   worker -> pool  Done     the job's result
 *   worker -> pool  Skipped  the pool took the job back (its claim) before the worker started it
 *   worker -> pool  Failed   the job threw (a worker that cannot start fires its error event instead)
 *
 * A job holds one of its worker's slots: a buffer of up to PIECE bytes,
 * a SharedArrayBuffer where the engine may share memory with workers,
 * otherwise an ArrayBuffer transferred to the worker and back in the
 * answer. `params` carry the rest: numbers, and Uint8Arrays such as keys,
 * which arrive as the worker's own copies (moved by transfer: the caller
 * keeps none) and which the worker zeroes after the job.
 *
 * A worker runs one tier, the one its script carries: worker.ts the simd
 * engines (it carries no js tier and no kernel bytes: the pool sends it
 * the compiled modules), worker-js.ts the js engines, for engines that
 * cannot run the kernels. Both give the same bytes.
 *
 * A family declares its jobs as a JobTable type (chacha/jobs.ts's
 * ChachaJobs, say) and implements them as Handlers of that table, made
 * from one tier's engines; the calling side names the same table when it
 * runs one, so both sides of every job are checked at compile time. Only
 * the dispatch by name in serve.ts sees a job untyped.
 */
import { isShared } from '../runtime/bytes.js';
import type { OwnTier } from '../runtime/kernels.js';

/**
 * What a job answers: a few bytes, an output made to be moved (moved()),
 * or nothing; or a few bytes with a Blob the job made (a file piece's
 * output in a browser), which a message passes by reference, its bytes
 * held by the browser.
 */
export type JobResult = Uint8Array | WithBlob | undefined;

/** A job's few bytes, and a Blob of its output. */
export interface WithBlob {
  readonly bytes: Uint8Array;
  readonly blob: Blob;
}

/** The bytes of a result, to zero once nobody needs them (a Blob's bytes are the browser's: nothing of them is in this thread's memory). */
export const resultBytes = (result: JobResult): Uint8Array | undefined => (result instanceof Uint8Array ? result : result?.bytes);

/** A job a family offers: the parameters it takes and the result it answers with. */
export interface JobType<Params extends object = object, Result extends JobResult = JobResult> {
  readonly params: Params;
  readonly result: Result;
}

/** A family's jobs, by name ('chacha.xor', ...). */
export type JobTable = { readonly [op: string]: JobType };

/**
 * The bytes a job works on. `input` is the slot (the caller copied a piece
 * of its array into it) or a view of the caller's SharedArrayBuffer;
 * `output` is the slot, a view of the caller's SharedArrayBuffer, or
 * undefined for a job that writes no bytes. `slot` is the slot itself,
 * the worker's own memory for the job, whatever input and output are.
 */
export interface JobData {
  readonly input: Uint8Array | undefined;
  readonly output: Uint8Array | undefined;
  readonly slot: Uint8Array | undefined;
}

/** The names of table T's jobs of type J (a caller that runs such a job names its family's table). */
export type OpsOf<T extends JobTable, J extends JobType> = { [K in keyof T]: T[K] extends J ? K : never }[keyof T] & string;

/** What a worker does for a job of type J (on the engines of its tier). */
export type Handler<J extends JobType> = (params: J['params'], data: JobData) => J['result'];

/** Results a handler made to be moved, not copied (moved()). */
const MOVED = new WeakSet<Uint8Array>();

/**
 * Marks `bytes`, a whole ArrayBuffer of the handler's own that it keeps
 * no reference to, as a result to move to the pool by transfer (Done):
 * a large output costs neither thread a copy, and the worker is left
 * with nothing of it.
 */
export function moved(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength || !(bytes.buffer instanceof ArrayBuffer)) {
    throw new TypeError('a moved result must be a whole ArrayBuffer of its own');
  }
  MOVED.add(bytes);
  return bytes;
}

/** The ArrayBuffers to transfer with `result`: its own, when it was made to be moved. */
export const movedBuffers = (result: JobResult): ArrayBuffer[] => (result instanceof Uint8Array && MOVED.has(result) ? [result.buffer as ArrayBuffer] : []);

/** The handlers of every job of a table. */
export type Handlers<T extends JobTable> = { readonly [K in keyof T]: Handler<T[K]> };

/**
 * A job's claim word (one per slot, in shared memory where there is any):
 * the pool sets QUEUED as it posts a job; the worker moves QUEUED to
 * RUNNING before it starts, and the pool may move QUEUED to TAKEN to do
 * the piece itself (the worker then skips the job). Whoever moves the word
 * first owns the piece.
 */
/** Bytes of a slot: the largest piece of data one job carries. */
export const PIECE = 1 << 20;

/**
 * Inputs below this run inline, as the synchronous function: a job costs
 * two messages and copies into and out of a slot, which below a few MiB
 * is not won back. Here, with no pool, for a caller that decides whether
 * to load the pool at all (the fourfold age command).
 */
export const PARALLEL_MIN = 2 * PIECE;

export const QUEUED = 1;
export const RUNNING = 2;
export const TAKEN = 3;

export interface Setup {
  readonly type: 'setup';
  /** The claim words of the worker's slots, indexed by slot; undefined without shared memory. */
  readonly claims: Int32Array | undefined;
}

export interface Ready {
  readonly type: 'ready';
  /** The engines the worker's script carries: the pool sends kernels to a simd worker only. */
  readonly tier: OwnTier;
}

export interface Job {
  readonly type: 'job';
  /** Chosen by the pool, echoed in the answer. */
  readonly id: number;
  /** What to do: a name of some family's job table. */
  readonly op: string;
  readonly params: object;
  /** The slot's index (its claim word), or -1 for a job outside the slots. */
  readonly claim: number;
  /** The slot's bytes the job uses: its data in, and room for its output. */
  readonly slot: Uint8Array | undefined;
  /** The caller's SharedArrayBuffer views to read or write directly, instead of the slot. */
  readonly input?: Uint8Array;
  readonly output?: Uint8Array;
  /**
   * Copy `input` into the slot before the job reads it, and read only the
   * copy: for a job that reads its input twice (a decryption's MAC, then
   * its plaintext) from memory another thread may write.
   */
  readonly copyIn?: boolean;
  /**
   * Whether the calling thread may use node:crypto (no ready() named a
   * tier there): a worker's engines then may too (runtime/native.ts),
   * for the jobs that measured a gain from it (age's pieces).
   */
  readonly native: boolean;
  /**
   * Kernel modules (or their bytes) a simd worker has not been sent yet,
   * by name: it carries no kernel bytes of its own
   * (runtime/kernel-registry.ts kernelsFor and installKernels).
   */
  readonly kernels?: Readonly<Record<string, WebAssembly.Module | Uint8Array>>;
}

export interface Done {
  readonly type: 'done';
  readonly id: number;
  /**
   * The job's result: a few bytes (a chaining value, a Poly1305
   * polynomial), copied, or nothing; or an output the job made in an
   * ArrayBuffer of its own (moved(): a stream's piece), moved to the pool
   * by transfer, so that neither thread copies it; or bytes with a Blob.
   */
  readonly result: JobResult;
  /** The job's slot when it was transferred (not shared): handed back. */
  readonly slot?: Uint8Array;
}

export interface Skipped {
  readonly type: 'skipped';
  readonly id: number;
  readonly slot?: Uint8Array;
}

export interface Failed {
  readonly type: 'failed';
  /** The job that threw. */
  readonly id: number;
  readonly message: string;
  /**
   * The worker cannot run any job: its kernel was not sent, or its engine
   * refused to compile or instantiate it (a policy of the worker's own,
   * say). The pool gives it no more.
   */
  readonly fatal?: boolean;
  readonly slot?: Uint8Array;
}

export type ToWorker = Setup | Job;
export type FromWorker = Ready | Done | Skipped | Failed;

/**
 * The ArrayBuffers of a job's params, to move rather than copy: shared ones
 * stay shared, and empty ones are copied (nothing), so that a zero-length
 * array the library holds for every call (runtime/bytes.ts EMPTY) is never
 * detached.
 */
export function transferablesOf(params: object): ArrayBuffer[] {
  const list: ArrayBuffer[] = [];
  for (const value of Object.values(params))
    if (value instanceof Uint8Array && !isShared(value) && value.buffer.byteLength > 0) list.push(value.buffer as ArrayBuffer);
  return list;
}
