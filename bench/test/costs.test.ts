/**
 * The cap on a case (core/costs.ts): predictions, who fits a budget, and a
 * library too slow reported as capped while the rest are timed as usual.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCase, type CaseContext, type SelectedOp } from '../core/cases.js';
import { CostBook, deadlineFrom, minimumMs, overBudget } from '../core/costs.js';
import type { Library } from '../core/libraries.js';
import { sampleRoundRobin } from '../core/measure.js';
import { runSweep } from '../core/sweep.js';
import { defineOp } from '../core/ops/types.js';
import { now } from '../core/timer.js';
import type { CaseTiming } from '../core/types.js';

/** A call that takes about `ms` of the clock and returns `out`. */
function spinning(ms: number, out = new Uint8Array(1)): () => Uint8Array {
  return () => {
    const end = now() + ms;
    while (now() < end);
    return out;
  };
}

const timing: CaseTiming = { warmupMs: 2, sampleMs: 0.5, samples: 7, minSamples: 3, budgetMs: 50 };
const library = (name: string): Library => ({ name, version: '1', reference: false });

describe('CostBook', () => {
  it('extends the line through the two largest sizes timed below, and scales one size proportionally', () => {
    const book = new CostBook();
    book.record('op', 'lib', 1024, 2_000);
    assert.equal(book.predict('op', 'lib', 4096), 8_000);
    book.record('op', 'lib', 64, 500);
    // Through (64, 500) and (1024, 2000): 500 + (2000 - 500) / 960 * (4096 - 64).
    assert.equal(book.predict('op', 'lib', 4096), 2_000 + (1_500 / 960) * (4096 - 1024));
    assert.equal(book.predict('op', 'lib', 1024), 2_000);
    assert.equal(book.predict('op', 'other', 1024), undefined);
    assert.equal(book.predict('other', 'lib', 1024), undefined);
  });

  it('scales the smallest size down for a smaller one, and falls back to proportional when the line falls', () => {
    const book = new CostBook();
    book.record('op', 'lib', 1000, 10_000);
    assert.equal(book.predict('op', 'lib', 100), 1_000);
    book.record('op', 'lib', 2000, 9_000); // noise: slower at the smaller size
    assert.equal(book.predict('op', 'lib', 4000), 18_000);
  });
});

describe('overBudget', () => {
  it('admits the cheapest first and leaves out what no longer fits', () => {
    assert.deepEqual([...overBudget([5, 1, 3, 2], 5)].sort(), [0, 2]);
    assert.deepEqual([...overBudget([5, 1, 3, 2], 6)], [0]);
    assert.deepEqual([...overBudget([7], 6)], [0]);
    assert.deepEqual([...overBudget([1, 2], Infinity)], []);
  });

  it('tries a subject whose cost is unknown', () => {
    assert.deepEqual([...overBudget([undefined, 10], 5)], [1]);
  });

  it('the minimum of a subject is its first call, its warm-up (three calls at least) and its minimum samples', () => {
    assert.equal(minimumMs(10e6, timing), 10 + 3 * 10 + 3 * 10);
    assert.equal(minimumMs(1e3, timing), 0.001 + 2 + 3 * 0.5);
  });
});

