/**
 * fourfold/parallel's scrypt: the bytes of fourfold's scrypt for every
 * shape of call (p of 1 to 5, with no workers, one or several), its lanes
 * on the workers (p = 1 leaves the calling thread free), progress and an
 * AbortSignal across threads, a worker lost mid-lane (terminate() while
 * lanes run) costing time and never bytes, maxmem bounding the lanes in
 * flight, and every lane let go of (no worker left pinned) however the
 * call ends.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import * as P from 'fourfold/parallel';
import { scrypt } from 'fourfold/scrypt';
import { assertBytes, rand, randInt } from '../helpers.js';
import { pool } from '../internal.js';
import { allowWorkers, workersAsUsual } from './pool-helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
const NO_THREADS: false | string = HAS_THREADS ? false : 'not applicable: this engine has no threads (the first test covers the calling thread)';

after(() => {
  P.configure({ workers: undefined });
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
});

/** No worker holds a lane any more (status() counts the state workers hold, streams' and lanes'). */
const nothingPinned = (): boolean => P.status().streams === 0;

it('the bytes of scrypt(): random N, r, p and lengths, on the default pool, on 0 workers and on 2', async () => {
  allowWorkers(2);
  for (const workers of [undefined, 0, 2]) {
    P.configure({ workers });
    for (let i = 0; i < 6; i++) {
      const N = 2 ** (1 + randInt(10));
      const r = 1 + randInt(8);
      const p = 1 + randInt(5);
      const dkLen = 1 + randInt(100);
      const password = rand(randInt(60));
      const salt = rand(randInt(60));
      const label = `workers ${workers} N=${N} r=${r} p=${p}`;
      assertBytes(await P.scrypt(password, salt, { N, r, p, dkLen }), scrypt(password, salt, { N, r, p, dkLen }), label);
    }
  }
  P.configure({ workers: undefined });
  assert.ok(nothingPinned(), 'no worker holds a lane');
});

it('p = 1 runs on a worker, the calling thread free: timers fire during the call, and a worker did jobs', { skip: NO_THREADS }, async () => {
  P.configure({ workers: 1 });
  await P.warm();
  const jobs = P.status().jobs;
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    assertBytes(await P.scrypt('pw', 'salt', { N: 2 ** 14 }), scrypt('pw', 'salt', { N: 2 ** 14 }));
  } finally {
    clearInterval(timer);
  }
  assert.ok(P.status().jobs > jobs + 2, `the worker ran the lane's jobs: ${JSON.stringify(P.status())}`);
  assert.ok(ticks >= 2, `the calling thread ran ${ticks} timers during the call`);
  assert.ok(nothingPinned());
});

it('progress comes from the workers in order, ending at exactly 1', { skip: NO_THREADS }, async () => {
  P.configure({ workers: 2 });
  allowWorkers(2);
  const seen: number[] = [];
  await P.scrypt('pw', 'salt', { N: 2 ** 13, p: 3, onProgress: (f) => seen.push(f) });
  assert.ok(seen.length >= 3, `${seen.length} reports`);
  assert.equal(seen[seen.length - 1], 1);
  assert.equal(seen.filter((f) => f === 1).length, 1);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `report ${i}: ${seen[i]} after ${seen[i - 1]}`);
});

it('an AbortSignal stops the lanes on every thread: the call rejects with its reason, and no worker holds a lane after', { skip: NO_THREADS }, async () => {
  P.configure({ workers: 2 });
  allowWorkers(2);
  for (const p of [1, 3]) {
    const controller = new AbortController();
    const reason = new Error(`stop p = ${p}`);
    let reports = 0;
    await assert.rejects(
      P.scrypt('pw', 'salt', {
        N: 2 ** 15,
        p,
        signal: controller.signal,
        onProgress: () => {
          reports++;
          controller.abort(reason);
        },
      }),
      (e) => e === reason,
    );
    assert.equal(reports, 1, 'no progress after the abort');
    assert.ok(nothingPinned(), `p = ${p}: a worker still holds a lane`);
  }
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(P.scrypt('pw', 'salt', { N: 16, signal: aborted.signal }), { name: 'AbortError' });
});

it('terminate() while lanes run: the call still gives the bytes of scrypt(), the lanes done again elsewhere', { skip: NO_THREADS }, async () => {
  P.configure({ workers: 2 });
  allowWorkers(2);
  for (const p of [1, 2, 4]) {
    let terminated = false;
    const got = await P.scrypt('pw', 'salt', {
      N: 2 ** 13,
      p,
      onProgress: (f) => {
        if (!terminated && f > 0.2) {
          terminated = true;
          P.terminate();
        }
      },
    });
    assert.ok(terminated, 'terminate() was called mid-way');
    assertBytes(got, scrypt('pw', 'salt', { N: 2 ** 13, p }), `p = ${p}`);
  }
  assert.ok(nothingPinned());
});

it('an exception from onProgress ends the call with it, and lets go of every lane', { skip: NO_THREADS }, async () => {
  P.configure({ workers: 2 });
  const oops = new Error('from onProgress');
  await assert.rejects(
    P.scrypt('pw', 'salt', {
      N: 2 ** 14,
      p: 2,
      onProgress: () => {
        throw oops;
      },
    }),
    (e) => e === oops,
  );
  assert.ok(nothingPinned());
});

it('maxmem bounds the lanes in flight: with room for one lane, one worker and no more', { skip: NO_THREADS }, async () => {
  P.terminate();
  allowWorkers(3);
  P.configure({ workers: 3 });
  const N = 2 ** 10;
  const r = 8;
  const p = 4;
  // B's p lanes, and two lanes' memory: the calling thread's and one worker's.
  const maxmem = 128 * r * p + 2 * 128 * r * (N + 2);
  // Computed first: the worker is counted as the call ends, before a Deno worker idle for 250 ms is ended.
  const want = scrypt('pw', 'salt', { N, r, p });
  assertBytes(await P.scrypt('pw', 'salt', { N, r, p, maxmem }), want);
  assert.equal(P.status().workers, 1, JSON.stringify(P.status()));
  await assert.rejects(P.scrypt('pw', 'salt', { N, r, p, maxmem: 128 * r * (N + 2) }), RangeError);
});

it('checks its options: the synchronous ones, and workers', async () => {
  await assert.rejects(P.scrypt('pw', 'salt', { N: 3 }), RangeError);
  await assert.rejects(P.scrypt('pw', 'salt', { N: 16, workers: -1 }), RangeError);
  await assert.rejects(P.scrypt('pw', 'salt', { N: 16, workers: '2' as never }), TypeError);
  await assert.rejects(P.scrypt('pw', 'salt', { N: 16, lanes: 2 } as never), TypeError);
});
