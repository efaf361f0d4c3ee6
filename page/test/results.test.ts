/**
 * The benchmark page's results once a run ends: a shared link
 * (page/app/share.ts) that carries the medians and draws the same result,
 * CI's check of a run (check.ts), and merging results of several devices
 * (bench/merge.ts). Part of npm test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sharedWorkerColumn, workerColumn } from '../../bench/core/libraries.js';
import { devices, mergedMarkdown, mergedReport } from '../../bench/merge.js';
import { decodeHash, encodeHash, expand, summarize } from '../app/share.js';
import { environmentHtml, resultHtml } from '../app/view.js';
import { checkResults } from './check.js';
import { completeReport, environment } from './fixture.js';

describe('a shared link', () => {
  it('carries the medians and the environment, and draws the same result', async () => {
    const report = completeReport('full');
    const hash = await encodeHash(summarize(report));
    assert.match(hash, /^#r=z[A-Za-z0-9_-]+$/);
    assert.ok(hash.length < 4000, `${hash.length} characters`);
    const back = expand((await decodeHash(hash))!);
    assert.deepEqual(back.page!.environment, report.page!.environment);
    assert.deepEqual(back.page!.scaling.threads, report.page!.scaling.threads);
    assert.deepEqual(back.page!.scaling.points, report.page!.scaling.points);
    const medians = (r: typeof report) => r.engines[0]!.cases.map((c) => `${c.op} ${c.size} ${c.library} ${c.ns!.median.toPrecision(3)}`).sort();
    assert.deepEqual(medians(back), medians(report));
    const html = resultHtml(back, 1000, true);
    assert.match(html, /Someone else's result/);
    assert.match(html, /<svg/);
    assert.match(environmentHtml(back.page!.environment, back.engines[0]), /Chrome 131\.0/);
  });

  it('keeps a capped column as its estimate', async () => {
    const report = completeReport('quick');
    const engine = report.engines[0]!;
    const mipher = engine.cases.findIndex((c) => c.library === 'mipher' && c.size === 1 << 20);
    const capped = {
      ...engine.cases[mipher]!,
      ns: undefined,
      mbps: undefined,
      nsPerCall: [],
      capped: { nsPerCall: 1.23e9, how: 'measured' as const, neededMs: 9000, capMs: 2000 },
    };
    const cases = engine.cases.map((c, i) => (i === mipher ? capped : c));
    const back = expand((await decodeHash(await encodeHash(summarize({ ...report, engines: [{ ...engine, cases }] }))))!);
    assert.equal(back.engines[0]!.cases.find((c) => c.library === 'mipher' && c.size === 1 << 20)?.capped?.nsPerCall, 1.23e9);
  });

  it('is told apart from other hashes, and a damaged one is refused', async () => {
    assert.equal(await decodeHash('#results'), undefined);
    assert.equal(await decodeHash(''), undefined);
    await assert.rejects(decodeHash('#r=jAAAA'));
  });
});

describe("CI's check of a run", () => {
  it('passes a complete run, served isolated or not', () => {
    assert.deepEqual(checkResults(completeReport('quick'), { mode: 'quick', isolated: true }), []);
    assert.deepEqual(checkResults(completeReport('full'), { mode: 'full', isolated: true }), []);
    const plain = completeReport('quick', environment({ crossOriginIsolated: false, sharedMemory: false }));
    assert.deepEqual(checkResults(plain, { mode: 'quick', isolated: false }), []);
    assert.deepEqual(checkResults(plain, { mode: 'quick', isolated: true }), ['served with COOP and COEP, yet the page says it is not cross-origin isolated']);
  });

  it('finds a missing peer, an unchecked fourfold column, a missing point', () => {
    const report = completeReport('quick');
    const engine = report.engines[0]!;
    const without = (drop: (c: (typeof engine.cases)[number]) => boolean) => ({
      ...report,
      engines: [{ ...engine, cases: engine.cases.filter((c) => !drop(c)) }],
    });
    assert.deepEqual(
      checkResults(
        without((c) => c.library === 'hash-wasm' && c.size === 64),
        { mode: 'quick', isolated: true },
      ),
      ['blake3 64 B: no hash-wasm column'],
    );
    assert.deepEqual(
      checkResults(
        without((c) => c.library === sharedWorkerColumn(3) && c.op === 'blake3'),
        { mode: 'quick', isolated: true },
      ),
      ['all cores, blake3, 4 threads, SharedArrayBuffer: no point'],
    );
    const pointless = {
      ...report,
      page: {
        ...report.page!,
        scaling: { ...report.page!.scaling, points: report.page!.scaling.points!.filter((p) => !(p.op === 'chacha20' && p.threads === 2 && !p.shared)) },
      },
    };
    assert.deepEqual(checkResults(pointless, { mode: 'quick', isolated: true }), ['all cores, chacha20, 2 threads: timed, but no speedup from its case']);
    const unchecked = {
      ...report,
      engines: [
        {
          ...engine,
          cases: engine.cases.map((c) => (c.op === 'poly1305' && c.size === 1024 && c.library === 'fourfold' ? { ...c, checkedBy: undefined } : c)),
        },
      ],
    };
    assert.deepEqual(checkResults(unchecked, { mode: 'quick', isolated: true }), ["poly1305 1024 B: fourfold's output was not checked against a peer"]);
  });

  it("wants the page's own account of a refused Worker or a refused WebAssembly", () => {
    const report = completeReport('quick');
    assert.deepEqual(checkResults(report, { mode: 'quick', isolated: true, situation: 'no-workers' }), [
      'no notice that the measuring Worker could not start',
      `all cores: expected none without Workers, got ${JSON.stringify(report.page!.scaling)}`,
    ]);
    const problems = checkResults(report, { mode: 'quick', isolated: true, situation: 'no-wasm' });
    assert.deepEqual(problems.slice(0, 3), [
      "no notice that fourfold's simd tier could not be used",
      'no notice that libsodium did not load',
      'no notice that hash-wasm did not load',
    ]);
    assert.ok(problems.includes('secretstream-push 64 B: timed without libsodium to check it'));
    assert.ok(problems.includes('WebAssembly was refused, yet a column that needs it was timed'));
  });

  it('asks no point of a thread count whose workers did not start', () => {
    const report = completeReport('quick');
    const engine = report.engines[0]!;
    const cases = engine.cases.filter((c) => c.library !== workerColumn(3) && c.library !== sharedWorkerColumn(3));
    const fewer = {
      ...report,
      engines: [{ ...engine, cases }],
      page: { ...report.page!, scaling: { ...report.page!.scaling, pool: { workers: 1, ready: 1, jobs: 5, shared: true } } },
    };
    assert.deepEqual(checkResults(fewer, { mode: 'quick', isolated: true }), []);
    const none = { ...fewer, page: { ...fewer.page, scaling: { ...fewer.page.scaling, error: 'fourfold/parallel could not start a worker here (blocked)' } } };
    assert.deepEqual(checkResults(none, { mode: 'quick', isolated: true }), [
      'all cores: not measured (fourfold/parallel could not start a worker here (blocked))',
    ]);
  });
});

describe('merging results', () => {
  it('makes one row per device, and one report with every device', () => {
    const a = completeReport('quick');
    const b = completeReport('full', environment({ browser: 'Firefox 132.0', engine: 'SpiderMonkey', os: 'Android 14', model: 'Pixel 8', cores: 8 }));
    const all = devices([
      { file: 'a.json', report: a },
      { file: 'dir/b.json', report: b },
    ]);
    assert.deepEqual(
      all.map((d) => d.label),
      ['Chrome 131.0 · Linux · 4 cores', 'Firefox 132.0 · Android 14 Pixel 8 · 8 cores'],
    );
    const table = mergedMarkdown(all).split('\n');
    assert.match(table[2]!, /^\| Chrome 131\.0 · Linux · 4 cores \| [\d.]+ · 2\.00× \|/);
    assert.match(table[3]!, /\| 8\.00× on 8 \(shared 8\.00×\) \|$/);
    assert.ok(table.some((line) => line.includes('| b.json |')));
    assert.deepEqual(
      mergedReport(all).engines.map((e) => e.engine.id),
      all.map((d) => d.label),
    );
  });
});
