/**
 * fourfold/parallel under faults, its resources have bounds:
 * configure({ workers }) beyond the logical cores starts no more workers
 * than cores and a smaller size ends the extra ones; one small stream
 * starts one worker, not the whole pool; serpent.cbc under
 * configure({ workers: 0 }) starts none.
 */
import { it, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold';
import * as P from 'fourfold/parallel';
import { assertBytes, NO_STREAMS, rand, readAll } from '../helpers.js';
import { key, MiB, n12, n16, poolAsUsual, sleep } from './faults-common.js';

after(poolAsUsual);

describe('resources have bounds', () => {
  it('configure({ workers }) beyond the logical cores starts no more workers than cores, and a smaller size ends the extra ones', {
    timeout: 120_000,
  }, async () => {
    P.terminate();
    const cores =
      (globalThis.navigator?.hardwareConcurrency as number | undefined) ??
      (process.getBuiltinModule('node:os') as typeof import('node:os')).availableParallelism();
    P.configure({ workers: 1e6 });
    try {
      assertBytes(await P.chacha20(key, n12, new Uint8Array(64 * MiB)), F.chacha20(key, n12, new Uint8Array(64 * MiB)));
      assert.ok(P.status().workers <= cores, `${P.status().workers} workers started on ${cores} logical cores`);
      P.configure({ workers: 1 });
      await P.chacha20(key, n12, new Uint8Array(8 * MiB));
      // The workers beyond the size end once idle for a second.
      for (let t = 0; P.status().workers > 1 && t < 100; t++) await sleep(50);
      assert.ok(P.status().workers <= 1, `configure({ workers: 1 }) kept ${P.status().workers} workers`);
    } finally {
      P.configure({ workers: undefined });
    }
  });

  it('one small stream starts one worker, not the whole configured pool', { skip: NO_STREAMS }, async () => {
    P.terminate();
    P.configure({ workers: 8 });
    try {
      const ts = P.secretstream.encryptStream(rand(32));
      const w = ts.writable.getWriter();
      void w.write(rand(1000));
      void w.close();
      await readAll(ts.readable);
      assert.ok(P.status().workers <= 1, `a 1000-byte stream started ${P.status().workers} workers`);
    } finally {
      P.configure({ workers: undefined });
    }
  });
});

it('serpent.cbc encryption under configure({ workers: 0 }) starts no worker', async () => {
  P.terminate();
  P.configure({ workers: 0 });
  try {
    const jobs = P.status().jobs;
    const m = rand(4 * MiB);
    assertBytes(await P.serpent.cbc(key, n16).encrypt(m), F.serpent.cbc(key, n16).encrypt(m));
    assert.equal(P.status().workers, 0, 'a worker was started');
    assert.equal(P.status().jobs, jobs, 'a job went to a worker');
  } finally {
    P.configure({ workers: undefined });
  }
});
