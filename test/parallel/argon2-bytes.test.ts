/**
 * fourfold/parallel's Argon2 (src/parallel/argon2.ts), its calls: the
 * bytes of fourfold/argon2's synchronous calls and of @noble/hashes for
 * argon2id, argon2i and argon2d over p = 1 to 5, 8 and 9 (more lanes than
 * the seven worker scratches and the calling thread), t = 1 to 3, the
 * smallest memories (m = 8p, and m rounded down to a multiple of 4p), both
 * versions, a key and associated data, tags of 4 and 100 bytes, on no
 * worker, one and three; p = 1 on one worker, its jobs' size; progress
 * that only rises and ends at exactly 1; an AbortSignal before a call; its
 * options' checks; the caller's arrays changed mid-call; concurrent
 * calls; a core kept busy by another thread. The memory kept between
 * calls is argon2-memory.test.ts's, the paths of a call's segments
 * argon2-paths.test.ts's; the cases are argon2-cases.ts.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import * as P from 'fourfold/parallel';
import { assertBytes, NO_ABORT, NO_SECOND_THREAD, NO_SIMD, rand, spinThread } from '../helpers.js';
import { holdWorkers, pool, type PoolWorker } from '../internal.js';
import {
  CASES,
  type Case,
  casesOf,
  heavy,
  LANES,
  label,
  NO_SHARING,
  nothingPinned,
  type ParallelOpts,
  parallel,
  poolAsUsual,
  TYPES,
  want,
  assertProgress,
} from './argon2-cases.js';
import { allowWorkers } from './pool-helpers.js';

after(poolAsUsual);

it('the cases cover the header: every type with both versions, t = 1 to 3, both kinds of small m, dkLen 4 and 100, key and data, 0, 1 and 3 workers', () => {
  for (const p of LANES) {
    const mine = CASES.filter((c) => c.opts.p === p);
    for (const type of TYPES)
      for (const workers of [0, 1, 3])
        assert.ok(
          mine.some((c) => c.type === type && c.workers === workers),
          `p=${p} ${type} on ${workers} workers`,
        );
    assert.ok(mine.some((c) => c.opts.m === 8 * p));
    assert.ok(
      mine.some((c) => c.opts.m % (4 * p) !== 0 && Math.floor(c.opts.m / (4 * p)) === 2),
      `p=${p}: m that rounds down to 8p`,
    );
    for (const dkLen of [4, 100]) assert.ok(mine.some((c) => c.opts.dkLen === dkLen));
  }
  for (const type of TYPES)
    for (const version of [0x10, 0x13])
      for (const t of [1, 2, 3])
        assert.ok(
          CASES.some((c) => c.type === type && c.opts.version === version && c.opts.t === t),
          `${type} v=${version} t=${t}`,
        );
  assert.ok(CASES.some((c) => c.opts.key !== undefined && c.opts.personalization !== undefined));
  assert.ok(CASES.some((c) => c.opts.key === undefined && c.opts.personalization === undefined));
});

it(`the bytes of fourfold/argon2 and @noble/hashes: ${CASES.length} cases, p = ${LANES.join(', ')}, on 0, 1 and 3 workers`, async () => {
  allowWorkers(3);
  for (const c of CASES) assertBytes(await parallel(c), want(c), label(c));
  assert.ok(nothingPinned(), 'a worker is still pinned for a call');
});

it('9 lanes on 8 workers asked: seven workers (the scratches of the first page) and the calling thread; the same bytes for p = 8 and 9', {
  skip: NO_SHARING,
}, async () => {
  P.terminate();
  allowWorkers(8);
  try {
    for (const p of [9, 8]) {
      const base = heavy(p, p === 9 ? 'argon2i' : 'argon2d');
      const c = { ...base, opts: { ...base.opts, t: 1 }, workers: 8 };
      const jobs = P.status().jobs;
      assertBytes(await parallel(c), want(c), label(c));
      assert.equal(P.status().workers, 7, `p = ${p}: ${JSON.stringify(P.status())}`);
      // Each worker attaches, fills its segments and detaches: at least 7 * (1 + 4) jobs.
      assert.ok(P.status().jobs >= jobs + 35, `p = ${p}: ${P.status().jobs - jobs} jobs done by the workers`);
    }
  } finally {
    P.terminate();
    pool.limit = undefined;
  }
});

it('p = 1 runs on one worker, the calling thread free: timers fire during the call, and the worker did its segments', { skip: NO_SHARING }, async () => {
  allowWorkers(1);
  P.configure({ workers: 1 });
  await P.warm();
  const jobs = P.status().jobs;
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const c: Case = { type: 'argon2id', password: rand(10), salt: rand(16), opts: { t: 2, m: 8192 }, workers: 1 };
  try {
    assertBytes(await P.argon2id(c.password, c.salt, c.opts), want(c));
  } finally {
    clearInterval(timer);
    P.configure({ workers: undefined });
  }
  // Attach and the segments (8,192 blocks: one job), then detach (which may still be on its way).
  assert.ok(P.status().jobs >= jobs + 2, `the worker ran ${P.status().jobs - jobs} jobs`);
  assert.ok(ticks >= 2, `the calling thread ran ${ticks} timers during the call`);
  assert.ok(nothingPinned());
});

it('p = 1 on one worker: jobs of at most 16 Ki blocks (short slices joined, a longer segment cut), two posted at once at most', {
  skip: NO_SHARING || NO_SIMD,
}, async () => {
  allowWorkers(1);
  P.configure({ workers: 1 });
  await P.warm();
  const w = pool.workers[0]!;
  // Held through both calls: between them this thread computes the bytes to compare with.
  const hold = holdWorkers([w]);
  /** Blocks of each segments job sent (jobs.ts: the first slice's count, then whole slices), and the most unanswered at once. */
  const blocks: number[] = [];
  let unanswered = 0;
  let most = 0;
  const call = w.call;
  w.call = function (this: PoolWorker, op: string, params: Record<string, unknown>, ...rest: unknown[]) {
    const sent = (call as (...a: unknown[]) => Promise<unknown>).call(this, op, params, ...rest);
    if (op !== 'argon2.segments') return sent;
    const { lanes, from, count, slices } = params as { lanes: number[]; from: number; count: number; slices: number };
    blocks.push(lanes.length * (count + (slices - 1) * (from + count)));
    most = Math.max(most, ++unanswered);
    return sent.finally(() => unanswered--);
  } as PoolWorker['call'];
  try {
    // Segments of 16,640 blocks, one pass: each cut in two (the first from its third block). 19 MiB at t = 2: three slices a job.
    for (const [m, t, jobs] of [
      [66560, 1, 8],
      [19456, 2, 3],
    ] as const) {
      blocks.length = 0;
      const c: Case = { type: 'argon2id', password: rand(10), salt: rand(16), opts: { t, m }, workers: 1 };
      assertBytes(await P.argon2id(c.password, c.salt, c.opts), want(c), `m = ${m}, t = ${t}`);
      assert.deepEqual(blocks.length, jobs, `m = ${m}, t = ${t}: ${blocks.join(', ')} blocks a job`);
      assert.ok(Math.max(...blocks) <= 16384, `m = ${m}, t = ${t}: a job of ${Math.max(...blocks)} blocks`);
      // Every block but each lane's first two (made on the calling thread), once a pass.
      assert.equal(
        blocks.reduce((a, b) => a + b, 0),
        t * m - 2,
        `m = ${m}, t = ${t}: the blocks the jobs computed`,
      );
    }
  } finally {
    delete (w as { call?: unknown }).call;
    hold.release();
    P.configure({ workers: undefined });
  }
  assert.ok(most <= 2, `${most} jobs unanswered at once`);
  assert.ok(nothingPinned());
});

