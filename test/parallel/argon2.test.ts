/**
 * fourfold/parallel's Argon2 (src/parallel/argon2.ts): the bytes of
 * fourfold/argon2's synchronous calls and of @noble/hashes for argon2id,
 * argon2i and argon2d over p = 1 to 5, 8 and 9 (more lanes than the seven
 * worker scratches and the calling thread), t = 1 to 3, the smallest
 * memories (m = 8p, and m rounded down to a multiple of 4p), both
 * versions, a key and associated data, tags of 4 and 100 bytes, on no
 * worker, one and three; progress that only rises and ends at exactly 1;
 * an AbortSignal before and during a call; concurrent calls; a core kept
 * busy by another thread; no memory shared with workers (a page that is
 * not cross-origin isolated, an engine that refuses a shared
 * WebAssembly.Memory).
 *
 * The class tests run on every path a call's segments can take: simd
 * workers (worker.js) or js workers (worker-js.js), with the calling
 * thread's lanes on the simd or the js tier. On each, a worker lost
 * mid-call (terminate()) or failing a segment restarts the call on the
 * calling thread with the same bytes, terminate() while a call is pending
 * never leaves it hanging, an abort stops it, and the shared memory kept
 * for the next call is all zero after every way a call ends.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import { argon2d, argon2i, argon2id, type Argon2Opts } from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import { argon2d as nobleD, argon2i as nobleI, argon2id as nobleId } from '@noble/hashes/argon2.js';
import { assertBytes, isAllZero, NO_ABORT, NO_SECOND_THREAD, NO_SIMD, rand, spinThread } from '../helpers.js';
import { holdWorkers, pool, type PoolWorker, spareSharedMemory } from '../internal.js';
import { allowWorkers, whenStopped, workersAsUsual } from './pool-helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
const NO_THREADS: false | string = HAS_THREADS ? false : 'not applicable: this engine has no threads (the first tests cover the calling thread)';
/** Memory shared with workers (pool/pool-worker.ts canShare): without it every call runs on the calling thread. */
const SHARES = typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
const NO_SHARING: false | string = NO_THREADS || (SHARES ? false : 'not applicable: no memory shared with workers here (the calls run on the calling thread)');

type Type = 'argon2id' | 'argon2i' | 'argon2d';
const TYPES: readonly Type[] = ['argon2id', 'argon2i', 'argon2d'];
const SYNC = { argon2id, argon2i, argon2d };
const NOBLE = { argon2id: nobleId, argon2i: nobleI, argon2d: nobleD };
const PARALLEL = { argon2id: P.argon2id, argon2i: P.argon2i, argon2d: P.argon2d };
type ParallelOpts = P.Argon2ParallelOpts;

after(async () => {
  P.configure({ workers: undefined });
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
  await F.ready();
});

/** No worker holds a call any more: status() counts what workers are pinned for (streams, scrypt lanes, Argon2 calls). */
const nothingPinned = (): boolean => P.status().streams === 0;

