/**
 * Runs the fuzzing's properties (test/fuzz/properties.ts) with fast-check:
 * a property on a tier, from a seed, for a number of cases or until a
 * time is up, shrinking a failure to its smallest case. npm test's run
 * (test/fuzz/fuzz.test.ts) and the long run (scripts/fuzz.ts) both call it.
 */
import fc from 'fast-check';
import type { CallTier } from '../helpers.js';
import { selectTier } from './gen.js';
import { argon2Async, asyncProperties, parallelArgon2 } from './async-properties.js';
import { ageCallProperties } from './age-properties.js';
import { argon2s } from './kdf-properties.js';
import { syncProperties } from './properties.js';
import type { FuzzProperty } from './property.js';

export type { FuzzProperty };

/**
 * Every property, in the order the runs take them. A property's seeds
 * derive from its place here (seedOf), so the newest come last: Argon2's
 * (sync, Async and PHC strings, fourfold/parallel) left the cases npm
 * test draws for the others as they were.
 */
export const PROPERTIES: readonly FuzzProperty[] = [...syncProperties, ...asyncProperties, ...ageCallProperties, argon2s, argon2Async, parallelArgon2];

export interface Outcome {
  /** Cases run (fewer than asked where the time ran out). */
  cases: number;
  /** fast-check's report of the failure: the seed, the path, the shrunk counterexample and the error; undefined where none failed. */
  failure?: string;
}

const setUp = new Set<string>();

/**
 * Runs `p` on `tier` from `seed`: `cases` cases, or fewer where
 * `millis` run out first; `path` (from a failure's report) replays that
 * one case and its shrinking.
 */
export async function runProperty(p: FuzzProperty, tier: CallTier, run: { seed: number; cases: number; millis?: number; path?: string }): Promise<Outcome> {
  if (!setUp.has(p.name)) {
    await p.setup?.();
    setUp.add(p.name);
  }
  await selectTier(tier);
  const details = await fc.check(p.property() as fc.IAsyncProperty<unknown[]>, {
    seed: run.seed,
    numRuns: run.cases,
    includeErrorInReport: true,
    ...(run.millis === undefined ? {} : { interruptAfterTimeLimit: run.millis }),
    ...(run.path === undefined ? {} : { path: run.path }),
  });
  // fast-check counts a run the time limit stopped before its first case as failed: that is the clock, not a counterexample.
  const failed = details.failed && !(details.interrupted && details.counterexample === null && details.errorInstance === null);
  return failed ? { cases: details.numRuns, failure: fc.defaultReportMessage(details) } : { cases: details.numRuns };
}

/** A 32-bit seed for round `round` of property `index` on `tier` in a run from `seed`: the long run's rounds differ, and replay. */
export function seedOf(seed: number, index: number, tier: CallTier, round: number): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (const v of [index, tier.length * 131 + tier.charCodeAt(0), round]) h = Math.imul(h ^ v, 0x01000193) >>> 0;
  return h | 0;
}
