/**
 * fourfold/parallel's Argon2 password hashes (src/parallel/argon2-phc.ts)
 * and bursts of them (src/parallel/argon2.ts, argon2-memory.ts): the
 * strings of fourfold/argon2, each verifying with the other's
 * argon2Verify, for argon2id, argon2i and argon2d; a wrong password false;
 * every password call of fourfold (fourfold/argon2's and fourfold/scrypt's
 * but their Async forms) exported by fourfold/parallel too;
 * workers: 0; an abort, of a call running and of one waiting its turn.
 * A burst of 32 calls: every string verifies, the event loop runs while
 * it is pending, calls made at once go to different workers, the burst
 * takes a bounded number of memories, and a worker lost mid-burst costs
 * no string. A call's memory, kept for the next call once it ends, is not
 * written by its worker afterwards (the next call may be on another).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as F from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import * as S from 'fourfold/scrypt';
import { assertBytes, isAllZero, NO_ABORT } from '../helpers.js';
import { pool, type PoolWorker, spareSharedMemories } from '../internal.js';
import { allowWorkers, heldWorkers, whenStopped, workersAsUsual } from './pool-helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
/** Memory shared with workers (pool/pool-worker.ts canShare): without it every call runs on the calling thread. */
const SHARES = HAS_THREADS && typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
const NO_SHARING: false | string = SHARES ? false : 'not applicable: no memory shared with workers here (the calls run on the calling thread)';

/** Small parameters: the tests are about strings and scheduling, not cost (2 MiB, two passes). */
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

/** `n` passwords, distinct. */
const passwords = (n: number, tag: string): string[] => Array.from({ length: n }, (_, i) => `${tag} password ${i}`);

/** Every string verifies with fourfold/argon2's argon2Verify (the calling thread: nothing of the pool). */
async function assertAllVerify(what: string, strings: readonly string[], pws: readonly string[]): Promise<void> {
  for (let i = 0; i < strings.length; i++) assert.equal(await F.argon2Verify(strings[i]!, pws[i]!), true, `${what}: string ${i} does not verify`);
}

/** The segments each worker is sent from now on (its call(), counted by op). */
function segmentsOf(workers: readonly PoolWorker[]): { counts: number[]; restore(): void } {
  const counts = workers.map(() => 0);
  for (const [i, w] of workers.entries()) {
    const call = w.call;
    w.call = function (this: PoolWorker, op: string, ...rest: unknown[]) {
      if (op === 'argon2.segments') counts[i]!++;
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

/** The shared WebAssembly.Memory objects made from now on (the global constructor, which argon2-memory.ts calls, counted). */
function memoriesMade(): { count(): number; restore(): void } {
  const Original = WebAssembly.Memory;
  let made = 0;
  class Counting extends Original {
    constructor(descriptor: WebAssembly.MemoryDescriptor) {
      super(descriptor);
      if (descriptor.shared === true) made++;
    }
  }
  (WebAssembly as { Memory: typeof WebAssembly.Memory }).Memory = Counting;
  return { count: () => made, restore: () => void ((WebAssembly as { Memory: typeof WebAssembly.Memory }).Memory = Original) };
}

/**
 * fourfold's password calls that fourfold/parallel lacks, by type: the
 * exports of fourfold/argon2 and fourfold/scrypt (which fourfold
 * re-exports) but their Async forms, whose parallel forms are the calls
 * of the same names. None: a server importing its password calls from
 * fourfold/parallel finds each one there, needsRehash with the rest.
 */
type MissingFromParallel = Exclude<keyof typeof F | keyof typeof S, keyof typeof P | `${string}Async`>;
const NONE_MISSING: [MissingFromParallel] extends [never] ? true : MissingFromParallel = true;

it("fourfold/parallel exports every password call of fourfold's (fourfold/argon2's and fourfold/scrypt's, but the Async forms)", () => {
  assert.equal(NONE_MISSING, true);
  const theirs = [...Object.keys(F), ...Object.keys(S)].filter((name) => !name.endsWith('Async'));
  const missing = theirs.filter((name) => typeof (P as Record<string, unknown>)[name] !== 'function');
  assert.deepEqual(missing, [], 'fourfold/parallel lacks these');
  assert.equal(P.needsRehash, F.needsRehash, "needsRehash computes no hash: fourfold/argon2's own");
  const stored = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$S5cj7zXgSeqJ6lHEe3SsHgJ4tF4c0MEbPRSJ+8Uyzlw';
  assert.equal(P.needsRehash(stored), false);
  assert.equal(P.needsRehash(stored, { m: 65536 }), true);
});

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
    // Both workers watched, held through the calls (in Deno one idle for 250 ms ends, and one started again would be unwatched).
    const held = SHARES ? await heldWorkers(2) : undefined;
    const seen = segmentsOf(held?.workers ?? []);
    try {
      const phc = await P.argon2idHash('pw', { ...SMALL, workers: 0 });
      assert.equal(await P.argon2Verify(phc, 'pw', { workers: 0 }), true);
    } finally {
      seen.restore();
      held?.release();
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
    await assert.rejects(P.argon2Verify('pw', await F.argon2idHash('pw', SMALL)), { name: 'TypeError', message: /^the arguments look swapped: / });
  });
});

