/**
 * What a caller holds for a job it gave a worker (pool-worker.ts run()):
 * the job in flight (JobHandle), its answer (JobDone), the caller's own
 * shared views the job reads or writes (JobBytes), and the error a job
 * fails with when its worker is gone (WorkerLostError). The families'
 * pieces and fourfold/parallel name these without the worker itself.
 */

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

/** A job in flight: its answer, a way to take it back before the worker starts it, and to stop waiting for it. */
export interface JobHandle<R> {
  readonly done: Promise<JobDone<R>>;
  /** Takes the job back if the worker has not started it (the worker then answers skipped); false once it has, or without shared memory. */
  claim(): boolean;
  /** The caller no longer waits for the answer (its call ended): the answer is still taken in as it comes, but the job no longer keeps the process alive. */
  letGo(): void;
}

/** Where a job's bytes come from and go, besides its slot (protocol.ts Job). */
export interface JobBytes {
  /** The caller's SharedArrayBuffer views the worker reads or writes directly. */
  input?: Uint8Array;
  output?: Uint8Array;
  copyIn?: boolean;
}
