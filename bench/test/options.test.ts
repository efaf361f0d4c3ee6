/** The command line's profiles: what each covers, how options override them, and the cap. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions, usage } from '../node/options.js';
import { profiles } from '../node/profiles.js';
import { parse } from './helpers.js';

describe('profiles', () => {
  it('the default run: the summary sizes up to 1 MiB, a sparse sweep and code size, with a cap', () => {
    const o = parse();
    assert.equal(o.profile, 'default');
    assert.deepEqual(o.config.parts, ['sizes', 'sweep']);
    assert.deepEqual(o.runnerParts, ['codesize']);
    assert.deepEqual(o.config.sizes, [64, 1024, 8192, 65536, 1 << 20]);
    assert.equal(o.config.sweep.step, 127);
    assert.ok(o.config.capMs > 0);
  });

  it("--full: every part but 'parallel', every length and 16 MiB, timed as before profiles existed", () => {
    const o = parse('--full');
    assert.equal(o.profile, 'full');
    assert.deepEqual(o.config.parts, ['sizes', 'sweep']);
    assert.deepEqual(o.config.sweep, { from: 0, to: 8192, step: 1 });
    assert.ok(o.config.sizes.includes(16 << 20));
    assert.deepEqual(o.config.timing.sizes, { warmupMs: 50, sampleMs: 1, samples: 31, minSamples: 5, budgetMs: 1500 });
    assert.equal(o.config.timing.sweep.passes, 5);
    assert.ok(o.config.capMs >= parse().config.capMs);
  });

  it("--quick and --profile=quick are the same; every part runs but 'parallel'", () => {
    assert.deepEqual(parse('--quick'), parse('--profile=quick'));
    assert.deepEqual(parse('--quick').config.parts, ['sizes', 'sweep']);
    assert.deepEqual(parse('--quick').runnerParts, ['codesize']);
  });

  it('an option overrides its field of the profile', () => {
    const o = parse('--full', '--sizes=64,16m', '--parts=sizes', '--cap=0');
    assert.deepEqual(o.config.sizes, [64, 16 << 20]);
    assert.deepEqual(o.config.parts, ['sizes']);
    assert.deepEqual(o.runnerParts, []);
    assert.equal(o.config.capMs, 0);
    assert.equal(parse('--cap=2.5').config.capMs, 2500);
  });

  it('--profile=parallel: fourfold and fourfold (parallel) with new, reused and shared arrays, checked against the synchronous bytes, at 16, 64 and 256 MiB, with worker counts 0..3 and the parallel part', () => {
    const o = parse('--profile=parallel');
    assert.equal(o.profile, 'parallel');
    assert.deepEqual(o.config.sizes, [16 << 20, 64 << 20, 256 << 20]);
    assert.deepEqual(o.config.parts, ['sizes', 'parallel']);
    assert.deepEqual(o.runnerParts, []);
    assert.deepEqual(o.config.libs, [
      'fourfold',
      'fourfold (output)',
      'fourfold (parallel)',
      'fourfold (parallel, reused output)',
      'fourfold (parallel, shared memory)',
    ]);
    assert.deepEqual(o.config.references, ['fourfold']);
    assert.deepEqual(o.config.parallel, { workerCounts: [0, 1, 2, 3], chartSize: 64 << 20, taskSize: 256 << 20, taskCalls: 3 });
    // Every op fourfold/parallel has; not secretstream's, which are streams.
    for (const op of ['chacha20', 'xchacha20poly1305', 'poly1305', 'xsalsa20poly1305', 'blake3', 'serpent']) assert.ok(o.config.ops!.includes(op), op);
    assert.ok(!o.config.ops!.some((op) => op.startsWith('secretstream')));
    // Its summary tables are its own sizes, none of which is among the five of the default run.
    assert.deepEqual(o.tableSizes, o.config.sizes);
  });

  it('--profile=age: age files of 16 and 256 MiB against typage, the Go CLI and rage, one call per sample; the default run leaves age out', () => {
    const o = parse('--profile=age');
    assert.deepEqual(o.config.ops, ['age']);
    assert.deepEqual(o.config.sizes, [16 << 20, 256 << 20]);
    assert.deepEqual(o.config.parts, ['sizes']);
    assert.deepEqual(o.config.libs, ['fourfold', 'fourfold (parallel)', 'typage', 'fourfold (typage API)', 'age-cli', 'rage-cli', 'fourfold-cli']);
    assert.deepEqual(o.config.references, ['typage']);
    assert.equal(o.config.timing.sizes.warmupMs, 0);
    assert.deepEqual(parse('--quick').config.opSizes?.age, [1 << 20]);
  });

  it('--profile=scrypt: scrypt with one lane and four at 16 and 128 MiB, one call per sample; the default run has one lane at 16 MiB', () => {
    const o = parse('--profile=scrypt');
    assert.equal(o.profile, 'scrypt');
    assert.deepEqual(o.config.ops, ['scrypt']);
    assert.deepEqual(o.config.sizes, [16 << 20, 128 << 20]);
    assert.deepEqual(o.config.parts, ['sizes']);
    assert.deepEqual(o.runnerParts, []);
    assert.equal(o.config.libs, undefined);
    assert.equal(o.config.timing.sizes.warmupMs, 0);
    assert.ok(o.config.timing.sizes.minSamples >= 5);
    assert.ok(o.config.capMs >= 60_000);
    assert.deepEqual(o.tableSizes, o.config.sizes);
    assert.deepEqual(parse().config.opSizes, { scrypt: [16 << 20], 'scrypt-p4': [], 'argon2id-t2': [19 << 20], 'argon2id-t3': [], age: [] });
    assert.deepEqual(parse('--full').config.opSizes, {
      scrypt: [1 << 20, 16 << 20, 128 << 20],
      'argon2id-t2': [19 << 20],
      'argon2id-t3': [64 << 20],
      age: [16 << 20, 256 << 20],
    });
    // Its case in the default run has a cap of its own (Argon2id's too); sizes and a cap on the command line are every op's.
    assert.deepEqual(parse().config.opCapMs, { scrypt: 10_000, argon2id: 10_000 });
    assert.equal(parse('--sizes=1k').config.opSizes, undefined);
    assert.equal(parse('--cap=2').config.opCapMs, undefined);
    // fourfold/parallel is the parallel and scrypt profiles' (and --full's), unless --libs names it.
    assert.deepEqual(parse().config.libsLeftOut, ['fourfold (parallel)', 'fourfold (parallel, reused output)', 'fourfold (parallel, shared memory)']);
    assert.equal(parse('--libs=fourfold (parallel)').config.libsLeftOut, undefined);
    assert.equal(o.config.libsLeftOut, undefined);
  });

  it("--profile=js: fourfold's js tier against the pure-JavaScript peers on every primitive they share; no WebAssembly or native column", () => {
    const o = parse('--profile=js');
    assert.equal(o.profile, 'js');
    assert.deepEqual(o.config.libs, ['fourfold-js', 'noble', 'noble-hashes', 'mipher', 'blakejs']);
    assert.equal(o.config.libsLeftOut, undefined);
    assert.deepEqual(o.config.parts, ['sizes']);
    for (const op of ['chacha20', 'xchacha20poly1305', 'poly1305', 'salsa20', 'xsalsa20poly1305', 'blake3', 'serpent', 'scrypt', 'argon2id'])
      assert.ok(o.config.ops!.includes(op), op);
    // secretstream's one peer is libsodium (WebAssembly); age's typage is no primitive.
    assert.ok(!o.config.ops!.some((op) => op.startsWith('secretstream') || op === 'age'));
    assert.deepEqual(o.config.sizes, [64, 1 << 10, 8 << 10, 64 << 10, 1 << 20]);
    assert.deepEqual(o.config.opSizes, {
      scrypt: [16 << 20],
      'scrypt-p4': [],
      'argon2id-t2': [19 << 20],
      'argon2id-t3': [64 << 20],
      'argon2id-t3-p4': [],
    });
    assert.deepEqual(o.tableSizes, o.config.sizes);
  });

  it('the worker counts, the chart size and the task size can be set; no other profile has worker-count columns or the parallel part', () => {
    const o = parse('--profile=parallel', '--workers=0,2', '--chart-size=16m', '--task-size=4m');
    assert.deepEqual(o.config.parallel, { workerCounts: [0, 2], chartSize: 16 << 20, taskSize: 4 << 20, taskCalls: 3 });
    assert.throws(() => parse('--workers=-1'), /--workers takes worker counts/);
    assert.throws(() => parse('--workers=1.5'), /--workers takes worker counts/);
    for (const name of ['default', 'quick', 'full']) {
      const profile = parse(`--profile=${name}`);
      assert.deepEqual(profile.config.parallel.workerCounts, [], name);
      assert.ok(!profile.config.parts.includes('parallel'), name);
      assert.equal(profile.config.references, undefined, name);
    }
    assert.deepEqual(parse('--parts=sizes,parallel').config.parts, ['sizes', 'parallel']);
  });

  it('refuses two profiles, an unknown one, a cap that is not a number of seconds, and the retired parts', () => {
    assert.throws(() => parse('--parts=sizes,align'), /unknown part: align/);
    assert.throws(() => parse('--keys=1,4'), /unknown option '--keys=1,4'/);
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
