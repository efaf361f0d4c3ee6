/** Helpers for the fourfold/parallel tests: waiting for workers, and what they warn. */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import * as P from 'fourfold/parallel';
import { contention, holdWorkers, pool, type PoolWorker } from '../internal.js';

/**
 * Lets the pool start `n` workers even where the machine has fewer logical
 * cores (the pool's own bound), so that the scheduling of several workers
 * is tested on a two-core machine too.
 */
export function allowWorkers(n: number): void {
  if (n > pool.maxWorkers) pool.limit = n;
  keepWorkers();
}

const processCpu = contention.cpu;

/**
 * Keeps the workers at work even where the process gets about one core (a
 * loaded test machine, other test files running): the scheduler's
 * judgement of a shared core, tested with fake clocks in schedule.test.ts,
 * would otherwise leave them out of calls these tests need them in.
 * workersAsUsual() puts the judgement back.
 */
export function keepWorkers(): void {
  contention.cpu = () => undefined;
  contention.starvedUntil = 0;
  contention.inARow = 0;
}

export function workersAsUsual(): void {
  contention.cpu = processCpu;
  contention.starvedUntil = 0;
  contention.inARow = 0;
}

/** Fails unless every free slot of every worker of the pool is all zeros: nothing of a call's bytes stays there. */
export function assertSlotsZero(label: string): void {
  for (const w of pool.workers)
    for (const slot of (w as unknown as { freeSlots: Uint8Array[] }).freeSlots)
      assert.ok(
        slot.every((b) => b === 0),
        `${label}: a slot is not zeroed`,
      );
}

/**
 * Runs `f` and counts what its calls gave the pool's workers: jobs
 * (PoolWorker.run), whether a worker did them or the calling thread took
 * them back unstarted (rule 4 of docs/parallel.md, which a loaded machine
 * makes common), and slots (PoolWorker.slot) the jobs' bytes were copied
 * into. status().jobs counts only the jobs a worker did.
 */
export async function handedOut(f: () => Promise<unknown>): Promise<{ jobs: number; slots: number }> {
  const count = { jobs: 0, slots: 0 };
  const workers = pool.workers;
  const originals = workers.map((w) => ({ run: w.run, slot: w.slot }));
  for (const w of workers) {
    const { run, slot } = w;
    w.run = ((...args: Parameters<PoolWorker['run']>) => {
      count.jobs++;
      return run.apply(w, args);
    }) as PoolWorker['run'];
    w.slot = (bytes: number) => {
      count.slots++;
      return slot.call(w, bytes);
    };
  }
  try {
    await f();
  } finally {
    for (const [i, w] of workers.entries()) Object.assign(w, originals[i]);
  }
  return count;
}

/**
 * Waits until `n` workers have started: a call of n + 1 pieces starts them
 * (while they start, calls run on the calling thread). Calls are repeated:
 * in Deno an idle worker is ended after a while.
 */
export async function warmPool(n: number): Promise<void> {
  allowWorkers(n);
  const data = new Uint8Array((n + 1) << 20);
  for (let t = 0; P.status().ready < n; t++) {
    assert.ok(t < 500, `workers did not start: ${JSON.stringify(P.status())}`);
    await P.chacha20(new Uint8Array(32), new Uint8Array(12), data);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The first `n` workers of the pool, started (P.warm; fewer where fewer
 * can start: allowWorkers) and held until release() (holdWorkers in src/testing.ts): a
 * test that takes a worker, to watch its jobs or to make one of them fail,
 * still has it after a pause, such as the calling thread computing the
 * bytes to compare with (in Deno a worker idle for 250 ms is ended: pool/spawn.ts).
 */
export async function heldWorkers(n: number): Promise<{ workers: PoolWorker[]; release(): void }> {
  // Held from their start (P.warm starts them before it awaits): one ready long before another is not ended meanwhile.
  const warming = P.warm({ workers: n });
  const workers = pool.workers.slice(0, n);
  const hold = holdWorkers(workers);
  await warming;
  // A worker that failed to start left the pool.
  return { workers: workers.filter((w) => pool.workers.includes(w)), release: hold.release };
}

/** For a test file: `n` workers, started before its tests; the default pool again, ended, after them. */
export function withWorkers(n: number): void {
  before(async () => {
    P.configure({ workers: n });
    await warmPool(n);
  });
  after(() => {
    P.configure({ workers: undefined });
    P.terminate();
    pool.limit = undefined;
    workersAsUsual();
  });
}

/**
 * Resolves once each of `workers`, terminated, has stopped running and the
 * slots of the jobs it was in were zeroed again (PoolWorker.stopped: in
 * Node, Deno and Bun when the thread has exited; for a Web Worker, which
 * does not say, the pool's bound on how long it may still run). Fails if
 * that takes more than `ms`.
 */
export async function whenStopped(workers: readonly PoolWorker[], ms = 10_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`terminated workers had not stopped after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([Promise.all(workers.map((w) => w.stopped)), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What console.warn is given from now until restore() (which puts console.warn back), instead of printing it. */
export function captureWarnings(): unknown[][] & { restore(): void } {
  const warn = console.warn;
  const warnings: unknown[][] = [];
  console.warn = (...args: unknown[]) => void warnings.push(args);
  return Object.assign(warnings, { restore: () => void (console.warn = warn) });
}
