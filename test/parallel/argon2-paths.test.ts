/**
 * fourfold/parallel's Argon2 (src/parallel/argon2.ts) on every path a
 * call's segments can take: simd workers (worker.js) or js workers
 * (worker-js.js), with the calling thread's lanes on the simd or the js
 * tier. On each, the bytes of fourfold/argon2 for p = 1 to 9; a worker
 * lost mid-call (terminate()) or failing a segment restarts the call on
 * the calling thread with the same bytes; a lost worker still running
 * never has its memory kept; terminate() while a call is pending never
 * leaves it hanging; an abort stops it; and the shared memory kept for
 * the next call is all zero after every way a call ends. The cases are
 * argon2-cases.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { assertBytes, isAllZero, NO_ABORT, NO_SIMD } from '../helpers.js';
import { holdWorkers, pool, type PoolWorker, spareSharedMemory } from '../internal.js';
import {
  aboveSpare,
  assertProgress,
  assertSpareZero,
  type Case,
  casesOf,
  heavy,
  jobsOf,
  label,
  NO_SHARING,
  nothingPinned,
  parallel,
  poolAsUsual,
  TYPES,
  type Type,
  want,
} from './argon2-cases.js';
import { allowWorkers, whenStopped } from './pool-helpers.js';

after(poolAsUsual);

/** Until `condition` holds, polled once per timer turn; fails after `ms` (a bound on a hang, not a wait standing in for the condition). */
async function until(what: string, condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `${what}: not within ${ms / 1000} s (${JSON.stringify(P.status())})`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Whatever shared memory is kept for the next call is all zero (after a lost worker, the call's own is not kept: there may be none). */
function assertKeptZero(what: string): void {
  const spare = spareSharedMemory();
  if (spare !== undefined) assert.ok(isAllZero(spare), `${what}: the shared memory kept for the next call is not zero`);
}

/** Settles within `ms`, or fails: a call left pending by a lost worker is a hang. */
async function settles<T>(what: string, p: Promise<T>, ms = 20_000): Promise<PromiseSettledResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: did not settle in ${ms} ms`)), ms)));
  try {
    return await Promise.race([Promise.allSettled([p]).then((r) => r[0]!), late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Path {
  name: string;
  /** The tier of the workers' script: worker.js ('simd') or worker-js.js ('js'). */
  workers: 'simd' | 'js';
  /** The tier of the calling thread's lanes (ready({ tier })). */
  here: 'simd' | 'js';
  skip: false | string;
}

const PATHS: Path[] = [
  { name: 'simd workers, simd here', workers: 'simd', here: 'simd', skip: NO_SHARING || NO_SIMD },
  { name: 'simd workers, js here', workers: 'simd', here: 'js', skip: NO_SHARING || NO_SIMD },
  { name: 'js workers (worker-js), js here', workers: 'js', here: 'js', skip: NO_SHARING },
  { name: 'js workers (worker-js), simd here', workers: 'js', here: 'simd', skip: NO_SHARING || NO_SIMD },
];

/** The hold on the workers onPath() started, until the next onPath() or letPathGo(). */
let pathHold: { release(): void } | undefined;

/**
 * `n` workers of `path.workers`' tier, started anew, and this thread on
 * `path.here`'s: workers keep the tier they started with, which is the one
 * this thread asked for then. They are held (holdWorkers) until the next
 * onPath() or letPathGo(): the tests take them (pool.workers[0], to make
 * its segment fail) and keep them through calls that run here alone, on
 * the js tier for seconds (a Deno worker idle for 250 ms is otherwise
 * ended, and one started again has this thread's tier).
 */
async function onPath(path: Path, n: number): Promise<void> {
  assert.equal(await F.ready({ tier: path.workers }), path.workers);
  letPathGo();
  P.terminate();
  allowWorkers(n);
  P.configure({ workers: n });
  const warming = P.warm({ workers: n });
  // Held from their start (P.warm starts them before it awaits): one ready long before the other is not ended meanwhile.
  pathHold = holdWorkers(pool.workers);
  const s = await warming;
  assert.equal(s.ready, n, `workers did not start: ${JSON.stringify(s)}`);
  assert.deepEqual(
    pool.workers.map((w) => w.tier),
    Array(n).fill(path.workers),
  );
  if (path.here !== path.workers) assert.equal(await F.ready({ tier: path.here }), path.here);
}

function letPathGo(): void {
  pathHold?.release();
  pathHold = undefined;
}

/**
 * Makes worker `w` fail its `nth` segment from now on: it is sent for a
 * call it does not hold, and answers with an error. `livedOn()`: whether
 * the worker was alive and in the pool when that answer came (later, a
 * Deno worker idle for 250 ms ends: spawn.ts).
 */
function failSegment(w: PoolWorker, nth: number): { failed(): boolean; livedOn(): boolean; restore(): void } {
  let seen = 0;
  let livedOn = false;
  const call = w.call;
  w.call = function (this: PoolWorker, op: string, params: Record<string, unknown>, ...rest: unknown[]) {
    const failing = op === 'argon2.segments' && ++seen === nth;
    const answer = (call as (...a: unknown[]) => Promise<unknown>).call(this, op, failing ? { ...params, call: -1 } : params, ...rest);
    if (failing) answer.catch(() => void (livedOn = w.alive && pool.workers.includes(w)));
    return answer;
  } as PoolWorker['call'];
  return { failed: () => seen >= nth, livedOn: () => livedOn, restore: () => void delete (w as { call?: unknown }).call };
}

for (const path of PATHS) {
  describe(`on workers and here: ${path.name}`, { skip: path.skip }, () => {
    before(() => onPath(path, 2));
    /** A call on the path's two workers (a third would start on this thread's tier). */
    const onTwo = (p: number, type?: Type): Case => ({ ...heavy(p, type), workers: 2 });
    after(async () => {
      letPathGo();
      P.terminate();
      await F.ready();
    });

    it('the bytes of fourfold/argon2 for p = 1, 2, 3, 5 and 9 on 1 and 2 workers; progress rises to one 1', async () => {
      const jobs = P.status().jobs;
      for (const p of [1, 2, 3, 5, 9]) {
        for (const c of casesOf(p, (j) => 1 + (Math.floor(j / 2) % 2)).filter((_, j) => j % 2 === p % 2)) {
          const seen: number[] = [];
          assertBytes(await parallel(c, { onProgress: (f) => seen.push(f) }), want(c), `${path.name}: ${label(c)}`);
          assert.equal(seen.at(-1), 1);
        }
        const c = onTwo(p, TYPES[p % 3]);
        const seen: number[] = [];
        assertBytes(await parallel(c, { onProgress: (f) => seen.push(f) }), want(c), `${path.name}: ${label(c)}`);
        assertProgress(`${path.name}: ${label(c)}`, seen);
      }
      assert.ok(P.status().jobs > jobs, 'no job went to a worker');
      assert.deepEqual(
        pool.workers.map((w) => w.tier),
        [path.workers, path.workers],
        'the workers changed tier',
      );
      assertSpareZero(path.name);
    });

    it('a worker lost mid-call (terminate() from onProgress): the same bytes, progress still rising, the kept memory zero once it stopped', async () => {
      for (const p of [1, 2, 4]) {
        await onPath(path, 2);
        const c = onTwo(p, TYPES[p % 3]);
        const workers = [...pool.workers];
        const seen: number[] = [];
        let terminated = false;
        const got = await parallel(c, {
          onProgress: (f) => {
            seen.push(f);
            if (!terminated && f > 0.2) {
              terminated = true;
              P.terminate();
            }
          },
        });
        assert.ok(terminated, 'terminate() was not called mid-call');
        assertBytes(got, want(c), `${path.name}: ${label(c)}`);
        assertProgress(`${path.name}: ${label(c)}`, seen);
        assert.ok(nothingPinned());
        await whenStopped(workers);
        // A memory a lost worker wrote to is never kept for another call (argon2.ts): whatever is kept is zero.
        assertKeptZero(`${path.name}, p = ${p}, after the lost workers stopped`);
      }
    });

    it("a lost worker still running after terminate() (as a Web Worker finishes its WebAssembly call): the call's memory is never kept for another call", async () => {
      await onPath(path, 2);
      const workers = [...pool.workers];
      // Each worker's thread ends only when the test lets it: until then it runs the jobs it was sent.
      const held: (() => void)[] = [];
      for (const w of workers) {
        const handle = (w as unknown as { handle: { terminate(): Promise<void> } }).handle;
        const terminate = handle.terminate;
        handle.terminate = () => new Promise<void>((resolve) => held.push(() => resolve(terminate.call(handle))));
      }
      const c = aboveSpare(2, 'argon2d');
      const bytes = 65536 + 1024 * c.opts.m;
      let terminated = false;
      try {
        const got = await parallel(c, {
          onProgress: (f) => {
            if (!terminated && f > 0.2) {
              terminated = true;
              P.terminate();
            }
          },
        });
        assert.ok(terminated, 'terminate() was not called mid-call');
        assertBytes(got, want(c), `${path.name}: ${label(c)}`);
        assert.equal(held.length, workers.length, 'the workers were not ended');
        assert.ok((spareSharedMemory()?.length ?? 0) < bytes, "the call's memory was kept while a lost worker could still write to it");
      } finally {
        P.terminate();
        for (const stop of held) stop();
      }
      await whenStopped(workers);
      assert.ok(
        (spareSharedMemory()?.length ?? 0) < bytes,
        "the call's memory was kept once the lost workers stopped (Deno says a worker stopped before its WebAssembly call ends)",
      );
      assertKeptZero(`${path.name}: once the lost workers stopped`);
    });

    it('a segment failing on a worker that lives on: the call starts again here, the same bytes', async () => {
      await onPath(path, 2);
      // p = 1 posts slices back to back in jobs of up to 16 Ki blocks: 20 Ki blocks at t = 2 make three,
      // the second failing while the third is queued behind it.
      const alone = { ...onTwo(1, 'argon2id'), opts: { p: 1, t: 2, m: 20480 } };
      // The same worker each time, held by onPath() while each call starts again here.
      const w = pool.workers[0]!;
      for (const [c, nth] of [
        [onTwo(1, 'argon2i'), 1],
        [alone, 2],
        [onTwo(3, 'argon2id'), 1],
        [onTwo(4, 'argon2d'), 5],
      ] as const) {
        const p = c.opts.p;
        assert.equal(pool.workers[0], w, 'the worker whose segment failed is no longer the first');
        const fault = failSegment(w, nth);
        const seen: number[] = [];
        try {
          assertBytes(await parallel(c, { onProgress: (f) => seen.push(f) }), want(c), `${path.name}: ${label(c)}, segment ${nth} failed`);
        } finally {
          fault.restore();
        }
        assert.ok(fault.failed(), 'the segment was not sent');
        assertProgress(`${path.name}: ${label(c)}`, seen);
        assert.ok(fault.livedOn(), 'the worker whose segment failed was ended');
        assert.ok(nothingPinned());
        assertSpareZero(`${path.name}, p = ${p}, after a failed segment`);
      }
    });

    it('terminate() while a call is pending, at any moment: it settles with the bytes (or a clear error), never hangs', async () => {
      const c = onTwo(3, 'argon2i');
      const outcomes: string[] = [];
      /** Each moment: what to wait for after the call started, before terminate(), given its first progress and the jobs its workers were sent. */
      const moments: [string, (progress: Promise<void>, sent: string[][]) => Promise<unknown>][] = [
        ['at once', async () => {}],
        ['after a microtask', () => Promise.resolve()],
        ['once a worker was sent the call', (_, sent) => until('a worker was sent the call', () => sent.some((ops) => ops.includes('argon2.attach')))],
        ['once a worker was sent a segment', (_, sent) => until('a worker was sent a segment', () => sent.some((ops) => ops.includes('argon2.segments')))],
        ['at the first progress', (progress) => progress],
      ];
      for (const [when, wait] of moments) {
        await onPath(path, 2);
        let progressed!: () => void;
        const progress = new Promise<void>((r) => (progressed = r));
        const watch = pool.workers.map((w) => jobsOf(w));
        try {
          const call = parallel(c, { onProgress: () => progressed() });
          await wait(
            progress,
            watch.map((j) => j.ops),
          );
          P.terminate();
          const outcome = await settles(`${path.name}: terminate() ${when}`, call);
          if (outcome.status === 'fulfilled') assertBytes(outcome.value, want(c), `${path.name}: terminate() ${when}`);
          else {
            const e = outcome.reason as Error;
            assert.ok(e instanceof P.WorkerLostError, `${path.name}: terminate() ${when}: ${e?.name}: ${e?.message}`);
          }
          outcomes.push(`${when}: ${outcome.status}`);
        } finally {
          for (const j of watch) j.restore();
        }
        assert.ok(nothingPinned());
      }
      // A cold pool: the workers are still starting when the pool ends.
      P.terminate();
      const cold = parallel(c);
      P.terminate();
      const outcome = await settles(`${path.name}: terminate() while the workers start`, cold);
      assert.equal(outcome.status, 'fulfilled', outcomes.join('; '));
      assertBytes((outcome as PromiseFulfilledResult<Uint8Array>).value, want(c));
    });

    it('an abort during the call rejects with the reason on every thread; the next call gives the bytes', { skip: NO_ABORT }, async () => {
      await onPath(path, 2);
      for (const p of [1, 4]) {
        const c = onTwo(p);
        const controller = new AbortController();
        const reason = new Error(`${path.name}: stop`);
        let reports = 0;
        await assert.rejects(
          parallel(c, {
            signal: controller.signal,
            onProgress: () => {
              if (++reports === 2) controller.abort(reason);
            },
          }),
          (e) => e === reason,
        );
        assert.equal(reports, 2, 'progress after the abort');
        assert.ok(nothingPinned());
        assertSpareZero(`${path.name}, p = ${p}, after the abort`);
        assertBytes(await parallel(c), want(c), `${path.name}: the call after the abort`);
      }
    });
  });
}