/** Until `condition` holds, polled once per timer turn; fails after `ms` (a bound on a hang, not a wait standing in for the condition). */
async function until(what: string, condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `${what}: not within ${ms / 1000} s (${JSON.stringify(P.status())})`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** The shared memory kept for the next call is all zero (and there is one: a call on workers keeps it). */
function assertSpareZero(what: string): void {
  const spare = spareSharedMemory();
  assert.ok(spare !== undefined, `${what}: no shared memory was kept for the next call`);
  assert.ok(isAllZero(spare), `${what}: the shared memory kept for the next call is not zero`);
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

// ---------------------------------------------------------------- the cases

interface Case {
  type: Type;
  password: Uint8Array;
  salt: Uint8Array;
  opts: Argon2Opts;
  /** The `workers` option of the parallel call. */
  workers: number;
}

const label = (c: Case): string => {
  const o = c.opts;
  return (
    `${c.type} p=${o.p} t=${o.t} m=${o.m} v=0x${(o.version ?? 0x13).toString(16)} dkLen=${o.dkLen}` +
    `${o.key === undefined ? '' : ' key'}${o.personalization === undefined ? '' : ' ad'} workers=${c.workers}`
  );
};

/**
 * Nine cases for p lanes: every type on 0, 1 and 3 workers, each type with
 * each of three memories (m = 8p: two blocks a segment, the first
 * segments of the first pass with nothing to compute; m = 12p - 1, which
 * rounds down to 8p; and 20p + 3, five blocks a segment), t from 1 to 3,
 * both versions, tags of 4 and 100 bytes, a key, associated data, both or
 * neither.
 */
function casesFor(p: number, workerCounts: readonly number[] = [0, 1, 3]): Case[] {
  return Array.from({ length: 9 }, (_, j) => {
    const row = Math.floor(j / 3);
    const opts: Argon2Opts = {
      p,
      t: 1 + ((j + p) % 3),
      m: [8 * p, 12 * p - 1, 20 * p + 3][(j + row) % 3]!,
      version: (j + p) % 2 === 0 ? 0x13 : 0x10,
      dkLen: (j + row) % 2 === 0 ? 4 : 100,
    };
    if (j % 4 === 1 || j % 4 === 3) opts.key = rand(1 + (j % 32));
    if (j % 4 >= 2) opts.personalization = rand(j);
    return { type: TYPES[j % 3]!, password: rand(j * 7), salt: rand(8 + j), opts, workers: workerCounts[row % workerCounts.length]! };
  });
}

const LANES = [1, 2, 3, 4, 5, 8, 9];
const CASES = LANES.flatMap((p) => casesFor(p));

/** The cases of p lanes, each on the workers `workers(j)` says (j: its index). */
const casesOf = (p: number, workers: (j: number) => number): Case[] => CASES.filter((c) => c.opts.p === p).map((c, j) => ({ ...c, workers: workers(j) }));

/**
 * The bytes of fourfold/argon2's synchronous call, computed once per case
 * (by its opts: the same case on other workers shares them), and checked
 * against @noble/hashes' for the small ones (the larger ones' agreement is
 * test/argon2/differential.test.ts's).
 */
const expected = new WeakMap<Argon2Opts, Uint8Array>();
function want(c: Case): Uint8Array {
  let tag = expected.get(c.opts);
  if (tag === undefined) {
    tag = SYNC[c.type](c.password, c.salt, c.opts);
    if (c.opts.t * c.opts.m <= 1024) assertBytes(tag, NOBLE[c.type](c.password, c.salt, c.opts), `${label(c)}: fourfold/argon2 and @noble/hashes differ`);
    expected.set(c.opts, tag);
  }
  return tag;
}

const parallel = (c: Case, more: Partial<ParallelOpts> = {}): Promise<Uint8Array> =>
  PARALLEL[c.type](c.password, c.salt, { ...c.opts, workers: c.workers, ...more });

/** A call on more memory than the shared memory kept now (t = 1): it needs a new one. */
function aboveSpare(p: number, type: Type = 'argon2id'): Case {
  const kept = spareSharedMemory()?.length ?? 0;
  const m = 4 * p * Math.ceil((kept / 1024 + 64) / (4 * p));
  return { type, password: rand(12), salt: rand(16), opts: { p, t: 1, m }, workers: 2 };
}

const heavyCases = new Map<string, Case>();
/** A call of some weight (12 slices of 64 blocks a lane), for the tests that need one in progress: one per p and type, on 3 workers. */
function heavy(p: number, type: Type = 'argon2id'): Case {
  let c = heavyCases.get(`${p} ${type}`);
  if (c === undefined) {
    c = { type, password: rand(16), salt: rand(16), opts: { p, t: 3, m: 256 * p, personalization: rand(5) }, workers: 3 };
    heavyCases.set(`${p} ${type}`, c);
  }
  return c;
}

// ---------------------------------------------------------------- the calling thread's tier and the workers'

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

/** The jobs that reach a worker from now on, by their op. */
function jobsOf(w: PoolWorker): { ops: string[]; restore(): void } {
  const ops: string[] = [];
  const call = w.call;
  w.call = function (this: PoolWorker, op: string, ...rest: unknown[]) {
    ops.push(op);
    return (call as (...a: unknown[]) => Promise<unknown>).call(this, op, ...rest);
  } as PoolWorker['call'];
  return { ops, restore: () => void delete (w as { call?: unknown }).call };
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

/** Progress reports that only rise, from 0 to 1, and end with exactly one 1. */
function assertProgress(what: string, seen: number[]): void {
  assert.ok(seen.length >= 2, `${what}: ${seen.length} progress reports`);
  assert.equal(seen[seen.length - 1], 1, `${what}: the last report is ${seen[seen.length - 1]}`);
  assert.equal(seen.filter((f) => f === 1).length, 1, `${what}: 1 reported more than once`);
  assert.ok(seen[0]! > 0, `${what}: a first report of ${seen[0]}`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `${what}: report ${i} is ${seen[i]}, after ${seen[i - 1]}`);
}

// ---------------------------------------------------------------- the tests

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
    for (const p of [1, 3]) {
      const c = { ...heavy(p, 'argon2d'), workers: 2 };
      assertBytes(await parallel(c), want(c), `${label(c)}, a core busy`);
    }
    assert.ok(busy.turns() > 0, 'the other thread did not run');
  } finally {
    await busy.stop();
    P.configure({ workers: undefined });
  }
});