describe('a burst', () => {
  it('32 calls at once: every string verifies, and timers run while the burst is pending', async () => {
    const pws = passwords(32, 'burst');
    let timerRuns = 0;
    let pending = true;
    const beat = (): void => {
      if (!pending) return;
      timerRuns++;
      setTimeout(beat, 0);
    };
    setTimeout(beat, 0);
    const burst = Promise.all(pws.map((pw) => P.argon2idHash(pw, SMALL)));
    const strings = await burst;
    pending = false;
    // Before the first string came, and after: a thread held for the burst would run the timer once at most, at the end.
    assert.ok(timerRuns >= 2, `the timer ran ${timerRuns} times while 32 calls were pending`);
    await assertAllVerify('burst', strings, pws);
  });

  it('calls made at once go to different workers, and a burst takes at most two memories a worker', { skip: NO_SHARING }, async () => {
    // Started again if the tests before ended them (a Deno worker idle for 250 ms ends), and held for the burst.
    const held = await heldWorkers(2);
    const { workers } = held;
    assert.equal(workers.length, 2);
    const seen = segmentsOf(workers);
    const made = memoriesMade();
    let strings: string[];
    const pws = passwords(32, 'spread');
    try {
      // Above the kept memories' size, so that each memory the burst uses is made by it.
      strings = await Promise.all(pws.map((pw) => P.argon2idHash(pw, { m: 3000, t: 1 })));
    } finally {
      made.restore();
      seen.restore();
      held.release();
    }
    for (const [i, n] of seen.counts.entries()) assert.ok(n > 0, `worker ${i} was sent no segment (${seen.counts})`);
    assert.ok(made.count() >= 1 && made.count() <= 2 * workers.length, `the burst made ${made.count()} shared memories`);
    for (const m of spareSharedMemories()) assert.ok(isAllZero(m), 'a kept memory is not zero');
    await assertAllVerify('spread', strings, pws);
  });

  it("a worker lost mid-burst (terminate() from a call's onProgress): every string still verifies", { skip: NO_SHARING }, async () => {
    const workers = [...pool.workers];
    const pws = passwords(16, 'lost');
    let terminated = false;
    const strings = await Promise.all(
      pws.map((pw, i) =>
        P.argon2idHash(pw, {
          ...SMALL,
          onProgress:
            i === 1
              ? (f) => {
                  if (!terminated && f > 0.2) {
                    terminated = true;
                    P.terminate();
                  }
                }
              : undefined,
        }),
      ),
    );
    assert.ok(terminated, 'terminate() was not called mid-burst');
    await assertAllVerify('lost', strings, pws);
    await whenStopped(workers);
    for (const m of spareSharedMemories()) assert.ok(isAllZero(m), 'a kept memory is not zero');
    assert.equal((await P.warm({ workers: 2 })).ready, 2, 'two workers did not start again');
  });

  it('an abort: of a call running, and of one waiting its turn; the rest of the burst verifies', { skip: NO_ABORT }, async () => {
    const pws = passwords(12, 'abort');
    const controllers = pws.map(() => new AbortController());
    const reason = new Error('stop');
    const calls = pws.map((pw, i) => P.argon2idHash(pw, { ...SMALL, signal: controllers[i]!.signal }));
    // The first is running (on a worker, or here), the last waits its turn behind at most two calls a worker.
    controllers[0]!.abort(reason);
    controllers[11]!.abort(reason);
    const settled = await Promise.allSettled(calls);
    for (const i of [0, 11]) {
      const s = settled[i]!;
      assert.equal(s.status, 'rejected', `call ${i} was not stopped`);
      assert.equal((s as PromiseRejectedResult).reason, reason);
    }
    const rest = settled.slice(1, 11).map((s) => (s as PromiseFulfilledResult<string>).value);
    await assertAllVerify('abort', rest, pws.slice(1, 11));
    assert.equal(P.status().streams, 0, 'a worker is still pinned for a call');
  });
});

it("a call's kept memory is not written once it ends: its worker's detach, queued behind another call, leaves the scratch to the next call", {
  skip: NO_SHARING,
}, async () => {
  // The first worker, which calls of workers: 1 take: held through the synchronous hash below and the calls.
  const held = await heldWorkers(1);
  const w0 = held.workers[0]!;
  const small = { m: 6000, t: 3, p: 1 };
  const salt = 'saltsaltsalt';
  // C (long) and A on the first worker (workers: 1): when A ends, that worker is in one of C's segments, and
  // A's detach waits behind it. A's memory is kept by then, for the next call, on any worker.
  const want = F.argon2i('a', salt, small);
  const c = P.argon2i('c', salt, { m: 65536, t: 6, p: 1, workers: 1 });
  const a = await P.argon2i('a', salt, { ...small, workers: 1 });
  const kept = spareSharedMemories().find((m) => m.length === 65536 * Math.ceil((65536 + 1024 * small.m) / 65536));
  assert.ok(kept !== undefined, "A's memory was not kept");
  // Nothing runs on this thread between A's end and this (no synchronous hash): A's detach is still queued.
  // What the next call would have in the scratch its worker uses (kernel.ts LAYOUT: the worker's, 1, of the first page).
  const scratch = kept.subarray(8192, 2 * 8192);
  scratch.fill(0xa5);
  try {
    // Every message the worker had before this one is handled once it answers: A's detach among them.
    await w0.call('argon2.detach', { call: -1 });
    assert.ok(
      scratch.every((b) => b === 0xa5),
      "A's detach wrote the memory after A ended",
    );
    assertBytes(a, want);
  } finally {
    scratch.fill(0);
    await c;
    held.release();
  }
});
