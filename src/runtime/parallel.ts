/**
 * What every fourfold/parallel function shares: when a call is worth the
 * workers, which workers it gets, and moving a byte range through pieces
 * (slots of the pool, or the caller's SharedArrayBuffers directly).
 */
import { isShared } from './bytes.js';
import { cores } from './host.js';
import { canShare, pool, PIECE, type PoolWorker } from './pool.js';
import type { JobParams } from './protocol.js';
import { runInOrder, runPieces, type Piece, type PieceWork } from './schedule.js';
import { workerTier } from './kernels.js';

/**
 * Inputs below this run inline, as the synchronous function: a job costs
 * two messages and copies into and out of a slot, which below a few MiB
 * is not won back.
 */
export const PARALLEL_MIN = 2 * PIECE;

/** Options every parallel call takes. */
export interface ParallelOptions {
  /** Worker threads to use, at most (default: configure()'s, else the logical cores less one); 0 runs on the calling thread only. */
  workers?: number;
}

/**
 * The workers for an input of `bytes`: the count asked for, else the
 * configured one, else the logical cores less one (the calling thread
 * works too); never more than the input has pieces besides the one the
 * calling thread takes. None once the pool is broken.
 */
export function team(bytes: number, asked?: number): PoolWorker[] {
  const wanted = asked ?? pool.size ?? cores() - 1;
  const count = Math.min(wanted, Math.ceil(bytes / PIECE) - 1);
  return count > 0 ? pool.grow(count) : [];
}

/**
 * An output made when a transform first needs it: by then the first pieces
 * are with the workers, which work while this thread allocates (zeroing a
 * large new array takes milliseconds). Memoized: every call gives the same
 * array.
 */
export type LaterOutput = () => Uint8Array;

/** A new array of `length` bytes, made on first use (LaterOutput). */
export function later(length: number): LaterOutput {
  let bytes: Uint8Array | undefined;
  return () => (bytes ??= new Uint8Array(length));
}

/** An output as it is now: the caller's array, or a later one made. */
export const made = (output: Uint8Array | LaterOutput): Uint8Array => (typeof output === 'function' ? output() : output);

/**
 * Bytes [start, end) of `output`: a view of the caller's array (which the
 * workers write directly when it is shared), or a part of a later one.
 */
export function partOf(output: Uint8Array | LaterOutput, start: number, end: number): Uint8Array | LaterOutput {
  if (typeof output !== 'function') return output.subarray(start, end);
  let bytes: Uint8Array | undefined;
  return () => (bytes ??= output().subarray(start, end));
}

/** A piece of a transform, and what its job returned (a polynomial, for instance). */
export interface Part extends Piece {
  result?: Uint8Array;
}

/** One operation over pieces of a byte range: what runs in a worker, and the same on this thread. */
export interface Transform {
  /** The job (parallel/jobs.ts). */
  readonly op: string;
  /** Piece boundaries fall on multiples of this, counted from the range's start. */
  readonly align: number;
  /**
   * The job's params for the piece at `start`: new arrays each time (keys
   * among them move to the worker, and the worker zeroes them).
   */
  params(start: number): JobParams;
  /** The same work on this thread: input -> output (undefined: the operation has no output), returning the piece's result. */
  here(input: Uint8Array, output: Uint8Array | undefined, start: number): Uint8Array | undefined;
  /** Called as the piece [start, end) is handed out, before it can write any output. */
  onStart?(start: number, end: number): void;
  /** Pieces one after another, in order (each needs the output of the one before): on the first worker only, and this thread. */
  readonly serial?: boolean;
}

/** The ArrayBuffers of a job's params, to move rather than copy (shared ones stay shared). */
function transfers(params: JobParams): ArrayBuffer[] {
  const list: ArrayBuffer[] = [];
  for (const value of Object.values(params)) if (value instanceof Uint8Array && !isShared(value)) list.push(value.buffer as ArrayBuffer);
  return list;
}

/**
 * `p` as consecutive parts of about `bytes` each, of equal lengths cut on
 * multiples of `align` (the last takes what rounding leaves). Equal, not
 * `bytes` and a remainder: the calling thread takes the last part, and a
 * remainder there would be a sliver (thousands per call, each with its
 * own job overhead).
 */
function splitter(align: number): (p: Part, bytes: number) => Part[] {
  return (p, bytes) => {
    const count = Math.ceil(p.length / Math.max(align, bytes));
    const size = Math.floor(p.length / count / align) * align;
    if (count <= 1 || size === 0) return [p];
    const parts: Part[] = [];
    for (let i = 0; i < count - 1; i++) parts.push({ start: p.start + i * size, length: size });
    const at = (count - 1) * size;
    parts.push({ start: p.start + at, length: p.length - at });
    return parts;
  };
}

/**
 * Runs `t` over input[0, n) into output (same length, or undefined), with
 * `workers`; resolves to the pieces in order, each with its result. A
 * view on a SharedArrayBuffer is read or written by the workers directly;
 * anything else goes through the slots, copied by this thread. The input
 * must not change, and neither may be detached, until it settles.
 */
export async function transform(t: Transform, input: Uint8Array, output: Uint8Array | LaterOutput | undefined, workers: readonly PoolWorker[]): Promise<Part[]> {
  const n = input.length;
  const tier = workerTier();
  const share = canShare();
  const directIn = share && isShared(input);
  const outputNow = (): Uint8Array | undefined => (output === undefined ? undefined : made(output));
  const directOut = output !== undefined && typeof output !== 'function' && share && isShared(output);
  const split = splitter(t.align);
  const whole: Part[] = [];
  for (let at = 0; at < n; at += PIECE) whole.push({ start: at, length: Math.min(PIECE, n - at) });
  const work: PieceWork<Part> = {
    split,
    here(p) {
      const end = p.start + p.length;
      t.onStart?.(p.start, end);
      p.result = t.here(input.subarray(p.start, end), outputNow()?.subarray(p.start, end), p.start);
    },
    async give(w, p) {
      const end = p.start + p.length;
      t.onStart?.(p.start, end);
      const params: Record<string, number | Uint8Array | undefined> = { ...t.params(p.start) };
      if (directIn) params.input = input.subarray(p.start, end);
      if (directOut) params.output = (output as Uint8Array).subarray(p.start, end);
      // A slot carries the input when it is not shared, and the output when that is not.
      let slot: Uint8Array | undefined;
      if (!directIn || (output !== undefined && !directOut)) {
        slot = w.slot(p.length);
        if (!directIn) slot.set(input.subarray(p.start, end));
      }
      const done = await w.run(t.op, tier, params, slot, transfers(params), p.length);
      try {
        if (output !== undefined && !directOut) outputNow()!.set(done.data, p.start);
        p.result = done.result;
      } finally {
        done.release();
      }
    },
  };
  try {
    if (!t.serial) return await runPieces(whole, workers, work);
    await runInOrder(whole, workers[0], work);
    return whole;
  } finally {
    for (const w of workers) w.zeroSlots();
    if (input.length !== n || (output !== undefined && outputNow()!.length !== n)) {
      throw new TypeError('the input or output was detached while the call ran');
    }
  }
}