describe('the shared memory kept for the next call', { skip: NO_SHARING }, () => {
  it('is all zero after a call, the largest one kept and used again', async () => {
    allowWorkers(2);
    const big = aboveSpare(3);
    assertBytes(await parallel(big), want(big));
    assertSpareZero('after a call');
    const kept = spareSharedMemory()!;
    // A smaller call takes the kept memory, and gives it back.
    const small = casesOf(2, () => 2)[5]!;
    assertBytes(await parallel(small), want(small));
    assertSpareZero('after a smaller call');
    assert.equal(spareSharedMemory()!.length, kept.length, 'the kept memory was not used again');
    const bigger = aboveSpare(1);
    assertBytes(await parallel(bigger), want(bigger));
    assertSpareZero('after a larger call');
    assert.ok(spareSharedMemory()!.length > kept.length, 'the larger memory was not kept');
  });

  it('is all zero after an abort mid-call and after onProgress threw, and the next call gives the bytes', { skip: NO_ABORT }, async () => {
    allowWorkers(2);
    for (const p of [1, 3]) {
      const c = { ...heavy(p), workers: 2 };
      const controller = new AbortController();
      const reason = new Error(`stop p = ${p}`);
      let reports = 0;
      await assert.rejects(
        parallel(c, {
          signal: controller.signal,
          onProgress: () => {
            reports++;
            controller.abort(reason);
          },
        }),
        (e) => e === reason,
      );
      assert.equal(reports, 1, `p = ${p}: progress after the abort`);
      assertSpareZero(`p = ${p}, after the abort`);
      assert.ok(nothingPinned(), `p = ${p}: a worker is still pinned`);
      const oops = new Error('from onProgress');
      await assert.rejects(
        parallel(c, {
          onProgress: () => {
            throw oops;
          },
        }),
        (e) => e === oops,
      );
      assertSpareZero(`p = ${p}, after onProgress threw`);
      assert.ok(nothingPinned(), `p = ${p}: a worker is still pinned`);
      assertBytes(await parallel(c), want(c), `p = ${p}, the call after`);
    }
  });
});

describe('memory that cannot be shared with workers: the calls run on the calling thread, the same bytes, no job to a worker', () => {
  /** Workers started (with the slots of shared memory) before the change `during` makes and undoes. */
  async function sameBytesWithoutJobs(
    what: string,
    during: () => (() => void) | undefined,
    t: { skip(why: string): void },
    cases: () => Case[] = () => [...casesOf(3, () => 2).slice(0, 4), heavy(1), casesOf(9, () => 3)[7]!],
  ): Promise<void> {
    allowWorkers(3);
    const warming = P.warm({ workers: 3 });
    // Held from their start: a worker ended for idleness meanwhile (Deno), and another started, would take jobs unwatched.
    const hold = holdWorkers(pool.workers);
    await warming;
    const undo = during();
    if (undo === undefined) {
      hold.release();
      t.skip(`not applicable: ${what} cannot be simulated in this engine`);
      return;
    }
    const watch = pool.workers.map((w) => jobsOf(w));
    try {
      for (const c of cases()) {
        const seen: number[] = [];
        assertBytes(await parallel(c, { onProgress: (f) => seen.push(f) }), want(c), `${what}: ${label(c)}`);
        assert.equal(seen.at(-1), 1);
      }
      assert.deepEqual(
        watch.flatMap((j) => j.ops),
        [],
        `${what}: jobs went to a worker`,
      );
    } finally {
      for (const j of watch) j.restore();
      hold.release();
      undo();
      P.terminate();
    }
  }

  it('a page that is not cross-origin isolated (crossOriginIsolated false)', { skip: NO_THREADS }, async (t) => {
    const g = globalThis as { crossOriginIsolated?: boolean };
    await sameBytesWithoutJobs(
      'a page not cross-origin isolated',
      () => {
        const was = Object.getOwnPropertyDescriptor(globalThis, 'crossOriginIsolated');
        try {
          Object.defineProperty(globalThis, 'crossOriginIsolated', { value: false, configurable: true, writable: true });
        } catch {
          return undefined;
        }
        assert.equal(P.status().shared, false);
        return () => {
          if (was === undefined) delete g.crossOriginIsolated;
          else Object.defineProperty(globalThis, 'crossOriginIsolated', was);
        };
      },
      t,
    );
  });

  it('an engine that refuses a shared WebAssembly.Memory', { skip: NO_SHARING }, async (t) => {
    const Memory = WebAssembly.Memory;
    let refused = 0;
    await sameBytesWithoutJobs(
      'no shared WebAssembly.Memory',
      () => {
        WebAssembly.Memory = class extends Memory {
          constructor(descriptor: WebAssembly.MemoryDescriptor) {
            if (descriptor.shared === true) {
              refused++;
              throw new RangeError('no shared memory here');
            }
            super(descriptor);
          }
        };
        return () => {
          WebAssembly.Memory = Memory;
        };
      },
      t,
      // Above the memory kept from the calls before, which needs no new one.
      () => [aboveSpare(3), aboveSpare(1, 'argon2i'), aboveSpare(9, 'argon2d')].map((c) => ({ ...c, workers: 3 })),
    );
    assert.ok(refused > 0, 'no shared memory was asked for');
  });
});

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
