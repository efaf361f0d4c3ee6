/**
 * What the core offers the benchmark page: a run without libsodium, shared
 * memory columns, WebCrypto's opt-in lines, ops named exactly, and each
 * column saying what checked its bytes. Needs dist/.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { terminate } from 'fourfold/parallel';
import { runCase, type SelectedOp } from '../core/cases.js';
import { CostBook } from '../core/costs.js';
import { loadLibraries, sharedWorkerColumn, workerColumn } from '../core/libraries.js';
import { allOps } from '../core/ops/index.js';
import { runBenchmark } from '../core/run.js';
import { quick, smallRun } from './helpers.js';

const MiB = 1 << 20;
const timing = { warmupMs: 1, sampleMs: 0.2, samples: 3, minSamples: 3, budgetMs: 100 };

after(() => terminate());

describe('the columns of the benchmark page', () => {
  it('without libsodium, @noble seals the decrypt inputs, fourfold matches @noble, and secretstream push and pull are left out', async () => {
    const loaded = await loadLibraries({});
    const apis = { ...loaded.apis, sodium: undefined };
    const ops = allOps(apis);
    const secretstream = ops.filter((d) => d.op.startsWith('secretstream')).map((d) => d.op);
    assert.deepEqual(secretstream, ['secretstream-encryptStream']);
    const libraries = new Map(loaded.libraries.filter((l) => l.name !== 'sodium').map((l) => [l.name, l]));
    for (const name of ['xchacha20poly1305-decrypt', 'chacha20poly1305-decrypt', 'xsalsa20poly1305-decrypt', 'chacha20', 'poly1305']) {
      const definition = ops.find((d) => d.op === name)!;
      assert.ok(!definition.entries.some((e) => e.library === 'sodium'), name);
      const timed = definition.entries.filter((e) => e.library === 'fourfold' || e.library === 'noble');
      const op: SelectedOp = { definition, timed, references: timed.filter((e) => e.library === 'noble') };
      const context = { libraries, costs: new CostBook(), capMs: 0, warn: (m: string) => assert.fail(m) };
      const cases = await runCase(op, 1000, timing, context, async () => {});
      for (const c of cases) {
        assert.equal(c.error, undefined, `${name} ${c.library}`);
        assert.equal(c.checkedBy, 'noble', `${name} ${c.library}`);
      }
    }
  });

  it("times fourfold/parallel on SharedArrayBuffers, with the synchronous function's bytes", { timeout: 120_000 }, async () => {
    const run = {
      ops: ['chacha20', 'xchacha20poly1305-decrypt', 'blake3', 'poly1305'],
      exactOps: true,
      libs: ['fourfold', workerColumn(1), sharedWorkerColumn(0), sharedWorkerColumn(1)],
      references: ['fourfold'],
      sizes: [4 * MiB],
      parallel: { ...quick.parallel, workerCounts: [0, 1], chartSize: 4 * MiB },
    };
    const result = await runBenchmark(smallRun(run, { sampleMs: 1, budgetMs: 500 }));
    assert.deepEqual(result.warnings, []);
    assert.equal(result.libraries.find((l) => l.name === sharedWorkerColumn(1))?.shared, true);
    for (const op of ['chacha20', 'xchacha20poly1305-decrypt', 'blake3', 'poly1305']) {
      const columns = result.cases.filter((c) => c.op === op);
      assert.deepEqual(columns.map((c) => c.library).sort(), ['fourfold', workerColumn(1), sharedWorkerColumn(0), sharedWorkerColumn(1)].sort(), op);
      for (const c of columns) assert.ok(c.error === undefined && c.checkedBy === 'fourfold' && c.nsPerCall.length >= 3, `${op} ${c.library}: ${c.error}`);
    }
  });

  it("WebCrypto's AES-256-GCM and SHA-256 are opt-in, and checked against @noble", async () => {
    const loaded = await loadLibraries({});
    // fourfold/sodium's ops are opt-in too (bench/test/sodium-ops.test.ts).
    const optIn = allOps(loaded.apis).filter((d) => d.optIn === true && !d.op.startsWith('sodium-'));
    const names = optIn.map((d) => d.op);
    assert.deepEqual(names, ['aes-256-gcm-encrypt', 'sha-256']);
    const result = await runBenchmark(smallRun({ ops: ['aes-256-gcm-encrypt', 'sha-256'], sizes: [64, 4096] }, timing));
    const seen = result.cases.map((c) => `${c.op} ${c.size} ${c.library} ${c.checkedBy}`).sort();
    assert.deepEqual(seen, [
      'aes-256-gcm-encrypt 4096 noble noble',
      'aes-256-gcm-encrypt 4096 webcrypto noble',
      'aes-256-gcm-encrypt 64 noble noble',
      'aes-256-gcm-encrypt 64 webcrypto noble',
      'sha-256 4096 noble-hashes noble-hashes',
      'sha-256 4096 webcrypto noble-hashes',
      'sha-256 64 noble-hashes noble-hashes',
      'sha-256 64 webcrypto noble-hashes',
    ]);
  });

  it('exactOps names whole ops only', async () => {
    const config = { ...smallRun({ ops: ['blake3'], libs: ['fourfold'], sizes: [64] }, timing), capMs: quick.capMs };
    assert.deepEqual([...new Set((await runBenchmark(config)).cases.map((c) => c.op))], ['blake3', 'blake3-keyed']);
    assert.deepEqual([...new Set((await runBenchmark({ ...config, exactOps: true })).cases.map((c) => c.op))], ['blake3']);
  });
});
