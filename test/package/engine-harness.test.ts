/**
 * The harness that stands in for node:test in every bundled engine
 * (scripts/engines/harness/node-test.ts): whatever a test, a hook or a
 * suite body throws or rejects with, undefined and null included, fails
 * it. (It took `undefined` for "no error", so a test that rejected with
 * undefined passed: Bun's scrypt callback, given undefined for "no
 * error", hid a bug that way.)
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as harness from '../../scripts/engines/harness/node-test.js';

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
