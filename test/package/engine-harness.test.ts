/**
 * The harness that stands in for node:test in every bundled engine
 * (scripts/engines/harness/node-test.ts): whatever a test, a hook or a
 * suite body throws or rejects with, undefined and null included, fails
 * it. (It took `undefined` for "no error", so a test that rejected with
 * undefined passed: Bun's scrypt callback, given undefined for "no
 * error", hid a bug that way.)
 *
 * And the runner's launches (scripts/engines/launches.ts): a launch that
 * shows no sign of the suite is launched again at once, three launches at
 * most, the last without a start limit.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as harness from '../../scripts/engines/harness/node-test.js';
import { type Launched, type LaunchLimits, launchUntilStarted, LAUNCHES, START_MS } from '../../scripts/engines/launches.js';

it('every throw fails what threw, whatever its value', async () => {
  for (const value of [undefined, null, 0, '', new Error('e')]) {
    harness.describe('suite', () => {
      harness.it('throws', () => {
        throw value;
      });
      harness.it('rejects', () => Promise.reject(value));
      harness.it('passes', () => {});
    });
    harness.describe('a before hook throws', () => {
      harness.before(() => {
        throw value;
      });
      harness.it('below it', () => {});
    });
    harness.describe('a body throws', () => {
      throw value;
    });
    const results = await harness.runCollected();
    const status = Object.fromEntries(results.map((r) => [r.name, r.status]));
    assert.deepEqual(
      status,
      {
        'suite > throws': 'fail',
        'suite > rejects': 'fail',
        'suite > passes': 'pass',
        'a before hook throws > below it': 'fail',
        'a body throws (suite body)': 'fail',
      },
      `thrown: ${String(value)}`,
    );
  }
});

/**
 * A launcher on a clock of its own: each launch is given its limits, and
 * `plan` says what it does: 'silent' (no sign of the suite until its start
 * limit, or its whole time without one), 'dies' (ends at once without one),
 * 'starts' (reports progress, then ends well), 'starts, fails'.
 */
async function launches(plan: ('silent' | 'dies' | 'starts' | 'starts, fails')[], startMs: number | undefined, timeoutMs = 900_000) {
  let clock = 0;
  const given: { timeoutMs: number; startMs: number | undefined }[] = [];
  const said: string[] = [];
  const result = await launchUntilStarted(
    async (limits: LaunchLimits): Promise<Launched> => {
      const n = given.push({ timeoutMs: limits.timeoutMs, startMs: limits.startMs });
      const what = plan[n - 1];
      assert.ok(what !== undefined, `launch ${n} was not planned`);
      const ms = what === 'silent' ? (limits.startMs ?? limits.timeoutMs) : 1000;
      clock += ms;
      if (what === 'silent' || what === 'dies') return { ok: false, error: `launch ${n}: ${what}`, ms, log: [`log of ${n}`] };
      limits.started();
      return what === 'starts' ? { ok: true, ms, log: [`log of ${n}`] } : { ok: false, error: `launch ${n}: a test failed`, ms, log: [] };
    },
    { timeoutMs, startMs, say: (line) => said.push(line), now: () => clock },
  );
  return { result, given, said, clock };
}

it("a launch without a sign of the suite is launched again at once; three at most, the last without a start limit; the run's time shared", async () => {
  assert.equal(START_MS, 60_000);
  assert.equal(LAUNCHES, 3);
  // WPE's cog stayed at "Load started": given up after 60 s, not 900, and the next launch runs the suite.
  const again = await launches(['silent', 'starts'], START_MS);
  assert.equal(again.result.ok, true);
  assert.deepEqual(again.given, [
    { timeoutMs: 900_000, startMs: 60_000 },
    { timeoutMs: 840_000, startMs: 60_000 },
  ]);
  assert.equal(again.result.ms, 61_000, 'the time of both launches');
  assert.deepEqual(again.said, ['launch 1 of 3 never started the suite (launch 1: silent); launching again']);
  assert.deepEqual(again.result.log, ['launch 1 of 3 never started the suite (launch 1: silent); launched again', 'log of 1', 'log of 2']);

  // Never: three launches, the last one left to the rest of the run's time, and an error that says so.
  const never = await launches(['silent', 'dies', 'silent'], START_MS);
  assert.deepEqual(
    never.given.map((g) => g.startMs),
    [60_000, 60_000, undefined],
  );
  assert.equal(never.given[2]!.timeoutMs, 900_000 - 61_000);
  assert.equal(never.clock, 900_000, "the launches took the run's time, not more");
  assert.equal(never.result.ok, false);
  assert.equal(never.result.error, '3 launches never started the suite; the last: launch 3: silent');
  assert.equal(never.said.length, 2);

  // One that started is the run's result, failed or not: a failing test is not a launch failure.
  const failed = await launches(['starts, fails'], START_MS);
  assert.deepEqual([failed.given.length, failed.result.error], [1, 'launch 1: a test failed']);

  // No start limit (script engines): launched again only once a launch ended without a sign of the suite.
  const script = await launches(['dies', 'starts'], undefined);
  assert.deepEqual(
    script.given.map((g) => g.startMs),
    [undefined, undefined],
  );
  assert.equal(script.result.ok, true);

  // A start limit no shorter than the time left is none; no time left after it, no other launch.
  const short = await launches(['silent'], START_MS, 30_000);
  assert.deepEqual(short.given, [{ timeoutMs: 30_000, startMs: undefined }]);
  assert.equal(short.result.error, '1 launch never started the suite; the last: launch 1: silent');
});
