/**
 * fourfold/parallel's blake3 against fourfold's (and @noble/hashes'): inputs whose whole
 * chunks split into uneven subtrees (1 MiB jobs and a tail of every smaller
 * power of two), around the size below which it hashes inline, with
 * key / context / dkLen, pools of 1..4 workers, both tiers; that the
 * workers did the work, left their slots zeroed and the kernel wiped; that
 * a pool terminated mid-call leaves its pieces to the calling thread; and
 * the errors.
 */
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { blake3 } from 'fourfold/blake3';
import { blake3 as parallelBlake3, terminate, type Blake3ParallelOpts } from 'fourfold/parallel';
import { PARALLEL_MIN, pool } from '../internal.js';
import { allowWorkers, whenStopped, workersAsUsual } from '../parallel/pool-helpers.js';

const poolStatus = () => pool.status();
import { assertBytes, assertKernelsWiped, forEachTier, isAllZero, rand } from '../helpers.js';
import { nobleBlake3 } from './reference.js';

const MiB = 1 << 20;
/** Uneven trees: whole chunks of 2^k + tails of 1..1023 chunks, with partial last chunks. */
const SIZES = [
  PARALLEL_MIN - 1,
  PARALLEL_MIN,
  PARALLEL_MIN + 1,
  2 * MiB + 1024,
  3 * MiB + 1025,
  3 * MiB + 511 * 1024 + 7,
  5 * MiB - 1,
  6 * MiB + 1023 * 1024 + 1024,
  9 * MiB + 333 * 1024 + 1,
];

const msgs = new Map<number, Uint8Array>();
const msg = (n: number) => {
  if (!msgs.has(n)) msgs.set(n, rand(n));
  return msgs.get(n)!;
};

/**
 * Waits until `n` workers have started (a first call starts them; calls
 * meanwhile use the calling thread). Calls are repeated: in Deno an idle
 * worker is ended after a while.
 */