describe('sampleRoundRobin with a deadline', () => {
  const tick = async () => {};

  it('caps a subject whose minimum samples do not fit, and times the others', async () => {
    const fast = { library: library('fast'), call: spinning(0.05), async: false };
    const slow = { library: library('slow'), call: spinning(40), async: false };
    const [a, b] = await sampleRoundRobin([fast, slow], timing, tick, deadlineFrom(now(), 100));
    assert.ok('nsPerCall' in a! && a.nsPerCall.length >= timing.minSamples, 'the fast subject is timed');
    assert.ok('capped' in b!, 'the slow subject is capped');
    assert.ok(b.capped.nsPerCall >= 30e6 && b.capped.how === 'measured' && b.capped.capMs === 100);
  });

  it('drops a subject whose call throws after its first, with the error, and times the others', async () => {
    const fast = { library: library('fast'), call: spinning(0.05), async: false };
    // Fails at a given call, as typage's random X25519 scalars fail on WebKitGTK: once in warm-up, once in sampling.
    const failingAt = (n: number) => {
      let calls = 0;
      return async () => {
        if (++calls === n) throw new DOMException('Data provided to an operation does not meet requirements', 'DataError');
        return spinning(0.05)();
      };
    };
    const inWarmUp = { library: library('warm-up'), call: failingAt(3), async: true };
    let sampling = false;
    const refuse = failingAt(1);
    const inSamples = { library: library('samples'), call: () => (sampling ? refuse() : spinning(0.05)()), async: true };
    // Warm-up ticks up to 30% of the case; the third subject fails from the first sample on.
    const [a, b, c] = await sampleRoundRobin([fast, inWarmUp, inSamples], timing, async (fraction) => {
      sampling ||= fraction >= 0.3;
    });
    assert.ok('nsPerCall' in a! && a.nsPerCall.length >= timing.minSamples, 'the sound subject is timed');
    assert.ok('error' in b! && /DataError|does not meet/.test(b.error), 'a throw in warm-up is reported');
    assert.ok('error' in c! && /does not meet/.test(c.error), 'a throw while sampling is reported');
  });

  it('without a cap, a slow subject still takes its minimum samples', async () => {
    const slow = { library: library('slow'), call: spinning(20), async: false };
    const [a] = await sampleRoundRobin([slow], timing, tick);
    assert.ok('nsPerCall' in a! && a.nsPerCall.length === timing.minSamples);
  });
});

/**
 * An op with two libraries, 'fast' and 'slow', whose calls spin for their
 * `ms` (counted in `calls` where given), and its context under `capMs`.
 */
function twoLibraries(ms: { fast: number; slow: number }, capMs: number, costs = new CostBook(), calls?: { fast: number; slow: number }) {
  const entry = (name: 'fast' | 'slow') => ({
    library: name,
    bind: () => {
      const spin = spinning(ms[name]);
      return () => {
        if (calls !== undefined) calls[name]++;
        return spin();
      };
    },
  });
  const op: SelectedOp = {
    definition: defineOp<null>({ op: 'test-op', inputs: () => null, entries: [] }),
    timed: [entry('fast'), entry('slow')],
    references: [],
  };
  const libraries = new Map(['fast', 'slow'].map((name) => [name, library(name)]));
  const context: CaseContext = { libraries, costs, capMs, warn: () => {} };
  return { op, context };
}

describe('runCase with a cap', () => {
  const size = 1 << 20;

  it('does not call a library whose predicted minimum exceeds the cap, and reports it capped', async () => {
    const costs = new CostBook();
    costs.record('test-op', 'slow', 64 << 10, 30e6 / 16);
    const calls = { fast: 0, slow: 0 };
    const { op, context } = twoLibraries({ fast: 0.05, slow: 30 }, 100, costs, calls);
    const results = await runCase(op, size, timing, context, async () => {});
    const slow = results.find((r) => r.library === 'slow')!;
    assert.equal(calls.slow, 0);
    assert.deepEqual(slow.nsPerCall, []);
    assert.equal(slow.capped?.how, 'predicted');
    assert.ok(results.find((r) => r.library === 'fast')!.nsPerCall.length >= timing.minSamples);
  });

  it('caps a library measured too slow by its first call, and remembers its cost for the next size', async () => {
    const { op, context } = twoLibraries({ fast: 0.05, slow: 30 }, 100);
    const results = await runCase(op, size, timing, context, async () => {});
    const slow = results.find((r) => r.library === 'slow')!;
    assert.equal(slow.capped?.how, 'measured');
    assert.deepEqual(slow.nsPerCall, []);
    assert.ok(context.costs.predict('test-op', 'slow', 2 * size)! >= 2 * 25e6);
  });
});

describe('runSweep with a cap', () => {
  it('caps a library whose share of the sweep does not fit, and sweeps the others with every pass', async () => {
    const lengths = Array.from({ length: 11 }, (_, i) => i);
    const { op, context } = twoLibraries({ fast: 0.005, slow: 2 }, 20);
    const [fast, slow] = await runSweep(op, lengths, { warmupMs: 2, passes: 3, minSampleUs: 12 }, 12_000, context, async () => {});
    assert.equal(slow!.library, 'slow');
    assert.ok(slow!.capped !== undefined && slow!.capped.neededMs > 20);
    assert.ok(slow!.nsPerCall.every((samples) => samples.length === 0));
    assert.equal(fast!.capped, undefined);
    assert.ok(fast!.nsPerCall.every((samples) => samples.length === 3));
  });
});
