/**
 * age in the harness: every column's bytes checked against typage's,
 * fourfold/parallel's from its threshold, the Go CLI's where `age` is
 * installed (CI installs it), fourfold's own command, 'sizes' only. Needs dist/.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { terminate } from 'fourfold/parallel';
import { PARALLEL, PARALLEL_FROM, TYPAGE_API, TYPAGE_API_ONE_CORE } from '../core/libraries.js';
import { runBenchmark } from '../core/run.js';
import { smallRun } from './helpers.js';

const hasAgeCli = spawnSync('age', ['--version']).status === 0 || spawnSync(`${process.env.HOME}/go/bin/age`, ['--version']).status === 0;
const hasRage = spawnSync('rage', ['--version']).status === 0 || spawnSync(`${process.env.HOME}/.cargo/bin/rage`, ['--version']).status === 0;

after(() => terminate());

describe('age in the benchmark', () => {
  it("times one-shot, streamed and file-to-file age in the 'sizes' part only, every column checked against typage", { timeout: 300_000 }, async (t) => {
    // The X25519 ops and the passphrase's at work factor 10 (18's scrypt takes a second a call in typage).
    const x25519 = ['encrypt', 'decrypt', 'encrypt-stream', 'decrypt-stream', 'encrypt-armored', 'decrypt-armored', 'encrypt-file', 'decrypt-file'];
    const ops = [...x25519.map((way) => `age-${way}`), ...['encrypt', 'decrypt', 'encrypt-stream', 'decrypt-stream'].map((way) => `age-scrypt10-${way}`)];
    const result = await runBenchmark(
      // 0 and 1 byte, a chunk and a byte, and the first size fourfold/parallel's column takes.
      smallRun({ ops, exactOps: true, parts: ['sizes', 'sweep'], sizes: [0, 1, 65537, PARALLEL_FROM], sweep: { from: 0, to: 64, step: 1 } }, { budgetMs: 200 }),
    );
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.sweeps, []);
    assert.deepEqual([...new Set(result.cases.map((c) => c.part))], ['sizes']);
    assert.deepEqual([...new Set(result.cases.map((c) => c.op))], ops);
    for (const c of result.cases) {
      assert.equal(c.error, undefined, `${c.op} ${c.size} ${c.library}`);
      assert.equal(c.checkedBy, 'typage', `${c.op} ${c.size} ${c.library}`);
      assert.ok(c.nsPerCall.length >= 3, `${c.op} ${c.size} ${c.library}`);
    }
    const columns = (op: string, size: number) =>
      result.cases
        .filter((c) => c.op === op && c.size === size)
        .map((c) => c.library)
        .sort();
    // fourfold's own command runs wherever its dist/ does.
    const cli = [...(hasAgeCli ? ['age-cli'] : []), ...(hasRage ? ['rage-cli'] : []), 'fourfold-cli'];
    if (!hasAgeCli) t.diagnostic('no age on the PATH: the Go CLI column is not asked for (CI installs it)');
    if (!hasRage) t.diagnostic('no rage on the PATH: its column is not asked for (CI installs it)');
    // typage's API on fourfold at every size, with the pool and without.
    const everySize = ['fourfold', 'fourfold-js', 'typage', TYPAGE_API, TYPAGE_API_ONE_CORE];
    assert.deepEqual(columns('age-encrypt', 1), [...everySize, ...cli].sort());
    assert.deepEqual(columns('age-decrypt', PARALLEL_FROM), [...everySize, PARALLEL, ...cli].sort());
    assert.deepEqual(columns('age-decrypt-stream', PARALLEL_FROM), [...everySize, PARALLEL].sort());
    assert.deepEqual(columns('age-decrypt-armored', PARALLEL_FROM), [...everySize, PARALLEL, ...cli].sort());
    assert.deepEqual(columns('age-encrypt-armored', 1), [...everySize, ...cli].sort());
    assert.deepEqual(columns('age-scrypt10-encrypt-stream', 1), [...everySize].sort());
    assert.deepEqual(columns('age-scrypt10-decrypt', PARALLEL_FROM), [...everySize, PARALLEL].sort());
    // File to file: paths, as Node has a file system.
    assert.deepEqual(columns('age-encrypt-file', 0), ['fourfold', 'typage', ...cli].sort());
    assert.deepEqual(columns('age-decrypt-file', PARALLEL_FROM), ['fourfold', PARALLEL, 'typage', ...cli].sort());
  });
});