it('progress rises to exactly one 1, for p = 1, 3 and 9, on workers and on the calling thread alone', async () => {
  allowWorkers(3);
  for (const workers of [0, 3]) {
    for (const p of [1, 3, 9]) {
      const c = { ...heavy(p), workers };
      const seen: number[] = [];
      assertBytes(await parallel(c, { onProgress: (f) => seen.push(f) }), want(c), label(c));
      assertProgress(label(c), seen);
    }
  }
});

it('a signal aborted before the call: it rejects with the reason; an AbortError for abort() without one', { skip: NO_ABORT }, async () => {
  const c = heavy(2);
  const controller = new AbortController();
  const reason = new Error('stopped before');
  controller.abort(reason);
  await assert.rejects(parallel(c, { signal: controller.signal }), (e) => e === reason);
  const plain = new AbortController();
  plain.abort();
  await assert.rejects(parallel(c, { signal: plain.signal }), { name: 'AbortError' });
  await assert.rejects(parallel({ ...c, workers: 0 }, { signal: plain.signal }), { name: 'AbortError' });
});

it('checks its options as fourfold/argon2 does, and workers; a promise that rejects, never a throw', async () => {
  const bad: [Partial<ParallelOpts>, new (...a: never[]) => Error][] = [
    [{ workers: -1 }, RangeError],
    [{ workers: 1.5 }, RangeError],
    [{ workers: '2' as never }, TypeError],
    [{ lanes: 2 } as never, TypeError],
    [{ m: 15, p: 2 }, RangeError],
    [{ t: 0 }, RangeError],
    [{ onProgress: 5 as never }, TypeError],
    [{ signal: {} as never }, TypeError],
  ];
  for (const [opts, type] of bad) {
    const call = P.argon2id('pw', 'somesalt', { t: 1, m: 16, ...opts });
    assert.ok(call instanceof Promise, JSON.stringify(opts));
    await assert.rejects(call, type, JSON.stringify(opts));
  }
  await assert.rejects(P.argon2d('pw', 'short', { t: 1, m: 8 }), RangeError);
});

