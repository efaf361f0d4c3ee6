/**
 * scrypt in the harness: sizes of a lane's memory, 'sizes' only, every column
 * checked against @noble/hashes, fourfold/parallel below its message
 * threshold, opSizes and opCapMs, and the summary's row for an op timed at
 * none of the summary sizes. Needs dist/.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { terminate } from 'fourfold/parallel';
import { PARALLEL, PARALLEL_FROM } from '../core/libraries.js';
import { capOf, runBenchmark, sizesOf } from '../core/run.js';
import { summaryTables } from '../report/tables.js';
import { engineResult, sizeCase, smallRun, testReport } from './helpers.js';

const MiB = 1 << 20;

after(() => terminate());

describe('scrypt in the benchmark', () => {
  it("times lanes of 128 * 8 * 2^k bytes, in the 'sizes' part only, every column against @noble/hashes, fourfold/parallel at every size", async () => {
    const result = await runBenchmark(
      smallRun({
        ops: ['scrypt'],
        parts: ['sizes', 'sweep'],
        // 64 B and 3 KiB are no lane of r = 8; 2 KiB is N = 2, 4 KiB N = 4. The sweep would take 2 KiB too.
        sizes: [64, 2048, 3072, 4096],
        sweep: { from: 2048, to: 2048, step: 1 },
      }),
    );
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.sweeps, []);
    const cases = [...new Set(result.cases.map((c) => `${c.part} ${c.op} ${c.size}`))];
    assert.deepEqual(cases, ['sizes scrypt 2048', 'sizes scrypt 4096', 'sizes scrypt-p4 2048', 'sizes scrypt-p4 4096']);
    for (const c of result.cases) {
      assert.equal(c.error, undefined, `${c.op} ${c.size} ${c.library}`);
      assert.equal(c.checkedBy, 'noble-hashes', `${c.op} ${c.size} ${c.library}`);
    }
    const columns = [...new Set(result.cases.map((c) => c.library))].sort();
    for (const name of ['fourfold', 'fourfold-js', PARALLEL, 'noble-hashes', 'node', 'hash-wasm', 'sodium']) assert.ok(columns.includes(name), name);
    assert.ok(4096 < PARALLEL_FROM, "below fourfold/parallel's inline threshold for messages");
  });

  it("takes an op's own sizes and cap by its name or its longest prefix, and an empty list of sizes leaves it out", () => {
    const config = { sizes: [64, 1024], opSizes: { scrypt: [16 * MiB], 'scrypt-p4': [] } };
    assert.deepEqual(sizesOf('chacha20', config), [64, 1024]);
    assert.deepEqual(sizesOf('scrypt', config), [16 * MiB]);
    assert.deepEqual(sizesOf('scrypt-p4', config), []);
    assert.deepEqual(sizesOf('scrypt-p4', { sizes: [64], opSizes: { scrypt: [MiB] } }), [MiB]);
    assert.deepEqual(sizesOf('scrypt', { sizes: [64] }), [64]);
    assert.equal(capOf('scrypt-p4', { capMs: 4000, opCapMs: { scrypt: 10_000 } }), 10_000);
    assert.equal(capOf('chacha20', { capMs: 4000, opCapMs: { scrypt: 10_000 } }), 4000);
  });

  it('the summary gives an op timed at none of the summary sizes a row at each of its own', () => {
    const at = (op: string, library: string, size: number, ns: number) => sizeCase(library, size, ns, op);
    const cases = [
      at('chacha20', 'fourfold', 64, 100),
      at('chacha20', 'noble', 64, 300),
      at('scrypt', 'fourfold', 16 * MiB, 30e6),
      at('scrypt', 'noble-hashes', 16 * MiB, 60e6),
    ];
    const report = testReport([engineResult(cases)]);
    const rows = summaryTables(report.engines[0]!, [64, 1024]).map((t) => `${t.title}: ${t.rows.map((r) => r[0]).join(', ')}`);
    assert.deepEqual(rows, ['chacha20: 64 B', 'scrypt: 16 MiB']);
  });
});
