/**
 * What every fourfold/parallel function shares: when a call is worth the
 * workers, which workers it gets, and moving a byte range through pieces
 * (slots of the pool, or the caller's SharedArrayBuffers directly).
 *
 * Where the bytes go:
 * - A plain input is copied into a slot by the calling thread; a view of
 *   a SharedArrayBuffer is read by the worker directly (or copied into its
 *   slot by the worker first, for a job that reads its input twice).
 * - A plain output is copied out of the slot by the calling thread; a
 *   view of a SharedArrayBuffer is written by the worker directly, unless
 *   it is the input itself (in place): then the worker writes its slot and
 *   the calling thread copies, so that the calling thread is the only one
 *   to overwrite input, and a piece a lost or late worker half wrote can
 *   always be redone from input nobody has touched.
 */
import { isShared } from '../runtime/bytes.js';
import { attached, overlapping } from '../runtime/assert.js';
import { pool } from './pool.js';
import { canShare, type PoolWorker } from './pool-worker.js';
import { type JobTable, PIECE, transferablesOf } from './protocol.js';
import { runChained, runPieces, type Piece, type PieceWork } from './schedule.js';

export { PARALLEL_MIN } from './protocol.js';

/**
 * The workers for an input of `bytes`: `count` of them (the pool's size
 * unless a call asks otherwise), at most the logical cores, and never more
 * than the input has pieces besides the one the calling thread takes.
 * None once the pool is broken.
 */
export function workersFor(bytes: number, count = pool.size): PoolWorker[] {
  const n = Math.min(count, pool.maxWorkers, Math.ceil(bytes / PIECE) - 1);
  return n > 0 ? pool.grow(n) : [];
}

/**
 * The workers for a call whose calling thread only hands pieces out
 * (schedule.ts runOnWorkers): its share goes to one more worker, so on
 * the default size every core has one; none where the pool has none.
 */
export function handOutWorkersFor(bytes: number): PoolWorker[] {
  const n = pool.size === 0 ? 0 : Math.min(pool.size + 1, pool.maxWorkers, Math.ceil(bytes / PIECE));
  return n > 0 ? pool.grow(n) : [];
}

/**
 * An output made when a transform first needs it: by then the first pieces
 * are with the workers, which work while this thread allocates (zeroing a
 * large new array takes milliseconds). Memoized: every call gives the same
 * array.
 */
export type LazyOutput = () => Uint8Array;

/** A new array of `length` bytes, made on first use (LazyOutput). */
export function lazyOutput(length: number): LazyOutput {
  let bytes: Uint8Array | undefined;
  return () => (bytes ??= new Uint8Array(length));
}

/** An output as it is now: the caller's array, or a lazy one made. */
export const outputOf = (output: Uint8Array | LazyOutput): Uint8Array => (typeof output === 'function' ? output() : output);

/**
 * Bytes [start, end) of `output`: a view of the caller's array (which the
 * workers write directly when it is shared), or a part of a lazy one.
 */
export function partOf(output: Uint8Array | LazyOutput, start: number, end: number): Uint8Array | LazyOutput {
  if (typeof output !== 'function') return output.subarray(start, end);
  let bytes: Uint8Array | undefined;
  return () => (bytes ??= output().subarray(start, end));
}

/** A piece of a transform, and what its job returned (a polynomial, for instance). */
export interface Part extends Piece {
  result?: Uint8Array;
}

/** One operation over pieces of a byte range: job K of the family table T, and the same work on this thread. */
export interface Transform<T extends JobTable, K extends keyof T & string> {
  /** The job. */
  readonly op: K;
  /** Piece boundaries fall on multiples of this, counted from the range's start. */
  readonly align: number;
  /**
   * The job's params for `part`: new arrays each time (keys among them
   * move to the worker, and the worker zeroes them).
   */
  params(part: Part): T[K]['params'];
  /** The same work on this thread: input -> output (undefined: the operation has no output), returning the piece's result. */
  onThisThread(input: Uint8Array, output: Uint8Array | undefined, part: Part): Uint8Array | undefined;
  /** Checks a worker's result before its output is taken (throws to reject the call: nothing of the piece is copied). */
  accept?(part: Part, result: T[K]['result']): void;
  /** Called as the piece [start, end) is handed out, before it can write any output. */
  onStart?(start: number, end: number): void;
  /** Pieces one after another, in order (each needs the output of the one before): on the first worker only, and this thread. */
  readonly serial?: boolean;
  /**
   * The job reads its input more than once (a decryption: its MAC, then
   * its plaintext): input on shared memory, which another thread may
   * write meanwhile, is copied once, and only the copy is read.
   */
  readonly readsTwice?: boolean;
}

