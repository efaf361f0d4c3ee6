/**
 * Argon2 with thousands of lanes, in turns as any other call: p = 4096
 * and m = 8p KiB, the least memory p allows, through argon2idAsync,
 * argon2Verify (a stored string of those parameters) and
 * fourfold/parallel's argon2id. Each lane's first two blocks are H' (RFC
 * 9106 §3.3), 31 BLAKE2b compressions each, on the calling thread:
 * seconds of work at this p. The file counts the compressions of
 * fourfold/blake2's js tier, which H0 and H' are made of (args.ts), to
 * know where a call stands: the event loop turns again and again while the lanes'
 * first blocks are being written, and a signal aborted in one of those
 * turns rejects the call with its reason before it has written them all,
 * its progress well below 1. Conditions, not times: how long the turns
 * were and how soon a signal was honoured is in commit d044d9b's message
 * (measured by bench/argon2-lanes.ts, since removed: git show
 * 17325fa:bench/argon2-lanes.ts).
 *
 * fourfold/parallel hands its worker a slice's short segments of many
 * lanes in a few jobs, not one message a lane. Lanes in pieces across
 * lanes (the first blocks, the tag's XOR of the last ones, the worker's
 * jobs and the calling thread's pieces) give the same bytes as the
 * synchronous call and @noble/hashes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { argon2id, argon2idAsync, argon2Verify } from 'fourfold/argon2';
import * as P from 'fourfold/parallel';
import { argon2id as nobleId } from '@noble/hashes/argon2.js';
import { assertBytes, forEachTier, NO_ABORT } from '../helpers.js';
import { jsBlake2b, type PoolWorker } from '../internal.js';
import { allowWorkers, heldWorkers, workersAsUsual } from '../parallel/pool-helpers.js';

const LANES = 4096;
const M = 8 * LANES;
const SALT = 'lanes salt 16 by';
/** BLAKE2b compressions of H0 (one: its input is under 128 bytes here) and of every lane's two first blocks (31 each). */
const OPENING = 1 + 2 * 31 * LANES;
/** Turns of the event loop the test waits for while the first blocks are written, before it aborts. */
const TURNS = 8;

/** fourfold/parallel's calls go to a worker only where there are threads and memory shared with them (as test/parallel/argon2.test.ts finds). */
const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
const SHARES = typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
const NO_SHARING: false | string =
  HAS_THREADS && SHARES ? false : 'not applicable: no worker with memory shared here (the calls run as argon2idAsync, tested above)';
/** A macrotask turn, as the calls take theirs (pool/turns.ts): setImmediate, else a timer. */
const nextTurn = (f: () => void): void => void (typeof setImmediate === 'function' ? setImmediate(f) : setTimeout(f, 0));

/** BLAKE2b compressions so far on this thread: a whole input's hash compresses its blocks, at least one, and the key's block. */
let compressions = 0;
const hash = jsBlake2b.hash;
before(() => {
  jsBlake2b.hash = (h0, key, data, length) => {
    compressions += Math.max(1, Math.ceil(data.length / 128)) + (key === undefined ? 0 : 1);
    return hash(h0, key, data, length);
  };
});
after(() => {
  jsBlake2b.hash = hash;
});

/**
 * Calls `f` with a signal, counts the turns of the event loop taken while
 * its lanes' first blocks are being written (H0 made, some BLAKE2b
 * compressions of H' done, not all), and aborts it at the TURNS-th:
 * `during` runs then. It must reject with the signal's reason before it
 * has written every lane's first blocks; the progress it told is returned.
 */
async function abortWhileOpening(
  name: string,
  f: (signal: AbortSignal, onProgress: (x: number) => void) => Promise<unknown>,
  during = () => {},
): Promise<number> {
  const controller = new AbortController();
  const reason = new Error('stopped while its lanes open');
  const start = compressions;
  let turns = 0;
  let told = 0;
  let running = true;
  const probe = (): void => {
    const done = compressions - start;
    if (done > 0 && done < OPENING && ++turns === TURNS) {
      during();
      controller.abort(reason);
    }
    if (running) nextTurn(probe);
  };
  nextTurn(probe);
  const call = f(controller.signal, (x) => (told = x));
  try {
    await assert.rejects(call, (e) => e === reason, `${name}: ended with ${turns} turns of the event loop while its lanes' first blocks were written`);
  } finally {
    running = false;
  }
  const done = compressions - start;
  assert.ok(done < OPENING, `${name}: ${done} BLAKE2b compressions, every lane's first blocks (${OPENING}), before it stopped`);
  assert.ok(told < 0.5, `${name}: progress ${told} told before it stopped`);
  return told;
}

