/**
 * warm(): the pool's workers started ahead of the first call. It resolves
 * once they are ready, to the pool's status; the first large call after
 * it already gives its pieces to them; it checks its options as the other
 * controls do. In an engine without threads (Hermes) it resolves with no
 * worker and status().failure saying why, and calls run here.
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { assertBytes, rand } from '../helpers.js';
import { handedOut, keepWorkers, workersAsUsual } from './pool-helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
const NO_THREADS: false | string = HAS_THREADS ? false : 'not applicable: this engine has no threads (the last test here covers it)';

after(() => {
  P.configure({ workers: undefined });
  P.terminate();
});

it('warm({ workers }) resolves once that many workers are ready, to the status', { skip: NO_THREADS }, async () => {
  P.terminate();
  assert.equal(P.status().workers, 0);
  const status = await P.warm({ workers: 2 });
  assert.deepEqual({ workers: status.workers, ready: status.ready, failure: status.failure }, { workers: 2, ready: 2, failure: undefined });
  assert.deepEqual(P.status(), status, 'status() says the same');
  // Warm again: nothing more to start.
  assert.equal((await P.warm({ workers: 1 })).workers, 2);
});

it("warm() starts configure()'s count, and the first large call after it gives pieces to the workers", { skip: NO_THREADS }, async () => {
  P.terminate();
  P.configure({ workers: 1 });
  const status = await P.warm();
  assert.equal(status.ready, 1, JSON.stringify(status));
  const data = rand(6 << 20);
  const key = rand(32);
  const nonce = rand(12);
  // On a loaded machine the scheduler may judge the worker's core shared and keep it out (rule 5 of
  // docs/parallel.md): the judgement is set aside. It may also take back a job the worker has not
  // started yet (rule 4): what the call gave out is counted, not what the worker did.
  keepWorkers();
  try {
    const given = await handedOut(async () => assertBytes(await P.chacha20(key, nonce, data), F.chacha20(key, nonce, data)));
    assert.ok(given.jobs > 0, `the first call gave the worker no job: ${JSON.stringify(P.status())}`);
  } finally {
    workersAsUsual();
  }
});

it('warm() checks its options', async () => {
  await assert.rejects(P.warm('2' as never), { name: 'TypeError', message: 'options must be an object, got string' });
  await assert.rejects(P.warm({ workers: -1 }), { name: 'RangeError', message: 'workers must be a non-negative integer, got -1' });
  await assert.rejects(P.warm({ workers: '2' as never }), { name: 'TypeError', message: 'workers must be a number, got string' });
  assert.equal((await P.warm({ workers: 0 })).failure, undefined, 'no worker asked, none started');
});

it('without threads, warm() resolves with no worker and the reason; calls run here', {
  skip: HAS_THREADS && 'not applicable: this engine has threads (the tests above cover it)',
}, async () => {
  const status = await P.warm({ workers: 2 });
  assert.equal(status.ready, 0);
  assert.equal(typeof status.failure, 'string', JSON.stringify(status));
  const data = rand(3 << 20);
  assertBytes(await P.blake3(data), F.blake3(data));
});