/**
 * `p` as consecutive parts of about `bytes` each, of equal lengths cut on
 * multiples of `align` (the last takes what rounding leaves). Equal, not
 * `bytes` and a remainder: the calling thread takes the last part, and a
 * remainder there would be a sliver (thousands per call, each with its
 * own job overhead).
 */
export function splitter(align: number): (p: Piece, bytes: number) => Piece[] {
  return (p, bytes) => {
    const count = Math.ceil(p.length / Math.max(align, bytes));
    const size = Math.floor(p.length / count / align) * align;
    if (count <= 1 || size === 0) return [p];
    const parts: Piece[] = [];
    for (let i = 0; i < count - 1; i++) parts.push({ start: p.start + i * size, length: size });
    const at = (count - 1) * size;
    parts.push({ start: p.start + at, length: p.length - at });
    return parts;
  };
}

/** Scratch for this thread's read-once copies of shared input (readsTwice), zeroed after each use. */
let scratch: Uint8Array | undefined;

/**
 * Runs `t` over input[0, n) into output (same length, or undefined), with
 * `workers`; resolves to the pieces in order, each with its result.
 * `pieces`, when given, is the partition to use as it is (a second pass
 * over the pieces of a first); otherwise pieces of PIECE bytes, cut
 * smaller as the scheduler needs. The input must not change, and neither
 * may be detached, until it settles (a detached one rejects with a
 * TypeError).
 */
export async function transform<T extends JobTable, K extends keyof T & string>(
  t: Transform<T, K>,
  input: Uint8Array,
  output: Uint8Array | LazyOutput | undefined,
  workers: readonly PoolWorker[],
  pieces?: readonly Part[],
): Promise<Part[]> {
  const n = input.length;
  const share = canShare();
  const directIn = share && isShared(input);
  const outputNow = (): Uint8Array | undefined => (output === undefined ? undefined : outputOf(output));
  const callerOut = output !== undefined && typeof output !== 'function' ? output : undefined;
  const directOut = callerOut !== undefined && share && isShared(callerOut) && !overlapping(input, callerOut);
  const split = pieces === undefined ? splitter(t.align) : (p: Part) => [p];
  const whole: Part[] = pieces?.slice() ?? [];
  if (pieces === undefined) for (let at = 0; at < n; at += PIECE) whole.push({ start: at, length: Math.min(PIECE, n - at) });
  const intact = (): void => attached(n, input, callerOut);
  const work: PieceWork<Part> = {
    split,
    direct: directOut,
    onThisThread(p) {
      intact();
      const end = p.start + p.length;
      t.onStart?.(p.start, end);
      let from = input.subarray(p.start, end);
      if (t.readsTwice && isShared(from)) {
        scratch ??= new Uint8Array(PIECE);
        from = scratch.subarray(0, p.length);
        from.set(input.subarray(p.start, end));
      }
      try {
        p.result = t.onThisThread(from, outputNow()?.subarray(p.start, end), p);
      } finally {
        if (from.buffer === scratch?.buffer) from.fill(0);
      }
    },
    toWorker(w, p) {
      intact();
      const end = p.start + p.length;
      t.onStart?.(p.start, end);
      const params = t.params(p);
      if (!directIn) w.slot(p.length).set(input.subarray(p.start, end));
      return w.run<T, K>(
        t.op,
        params,
        p.length,
        {
          input: directIn ? input.subarray(p.start, end) : undefined,
          output: directOut ? callerOut.subarray(p.start, end) : undefined,
          copyIn: directIn && t.readsTwice,
        },
        transferablesOf(params),
      );
    },
    fromWorker(p, done) {
      intact();
      t.accept?.(p, done.result as T[K]['result']);
      if (output !== undefined && !directOut) outputNow()!.set(done.data, p.start);
      p.result = done.result as Uint8Array | undefined;
    },
  };
  try {
    if (!t.serial) return await runPieces(whole, workers, work);
    await runChained(whole, workers[0], work);
    return whole;
  } finally {
    for (const w of workers) w.zeroSlots();
  }
}