/** A stored string of p = LANES, m = 8p (its hash is not the password's: argon2Verify computes it all the same). */
const stored = `$argon2id$v=19$m=${M},t=1,p=${LANES}$${btoa(SALT).replace(/=+$/, '')}$${'A'.repeat(43)}`;

forEachTier('argon2 with 4096 lanes gives the event loop its turns while the lanes open', (tier) => {
  it('argon2idAsync: turns while the first blocks are written, and the signal honoured in one', { skip: NO_ABORT }, async () => {
    await abortWhileOpening(`argon2idAsync (${tier})`, (signal, onProgress) => argon2idAsync('pw', SALT, { t: 1, m: M, p: LANES, signal, onProgress }));
  });

  it('argon2Verify of a stored string: the same', { skip: NO_ABORT }, async () => {
    await abortWhileOpening(`argon2Verify (${tier})`, (signal) => argon2Verify(stored, 'pw', { signal }));
  });

  describe("fourfold/parallel's argon2id, on a worker of this tier", { skip: NO_SHARING }, () => {
    before(async () => {
      P.terminate();
      allowWorkers(1);
      const s = await P.warm({ workers: 1 });
      assert.equal(s.ready, 1, `the worker did not start: ${JSON.stringify(s)}`);
    });
    after(() => {
      P.terminate();
      workersAsUsual();
    });

    it('the same, with its worker held for the call meanwhile', { skip: NO_ABORT }, async () => {
      let pinned = 0;
      await abortWhileOpening(
        `fourfold/parallel's argon2id (${tier})`,
        (signal, onProgress) => P.argon2id('pw', SALT, { t: 1, m: M, p: LANES, workers: 1, signal, onProgress }),
        () => (pinned = P.status().streams),
      );
      assert.ok(pinned > 0, 'the call was not on its worker (it ran on the calling thread alone)');
    });

    it('a slice of 2048 two-block segments goes to the worker in a few jobs, not one a lane', async () => {
      // The worker of this tier (started again if the test before left it idle long enough to end, as Deno does), held for the call.
      const held = await heldWorkers(1);
      const [w] = held.workers;
      assert.ok(w !== undefined, 'no worker');
      let jobs = 0;
      const call = w.call;
      w.call = function (this: PoolWorker, op: string, ...rest: unknown[]) {
        if (op.startsWith('argon2.segment')) jobs++;
        return (call as (...a: unknown[]) => Promise<unknown>).call(this, op, ...rest);
      } as PoolWorker['call'];
      try {
        await P.argon2id('pw', SALT, { t: 1, m: M, p: LANES, workers: 1 });
      } finally {
        delete (w as { call?: unknown }).call;
        held.release();
      }
      // Three slices with blocks to compute (the first slice's segments are the lanes' first blocks), half the lanes on the worker.
      assert.ok(jobs > 0 && jobs <= 3 * 8, `${jobs} jobs for 3 slices of ${LANES / 2} segments`);
    });

    it('lanes in pieces, segments of several lanes to a job: the bytes of the synchronous call and of @noble/hashes', async () => {
      // 1040 lanes of two-block segments, half on the worker: 520 segments a slice, more than one job's 512.
      for (const opts of [
        { t: 2, m: 8 * 64, p: 64 },
        { t: 1, m: 8 * 1040, p: 1040 },
      ]) {
        const want = argon2id('pw', SALT, opts);
        if (opts.p === 64) assertBytes(want, nobleId('pw', SALT, opts), `p = ${opts.p}: argon2id and @noble/hashes`);
        assertBytes(await argon2idAsync('pw', SALT, { ...opts, asyncTick: 1 }), want, `p = ${opts.p}: argon2idAsync (${tier})`);
        assertBytes(await P.argon2id('pw', SALT, { ...opts, workers: 1 }), want, `p = ${opts.p}: fourfold/parallel's argon2id (${tier})`);
      }
    });
  });
});

it("the BLAKE2b the file counts is the one Argon2 uses: a call of p lanes makes 1 + 62p compressions, and 9 for its tag (H' of 1028 bytes)", async () => {
  await ready();
  const start = compressions;
  argon2id('pw', SALT, { t: 1, m: 8 * 3, p: 3 });
  assert.equal(compressions - start, 1 + 62 * 3 + 9);
});