it("the caller's arrays changed once the call started (plain and shared): the bytes of the inputs as given", async () => {
  allowWorkers(2);
  const shared = (b: Uint8Array): Uint8Array => {
    if (typeof SharedArrayBuffer !== 'function') return b.slice();
    const view = new Uint8Array(new SharedArrayBuffer(b.length + 8), 8, b.length);
    view.set(b);
    return view;
  };
  const base = heavy(3, 'argon2d');
  const key = rand(16);
  const personalization = base.opts.personalization as Uint8Array;
  const keyed: Case = { ...base, opts: { ...base.opts, key } };
  for (const [kind, wrap] of [
    ['plain', (b: Uint8Array) => b.slice()],
    ['shared', shared],
  ] as const) {
    for (const workers of [0, 2]) {
      const c = { ...keyed, workers };
      const given = [c.password, c.salt, key, personalization].map((b) => wrap(b));
      const [password, salt, k, ad] = given as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
      const call = P.argon2d(password, salt, { ...c.opts, key: k, personalization: ad, workers });
      for (const b of given) b.fill(0x55);
      assertBytes(await call, want(c), `${kind} arrays, ${workers} workers`);
    }
  }
});

it('concurrent calls on the same workers: each its own bytes', { skip: NO_SHARING }, async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  try {
    const cases = [heavy(1, 'argon2d'), heavy(3, 'argon2i'), casesOf(9, () => 2)[4]!, heavy(2), casesOf(4, () => 2)[8]!];
    const got = await Promise.all(cases.map((c) => parallel(c, { workers: 2 })));
    for (const [i, c] of cases.entries()) assertBytes(got[i], want(c), label(c));
    assert.ok(nothingPinned());
  } finally {
    P.configure({ workers: undefined });
  }
});

it('a core kept busy by another thread: the same bytes, p = 1 and 3', { skip: NO_SHARING || NO_SECOND_THREAD }, async () => {
  allowWorkers(2);
  P.configure({ workers: 2 });
  const busy = await spinThread();
  try {
    await busy.spin('for (let i = 0; i < 1e5; i++);', {});
    // Spinning before the calls and still after them: how much of the calls' time it had is the scheduler's (Bun at load 4 in CI: none).
    await busy.turn();
    for (const p of [1, 3]) {
      const c = { ...heavy(p, 'argon2d'), workers: 2 };
      assertBytes(await parallel(c), want(c), `${label(c)}, a core busy`);
    }
    await busy.turn();
  } finally {
    await busy.stop();
    P.configure({ workers: undefined });
  }
});
