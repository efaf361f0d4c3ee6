/**
 * fourfold/parallel's Argon2 password hashes (src/parallel/argon2-phc.ts):
 * the strings of fourfold/argon2, each verifying with the other's
 * argon2Verify, for argon2id, argon2i and argon2d; a wrong password false;
 * workers: 0; the options checked.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import { pool, type PoolWorker } from '../internal.js';
import { allowWorkers, workersAsUsual } from './pool-helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
/** Memory shared with workers (pool/pool-worker.ts canShare): without it every call runs on the calling thread. */
const SHARES = HAS_THREADS && typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;

/** Small parameters: the tests are about strings, not cost (2 MiB, two passes). */
const SMALL = { m: 2048, t: 2 };
const HASHES = {
  argon2id: [P.argon2idHash, F.argon2idHash],
  argon2i: [P.argon2iHash, F.argon2iHash],
  argon2d: [P.argon2dHash, F.argon2dHash],
} as const;

before(async () => {
  allowWorkers(2);
  if (SHARES) assert.equal((await P.warm({ workers: 2 })).ready, 2, 'two workers did not start');
});

after(() => {
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
});

/** The segments each worker is sent from now on (its call(), counted by op). */
function segmentsOf(workers: readonly PoolWorker[]): { counts: number[]; restore(): void } {
  const counts = workers.map(() => 0);
  for (const [i, w] of workers.entries()) {
    const call = w.call;
    w.call = function (this: PoolWorker, op: string, ...rest: unknown[]) {
      if (op === 'argon2.segment') counts[i]!++;
      return (call as (...a: unknown[]) => Promise<unknown>).call(this, op, ...rest);
    } as PoolWorker['call'];
  }
  return {
    counts,
    restore: () => {
      for (const w of workers) delete (w as { call?: unknown }).call;
    },
  };
}

describe('the strings', () => {
  for (const [name, [parallel, oneThread]] of Object.entries(HASHES)) {
    it(`${name}: fourfold/parallel's verify with fourfold/argon2's argon2Verify, and the other way`, async () => {
      const mine = await parallel('hunter2', SMALL);
      assert.match(mine, new RegExp(`^\\$${name}\\$v=19\\$m=2048,t=2,p=1\\$`));
      assert.equal(await F.argon2Verify(mine, 'hunter2'), true);
      const theirs = await oneThread('hunter2', SMALL);
      assert.equal(await P.argon2Verify(theirs, 'hunter2'), true);
      assert.equal(await P.argon2Verify(theirs, 'hunter3'), false, 'a wrong password');
      assert.equal(await P.argon2Verify(mine, 'hunter3'), false, 'a wrong password');
    });
  }

  it('the same string as fourfold/argon2 for the same salt, key and parameters, on workers and on none', async () => {
    const opts = { ...SMALL, p: 2, salt: 'saltsaltsalt', key: 'pepper', dkLen: 20 };
    const want = await F.argon2idHash('pw', opts);
    assert.equal(await P.argon2idHash('pw', opts), want);
    assert.equal(await P.argon2idHash('pw', { ...opts, workers: 0 }), want);
    assert.equal(await P.argon2Verify(want, 'pw', { key: 'pepper', workers: 0 }), true);
    assert.equal(await P.argon2Verify(want, 'pw', { workers: 1 }), false, 'without the key');
  });

  it('workers: 0 runs on the calling thread: no segment reaches a worker', async () => {
    const seen = segmentsOf(pool.workers);
    try {
      const phc = await P.argon2idHash('pw', { ...SMALL, workers: 0 });
      assert.equal(await P.argon2Verify(phc, 'pw', { workers: 0 }), true);
    } finally {
      seen.restore();
    }
    assert.deepEqual(
      seen.counts.filter((n) => n > 0),
      [],
    );
  });

  it("options are checked as fourfold/argon2's, and workers as fourfold/parallel's", async () => {
    await assert.rejects(P.argon2idHash('pw', { ...SMALL, workers: -1 }), RangeError);
    await assert.rejects(P.argon2idHash('pw', { ...SMALL, threads: 2 } as never), TypeError);
    await assert.rejects(P.argon2Verify('$argon2id$v=19$m=2048,t=2,p=1$c2FsdHNhbHQ$', 'pw'), TypeError);
  });
});
