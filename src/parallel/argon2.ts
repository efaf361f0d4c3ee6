/**
 * fourfold/parallel's Argon2: the same bytes as fourfold's argon2id,
 * argon2i and argon2d, with the memory filled on the pool's workers. The
 * calling thread shares the blocks with them (a shared WebAssembly.Memory)
 * and hands out segments slice by slice, RFC 9106 §3.4's synchronisation
 * points: the p lanes of a slice at once, on up to p cores (the calling
 * thread takes lanes too, in short turns), and p = 1 on one worker with
 * the calling thread free. Calls made at once go to different workers
 * (the least held), two a worker at a time; the rest wait their turn for
 * the memories those leave (argon2-memory.ts), so a burst of logins runs
 * on every core in a bounded memory.
 *
 * A worker lost or failing mid-call costs time, never bytes: a later
 * pass XORs into its blocks, so a segment cannot simply run again, and
 * the call starts again on the calling thread, in turns. Where memory
 * cannot be shared (a page that is not cross-origin isolated) or no
 * worker starts, the call runs so from the start.
 */
import { ASYNC_OPTIONS, argon2Call, type Argon2AsyncOpts, type Argon2Call, type Argon2Type, forget } from '../argon2/args.js';
import { inTurns, wipeInTurns } from '../argon2/argon2.js';
import { FirstBlocks, LastBlocks } from '../argon2/fill.js';
import type { Argon2Jobs, Attach } from '../argon2/jobs.js';
import { jsAttach } from '../argon2/js.js';
import { BLOCK, LAYOUT, SLICES, type Shape } from '../argon2/layout.js';
import { simdAttach } from '../argon2/simd.js';
import { argon2Variant } from '../argon2/wasm.js';
import { MemoryTurns, SharedBlocks } from './argon2-memory.js';
import { callOnWorker, lanesHere, lanesOf, lanesOnWorker, Run, stepsHere, WorkerLost } from './argon2-segments.js';
import { poolWithScripts } from './workers.js';
import { pool } from '../pool/pool.js';
import { canShare, type PoolWorker } from '../pool/pool-worker.js';
import { ticker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { decode } from '../runtime/kernel-registry.js';
import { workerTier } from '../runtime/kernels.js';
import { hex } from '../generated/argon2_shared.js';

/** fourfold/parallel's Argon2 options: argon2idAsync's, and the workers a call may use. */
export interface Argon2ParallelOpts extends Argon2AsyncOpts {
  /** Worker threads to use, at most (default: configure()'s, else the logical cores less one). 0 runs the call on the calling thread. */
  workers?: number;
}

/** Scratches in the memory's first page (kernel.ts LAYOUT): the calling thread's and up to seven workers'. */
const SCRATCHES = LAYOUT.BASE / LAYOUT.SCRATCH;

/** The shared module, compiled once (asynchronously: a page's main thread may not compile it at once). */
let sharedModule: Promise<WebAssembly.Module> | undefined;

/**
 * The shared module for this thread's lanes and wipes where it may run the
 * simd tier: the tier a worker started now gets (pool-worker.ts), the simd
 * one unless the engine lacks WebAssembly SIMD, a page's policy forbids
 * compiling (simdUsable's probe) or ready({ tier: 'js' }) was asked; it is
 * compiled asynchronously, so a page's main thread may too. Else, or if
 * it fails to compile, undefined: this thread then runs the js tier's
 * filler, and no call fails for want of the kernel.
 */
async function sharedKernel(): Promise<WebAssembly.Module | undefined> {
  if (workerTier() !== 'simd') return undefined;
  try {
    return await (sharedModule ??= WebAssembly.compile(decode(hex)));
  } catch {
    sharedModule = undefined;
    return undefined;
  }
}

/**
 * Calls a worker holds at once: two, so that it fills one's segment while
 * the calling thread starts, ends or wipes the other. A burst beyond them
 * waits its turn, on the memories they leave (argon2-memory.ts).
 */
const CALLS_PER_WORKER = 2;

/** The shared memories, lent a call at a time and kept, wiped, for the next calls (a worker's first touch of fresh pages took as long as filling them). */
const memories = new MemoryTurns();

/** Test-only (src/testing.ts): the shared memories kept for the next calls, the largest first, to check that they are wiped. */
export const spareSharedMemories = (): Uint8Array[] => memories.kept().map((m) => new Uint8Array(m.buffer));

/** Test-only (src/testing.ts): the largest shared memory kept for the next call, if any. */
export const spareSharedMemory = (): Uint8Array | undefined => spareSharedMemories()[0];

/**
 * How many workers a call gets, and among how many (the least held of
 * them: Pool.leastPinned). p = 1: one, its calling thread only handing
 * out segments, so, as a file call (docs/parallel.md), among one worker
 * more than the pool's size, one a core by default: concurrent calls
 * spread over every core. p > 1: as many as lanes but the one this thread
 * takes, at most the pool's size and the scratches.
 */
function callWorkers(c: Argon2Call, asked: number | undefined): { count: number; among: number } {
  if (c.p === 1) {
    const among = asked ?? (pool.size === 0 ? 0 : Math.min(pool.size + 1, pool.maxWorkers));
    return { count: Math.min(1, among), among };
  }
  const among = asked ?? pool.size;
  return { count: Math.min(among, c.p - 1, SCRATCHES - 1), among };
}

/** The shape a worker is sent: its numbers alone (the call holds the secrets). */
const shapeOf = (c: Argon2Call): Shape => ({ p: c.p, t: c.t, version: c.version, blocks: c.blocks, laneLength: c.laneLength, segmentLength: c.segmentLength });

/** Whether this engine posts a WebAssembly.Module to a worker (false after a DataCloneError: the module then goes as bytes). */
let modulesCloneable = true;

/**
 * Attaches worker `w` to the call. A simd worker is sent the compiled
 * shared module, whose code (tiered up already, here) it then shares;
 * where the engine cannot post one, its bytes, which the worker compiles
 * once and keeps.
 */
async function attach(w: PoolWorker, params: Omit<Attach, 'module'>, module: WebAssembly.Module | undefined): Promise<void> {
  const send = (code: Attach['module']) => w.call<Argon2Jobs, 'argon2.attach'>('argon2.attach', { ...params, module: code });
  try {
    if (w.tier !== 'simd') return await send(undefined);
    if (modulesCloneable && module !== undefined) {
      try {
        return await send(module);
      } catch (e) {
        if ((e as { name?: unknown } | undefined)?.name !== 'DataCloneError') throw e;
        modulesCloneable = false;
      }
    }
    return await send(decode(hex));
  } catch (e) {
    throw new WorkerLost('argon2: a worker could not attach', { cause: e });
  }
}

/** Fills the call's memory on `workers` (and this thread for p > 1), slice by slice; throws WorkerLost if one fails. */
async function fillOnWorkers(run: Run, workers: PoolWorker[], module: WebAssembly.Module | undefined): Promise<void> {
  const { c } = run;
  const base: Omit<Attach, 'slot' | 'module'> = { call: run.id, memory: run.blocks.memory, shape: shapeOf(c), type: c.type };
  // Workers take the variant this thread's calls chose (the same engine); until it has, each times its own.
  const variant = argon2Variant.picker?.chosen;
  await Promise.all(workers.map((w, i) => attach(w, { ...base, slot: i + 1, variant }, module)));
  const here = c.p > 1 ? (module !== undefined ? simdAttach({ ...base, slot: 0, module }) : jsAttach({ ...base, slot: 0 })) : undefined;
  // One worker alone (p = 1): its segments back to back, no slice waiting for this thread.
  if (here === undefined && workers.length === 1) return await callOnWorker(run, workers[0]!);
  const turns = ticker();
  try {
    for (let pass = 0; pass < c.t; pass++) {
      for (let slice = 0; slice < SLICES; slice++) {
        const count = workers.length + (here === undefined ? 0 : 1);
        const fillers = workers.map((w, i) => lanesOnWorker(run, w, pass, slice, lanesOf(c.p, i, count)));
        if (here !== undefined) fillers.push(lanesHere(run, here, pass, slice, lanesOf(c.p, workers.length, count), turns));
        // Every segment of the slice ends before the next slice starts (it may read any of them); the first failure is the call's.
        const settled = await Promise.allSettled(fillers);
        for (const r of settled) if (r.status === 'rejected') throw r.reason;
      }
    }
  } finally {
    here?.wipeScratch();
    turns.close();
  }
}

async function argon2Parallel(type: Argon2Type, password: unknown, salt: unknown, opts: unknown): Promise<Bytes> {
  const c = argon2Call(type, password, salt, opts, [...ASYNC_OPTIONS, 'workers']);
  const asked = (opts as Argon2ParallelOpts).workers;
  try {
    const workersAsked = asked === undefined ? undefined : check.count(asked, 'workers');
    check.throwIfAborted(c.signal);
    const { count, among } = callWorkers(c, workersAsked);
    const key = count > 0 && canShare() ? await onWorkers(c, count, among) : undefined;
    // No memory shared, no worker ready, or one lost mid-call: the call (again) on this thread, its progress going on from what the try told.
    return key instanceof Uint8Array ? key : await inTurns(c, key?.told);
  } finally {
    forget(c);
  }
}

/**
 * The call on `count` workers of `among`, in its turn (MemoryTurns): its
 * tag, or undefined where it cannot run on workers (no memory, no worker
 * ready), or the progress told where a worker was lost mid-call.
 */
async function onWorkers(c: Argon2Call, count: number, among: number): Promise<Bytes | { told: number } | undefined> {
  await memories.enter(CALLS_PER_WORKER * Math.min(among, pool.maxWorkers), c.signal);
  try {
    const memory = memories.take(LAYOUT.BASE + c.blocks * BLOCK);
    if (memory === undefined) return undefined;
    // Pinned as soon as chosen, so that the calls made at once (before any worker is ready) go to different ones.
    const chosen = poolWithScripts().leastPinned(count, among);
    for (const w of chosen) w.pin();
    const ready: PoolWorker[] = [];
    for (const [i, ok] of (await Promise.all(chosen.map((w) => w.whenReady()))).entries()) {
      if (ok) ready.push(chosen[i]!);
      else chosen[i]!.unpin();
    }
    if (ready.length === 0) {
      memories.keep(memory, sparesBound());
      return undefined;
    }
    return await fillAndTag(c, memory, ready);
  } finally {
    memories.leave();
  }
}

/** Kept memories, at most: as many as calls may hold at once with every core's worker. */
const sparesBound = (): number => CALLS_PER_WORKER * pool.maxWorkers;

/** The call's memory filled on `ready` (pinned; unpinned here) and its tag, or the progress told where a worker was lost mid-call. */
async function fillAndTag(c: Argon2Call, memory: WebAssembly.Memory, ready: PoolWorker[]): Promise<Bytes | { told: number }> {
  const module = await sharedKernel();
  const wiper =
    module !== undefined
      ? (new WebAssembly.Instance(module, { env: { memory } }).exports.wipe as (from: number, count: number) => void)
      : (from: number, count: number) => void new Uint8Array(memory.buffer, from, count).fill(0);
  const blocks = new SharedBlocks(memory, wiper, shapeOf(c));
  const run = new Run(c, blocks);
  const turns = ticker();
  let first: FirstBlocks | undefined;
  const last = new LastBlocks(c, blocks);
  try {
    first = new FirstBlocks(c, blocks);
    await stepsHere(run, first, turns);
    await fillOnWorkers(run, ready, module);
    await stepsHere(run, last, turns);
    const key = last.tag();
    await wipeInTurns(blocks);
    c.onProgress?.(1);
    return key;
  } catch (e) {
    if (!(e instanceof WorkerLost)) throw e;
    return { told: run.progress.told };
  } finally {
    first?.forget();
    last.forget();
    // An aborted or failed call too: every job it posted has answered (argon2-segments.ts), so nothing writes the memory now.
    await wipeInTurns(blocks);
    turns.close();
    for (const w of ready) {
      w.tell<Argon2Jobs, 'argon2.detach'>('argon2.detach', { call: run.id });
      w.unpin();
    }
    // A worker lost mid-call may still be in its segment (a terminated Web Worker finishes the WebAssembly
    // call it is in, and Deno's reports it stopped before it has): such a memory is never kept for another
    // call, and is wiped again, whole, once every such worker says it stopped.
    const lost = ready.filter((w) => !w.alive);
    if (lost.length === 0) memories.keep(memory, sparesBound());
    else void Promise.all(lost.map((w) => w.stopped)).then(() => blocks.wipeAgain());
  }
}

/**
 * argon2id (the same bytes as fourfold's argon2id and argon2idAsync, with
 * the same options, and `workers`), with the memory filled on the pool's
 * workers: p = 1 leaves the calling thread free, and the p lanes of each
 * slice run on up to p cores. Where memory cannot be shared with workers
 * or none can start, it runs on the calling thread in short turns.
 *
 * @example
 * ```ts
 * import { argon2id } from 'fourfold/parallel';
 * const key = await argon2id(password, salt, { t: 3, m: 65536, p: 4 }); // four lanes on four cores
 * ```
 */
export function argon2id(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2ParallelOpts): Promise<Bytes> {
  return argon2Parallel('argon2id', password, salt, opts);
}

/** argon2i with its memory filled on the pool's workers, as argon2id. */
export function argon2i(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2ParallelOpts): Promise<Bytes> {
  return argon2Parallel('argon2i', password, salt, opts);
}

/** argon2d with its memory filled on the pool's workers, as argon2id. */
export function argon2d(password: string | Uint8Array, salt: string | Uint8Array, opts: Argon2ParallelOpts): Promise<Bytes> {
  return argon2Parallel('argon2d', password, salt, opts);
}
