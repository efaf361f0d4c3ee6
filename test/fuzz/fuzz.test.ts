/**
 * The differential fuzzing in npm test: every property of test/fuzz/ on
 * every tier its calls take, from a fixed seed and for its budget of
 * cases (about a minute in all on two cores), so that a run fails or
 * passes the same way each time. `npm run fuzz` runs the same properties
 * from random seeds for as long as it is given (scripts/fuzz.ts).
 */
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import * as P from 'fourfold/parallel';
import { pool } from '../internal.js';
import { workersAsUsual } from '../parallel/pool-helpers.js';
import { PROPERTIES, runProperty, seedOf } from './runner.js';

/** npm test's seed: fixed, so that CI replays the same cases. */
const SEED = 20_250_601;
/** A bound on one property's run on one tier, against a machine far slower than expected: it stops there, and says so. */
const MILLIS = 20_000;

after(() => {
  P.configure({ workers: undefined });
  P.terminate();
  pool.limit = undefined;
  workersAsUsual();
});

for (const [index, p] of PROPERTIES.entries()) {
  for (const tier of p.tiers) {
    it(`${p.name} (${tier}): ${p.cases} cases from seed ${SEED}`, async () => {
      const outcome = await runProperty(p, tier, { seed: seedOf(SEED, index, tier, 0), cases: p.cases, millis: MILLIS });
      if (outcome.failure !== undefined) {
        assert.fail(
          `${outcome.failure}\nreplay: npm run fuzz -- --only=${p.name} --tier=${tier} --seed=${seedOf(SEED, index, tier, 0)} --path=<the path above>`,
        );
      }
      assert.equal(outcome.cases, p.cases, `only ${outcome.cases} of ${p.cases} cases ran within ${MILLIS / 1000} s`);
    });
  }
}
