/** The command line's profiles: what each covers, how options override them, and the cap. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions, profiles, usage, type Options } from '../node/options.js';

const parse = (...argv: string[]) => parseOptions(argv) as Options;

describe('profiles', () => {
  it('the default run: the summary sizes up to 1 MiB, a sparse sweep, setup and code size, with a cap', () => {
    const o = parse();
    assert.equal(o.profile, 'default');
    assert.deepEqual(o.config.parts, ['sizes', 'sweep']);
    assert.deepEqual(o.runnerParts, ['setup', 'codesize']);
    assert.deepEqual(o.config.sizes, [64, 1024, 8192, 65536, 1 << 20]);
    assert.equal(o.config.sweep.step, 127);
    assert.ok(o.config.capMs > 0);
  });

  it('--full: every part, every length, 16 MiB and a million keys, timed as before profiles existed', () => {
    const o = parse('--full');
    assert.equal(o.profile, 'full');
    assert.deepEqual(o.config.parts, ['sizes', 'sweep', 'align', 'keys']);
    assert.deepEqual(o.config.sweep, { from: 0, to: 8192, step: 1 });
    assert.ok(o.config.sizes.includes(16 << 20));
    assert.ok(o.config.keyCounts.includes(1 << 20));
    assert.deepEqual(o.config.timing.sizes, { warmupMs: 50, sampleMs: 1, samples: 31, minSamples: 5, budgetMs: 1500 });
    assert.equal(o.config.timing.sweep.passes, 5);
    assert.ok(o.config.capMs >= parse().config.capMs);
  });

  it('--quick and --profile=quick are the same; every part runs', () => {
    assert.deepEqual(parse('--quick'), parse('--profile=quick'));
    assert.deepEqual(parse('--quick').config.parts, ['sizes', 'sweep', 'align', 'keys']);
    assert.deepEqual(parse('--quick').runnerParts, ['setup', 'codesize']);
  });

  it('an option overrides its field of the profile', () => {
    const o = parse('--full', '--sizes=64,16m', '--parts=sizes', '--cap=0');
    assert.deepEqual(o.config.sizes, [64, 16 << 20]);
    assert.deepEqual(o.config.parts, ['sizes']);
    assert.deepEqual(o.runnerParts, []);
    assert.equal(o.config.capMs, 0);
    assert.equal(parse('--cap=2.5').config.capMs, 2500);
  });

  it('refuses two profiles, an unknown one, and a cap that is not a number of seconds', () => {
    assert.throws(() => parse('--quick', '--full'), /one profile at a time/);
    assert.throws(() => parse('--profile=nope'), /unknown profile 'nope'/);
    assert.throws(() => parse('--cap=-1'), /--cap expects seconds/);
    assert.throws(() => parse('--cap=soon'), /--cap expects seconds/);
  });

  it('--help names every profile and what it covers', () => {
    assert.equal(parseOptions(['--help']), 'help');
    for (const [name, profile] of Object.entries(profiles)) {
      assert.ok(usage.includes(name), name);
      assert.ok(usage.includes(profile.summary), profile.summary);
    }
  });
});
