/**
 * fourfold/parallel's Argon2 (src/parallel/argon2.ts), its shared memory:
 * the memory kept for the next call is all zero after a call, an abort
 * mid-call and an onProgress that threw, the largest kept and used again;
 * where memory cannot be shared with workers (a page that is not
 * cross-origin isolated, an engine that refuses a shared
 * WebAssembly.Memory) the calls run on the calling thread with the same
 * bytes and no job to a worker. The cases are argon2-cases.ts.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as P from 'fourfold/parallel';
import { assertBytes, NO_ABORT } from '../helpers.js';
import { holdWorkers, pool, spareSharedMemory } from '../internal.js';
import {
  aboveSpare,
  assertSpareZero,
  type Case,
  casesOf,
  heavy,
  jobsOf,
  label,
  NO_SHARING,
  NO_THREADS,
  nothingPinned,
  parallel,
  poolAsUsual,
  want,
} from './argon2-cases.js';
import { allowWorkers } from './pool-helpers.js';

after(poolAsUsual);

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