async function workersReady(n: number): Promise<void> {
  allowWorkers(n);
  // An input of n + 1 pieces: a call uses at most one worker fewer than its pieces.
  for (let t = 0; poolStatus().ready < n; t++) {
    assert.ok(t < 300, `workers did not start: ${JSON.stringify(poolStatus())}`);
    await parallelBlake3(msg((n + 1) * MiB), { workers: n });
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every free slot of every worker (the pool's, or `workers` kept from before terminate()) is zero; the busy ones are not, until their job ends. */
function assertSlotsZero(label: string, workers: readonly unknown[] = pool.workers): void {
  assert.ok(workers.length > 0, `${label}: no worker to look at`);
  for (const [i, w] of workers.entries()) {
    for (const slot of (w as { freeSlots: Uint8Array[] }).freeSlots)
      assert.ok(isAllZero(slot), `${label}: a slot of worker ${i} of ${workers.length} is not zeroed`);
  }
}

after(() => {
  terminate();
  pool.limit = undefined;
  workersAsUsual();
});

forEachTier("fourfold/parallel's blake3", (tier) => {
  before(async () => {
    await workersReady(4);
  });

  it("gives blake3's bytes at sizes that split into uneven subtrees, with 1..4 workers", async () => {
    for (const n of SIZES) {
      const expected = blake3(msg(n));
      for (const workers of [1, 2, 3, 4]) assertBytes(await parallelBlake3(msg(n), { workers }), expected, `${n} bytes, ${workers} workers`);
    }
    // And one against the peer, not only against ourselves.
    assertBytes(await parallelBlake3(msg(SIZES[4]!)), nobleBlake3(msg(SIZES[4]!)), 'vs noble');
  });

  it('with key, context and dkLen (0, 1, 31, 65, 1000)', async () => {
    const key = rand(32);
    const n = SIZES[5]!;
    const cases: Blake3ParallelOpts[] = [
      { key },
      { context: 'fourfold 2025-01-01 parallel test' },
      { context: rand(40) },
      { dkLen: 0 },
      { dkLen: 1 },
      { dkLen: 31 },
      { dkLen: 65, key },
      { dkLen: 1000, context: 'x' },
    ];
    for (const opts of cases) {
      for (const workers of [1, 3])
        assertBytes(
          await parallelBlake3(msg(n), { ...opts, workers }),
          blake3(msg(n), opts),
          `${JSON.stringify({ ...opts, key: opts.key && 'key' })}, ${workers} workers`,
        );
    }
    assertBytes(await parallelBlake3(msg(n), { key, dkLen: 100 }), nobleBlake3(msg(n), { key, dkLen: 100 }), 'keyed vs noble');
  });

  it('below the threshold, with 0 workers, and for short inputs hashes inline with the same bytes', async () => {
    const jobs = poolStatus().jobs;
    for (const n of [0, 1, 1024, 1025, 65537, PARALLEL_MIN - 1]) assertBytes(await parallelBlake3(msg(n), { workers: 2 }), blake3(msg(n)), `${n} bytes`);
    assertBytes(await parallelBlake3(msg(SIZES[3]!), { workers: 0 }), blake3(msg(SIZES[3]!)), 'workers: 0');
    assert.equal(poolStatus().jobs, jobs, 'no job went to a worker');
  });

  it('unaligned views and a view into a larger buffer', async () => {
    const n = SIZES[4]!;
    const buf = rand(n + 8);
    for (const offset of [1, 3, 7])
      assertBytes(await parallelBlake3(buf.subarray(offset, offset + n), { workers: 2 }), blake3(buf.subarray(offset, offset + n)), `offset ${offset}`);
  });

  it("the workers do the work, leave their slots zeroed and this thread's kernel wiped", async () => {
    const jobs = poolStatus().jobs;
    const n = 16 * MiB + 5;
    const key = rand(32);
    // On a loaded machine the calling thread may take back every job before a descheduled worker
    // starts one (the straggler rule): a few calls give the workers their turn.
    for (let call = 0; call < 10 && poolStatus().jobs === jobs; call++) {
      assertBytes(await parallelBlake3(msg(n), { workers: 2, key }), blake3(msg(n), { key }), 'keyed');
    }
    assert.ok(poolStatus().jobs > jobs, `no job went to a worker in 10 calls: ${JSON.stringify(poolStatus())}`);
    assertSlotsZero('after parallelBlake3');
    if (tier === 'simd') assertKernelsWiped('after parallelBlake3', 'blake3');
  });

  it('several calls at once', async () => {
    const sizes = [SIZES[3]!, SIZES[4]!, SIZES[6]!];
    const outs = await Promise.all(sizes.map((n) => parallelBlake3(msg(n), { workers: 3 })));
    sizes.forEach((n, i) => {
      assertBytes(outs[i], blake3(msg(n)), `${n} bytes`);
    });
    assertSlotsZero('after concurrent calls');
  });

  it("terminate() during a call: the workers' pieces fall back to this thread, same bytes, slots zeroed", async () => {
    const n = 16 * MiB + 5;
    const expected = blake3(msg(n));
    // The workers the call is given (started again if the tests before left them idle long enough to end, as Deno does): nothing runs here between.
    await workersReady(4);
    const workers = [...pool.workers];
    const call = parallelBlake3(msg(n), { workers: 2 });
    // The call gave the workers their first jobs before its first await.
    const queued = (w: unknown) => (w as { queued: number }).queued;
    assert.ok(
      workers.some((w) => queued(w) > 0),
      'no job was in flight',
    );
    terminate();
    assertBytes(await call, expected, 'after terminate()');
    // A terminated worker may finish the job it was in before it stops: its slots are zeroed again then.
    await whenStopped(workers);
    assertSlotsZero('a terminated worker', workers);
    await workersReady(4);
  });
});

it('rejects bad arguments like blake3 throws', async () => {
  await assert.rejects(parallelBlake3('abc' as unknown as Uint8Array), TypeError);
  await assert.rejects(parallelBlake3(msg(10), { workers: -1 }), RangeError);
  await assert.rejects(parallelBlake3(msg(10), { workers: 1.5 }), RangeError);
  await assert.rejects(parallelBlake3(msg(10), { workers: '2' as unknown as number }), TypeError);
  await assert.rejects(parallelBlake3(msg(10), { key: new Uint8Array(31) }), RangeError);
  await assert.rejects(parallelBlake3(msg(10), { key: new Uint8Array(32), context: 'x' }), TypeError);
  await assert.rejects(parallelBlake3(msg(10), { dkLen: -1 }), RangeError);
  await assert.rejects(parallelBlake3(msg(10), null as unknown as Blake3ParallelOpts), TypeError);
});
