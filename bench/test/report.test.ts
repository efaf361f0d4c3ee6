/**
 * The report: no negative overhead shown as measured, capped reads as capped,
 * the summary chart before any table, an unfinished run says so, and
 * fourfold/parallel's speedups, model and longest task open the page.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult, EngineResult, SweepResult } from '../core/types.js';
import type { RunStatus } from '../report/json.js';
import { markdown } from '../report/markdown.js';
import { bestPeer, fitOverhead, formatFit, summarizeCase } from '../report/summary.js';
import { boundSpeedup, projectedSpeedup } from '../report/model.js';
import { overheadTable, summaryNote, summaryTables } from '../report/tables.js';
import { engineResult, sizeCase, testReport } from './helpers.js';

const report = (engines: EngineResult[], status?: RunStatus) => testReport(engines, status, { sizes: [64, 65536] });
const engine = engineResult;

describe('the per-call fit', () => {
  it('keeps a positive overhead as fitted', () => {
    const fit = fitOverhead([0, 100, 200], [50, 150, 250]);
    assert.ok(Math.abs(fit.a - 50) < 1e-9 && Math.abs(fit.b - 1) < 1e-12 && fit.negativeA === undefined);
    assert.equal(formatFit(fit), '50 ns + 1.00 ns/B');
  });

  it('clamps a negative intercept to 0, refits the slope through the origin, and says so', () => {
    const xs = [0, 1000, 2000, 3000];
    const ys = [10, 900, 2100, 3300]; // the least-squares intercept is negative
    const fit = fitOverhead(xs, ys);
    assert.ok(fit.negativeA !== undefined && fit.negativeA < 0);
    assert.equal(fit.a, 0);
    assert.ok(Math.abs(fit.b - (1000 * 900 + 2000 * 2100 + 3000 * 3300) / (1000 ** 2 + 2000 ** 2 + 3000 ** 2)) < 1e-12);
    assert.match(formatFit(fit), /^0 ns \(fit: −\d+\) \+ \d+\.\d\d ns\/B$/);
  });

  it('the overhead table never prints a negative overhead', () => {
    const lengths = [0, 1000, 2000, 3000];
    const sweep: SweepResult = {
      op: 'chacha20',
      library: 'fourfold',
      lengths,
      callsPerSample: [1, 1, 1, 1],
      nsPerCall: [[10], [900], [2100], [3300]],
      errors: [],
      errorCount: 0,
    };
    const table = overheadTable(report([engine([], [sweep])]).engines[0]!)!;
    assert.doesNotMatch(table.rows.flat().join(' '), /-\d+ ns/);
    assert.match(table.rows[0]![1]!, /^0 ns \(fit: −/);
  });
});

describe('the comparison with the fastest peer', () => {
  it('takes the smallest ratio, each peer against the fourfold column of its own call style', () => {
    const cases = [
      sizeCase('fourfold', 64, 100),
      sizeCase('fourfold (output)', 64, 50),
      sizeCase('sodium', 64, 300),
      sizeCase('noble (output)', 64, 100),
      sizeCase('fourfold-js', 64, 400),
    ].map(summarizeCase);
    const best = bestPeer(cases, 'chacha20', 64)!;
    // noble (output) / fourfold (output) = 2 beats sodium / fourfold = 3; fourfold-js is not a peer.
    assert.equal(best.peer, 'noble (output)');
    assert.equal(best.fourfold, 'fourfold (output)');
    assert.ok(Math.abs(best.ratio - 2) < 1e-9);
    assert.equal(bestPeer(cases, 'chacha20', 65536), undefined);
  });

  it('leaves out a capped peer', () => {
    const capped: CaseResult = {
      ...sizeCase('mipher', 64, 0),
      nsPerCall: [],
      callsPerSample: 0,
      capped: { nsPerCall: 2e9, how: 'predicted', neededMs: 14e3, capMs: 4000 },
    };
    const cases = [sizeCase('fourfold', 64, 100), capped].map(summarizeCase);
    assert.equal(bestPeer(cases, 'chacha20', 64), undefined);
  });
});

describe('the page and the summary', () => {
  const capped: CaseResult = {
    ...sizeCase('sodium', 65536, 0),
    nsPerCall: [],
    callsPerSample: 0,
    capped: { nsPerCall: 2.5e9, how: 'measured', neededMs: 17e3, capMs: 4000 },
  };
  const cases = [sizeCase('fourfold', 64, 100), sizeCase('sodium', 64, 150), sizeCase('fourfold', 65536, 40_000), capped];

  it('shows a capped library as capped, with its cost per call, not as a measurement', () => {
    const table = summaryTables(report([engine(cases)]).engines[0]!, [64, 65536])[0]!;
    const row = table.rows.find((r) => r[0] === '64 KiB')!;
    assert.equal(row[table.header.indexOf('sodium')], 'capped (~2.50 s)');
  });

  it('says when the run was interrupted, and which engine did not finish', () => {
    const interrupted = report([engine(cases, [], true)], 'interrupted');
    assert.match(markdown(interrupted, [64]), /Interrupted \(Ctrl-C\)/);
    assert.match(markdown(interrupted, [64]), /, unfinished\n/);
    assert.doesNotMatch(markdown(report([engine(cases)]), [64]), /Interrupted|unfinished/);
  });
});

describe('the fourfold/parallel report', () => {
  const MiB = 1 << 20;
  const at = (library: string, size: number, ms: number) => sizeCase(library, size, ms * 1e6);
  const cases = [
    at('fourfold', 64 * MiB, 40),
    at('fourfold (parallel)', 64 * MiB, 25),
    at('fourfold (parallel, 0 workers)', 64 * MiB, 42),
    at('fourfold (parallel, 1 worker)', 64 * MiB, 24),
    at('fourfold (parallel, 2 workers)', 64 * MiB, 26),
    at('fourfold', 256 * MiB, 160),
    at('fourfold (parallel)', 256 * MiB, 100),
  ];
  function parallelEngine(failure?: string): EngineResult {
    const base = engine(cases);
    return {
      ...base,
      libraries: base.libraries.map((l) => {
        const workers = /, (\d+) workers?\)$/.exec(l.name)?.[1];
        return workers === undefined ? l : { ...l, workers: Number(workers) };
      }),
      parallel: {
        cores: 2,
        costs: { shared: true, pieceBytes: MiB, copyInNs: [0.1, 0.1, 0.1], copyOutNs: [0.1], copyOutWarmNs: [0.04], messageNs: [20_000] },
        tasks: [{ op: 'chacha20', size: 256 * MiB, ms: [5, 7, 60], jobs: [100, 98, 0], callMs: [100, 101, 102] }],
        pool: { workers: 1, ready: 1, jobs: 300, shared: true, ...(failure === undefined ? {} : { failure }) },
      },
    };
  }
  const parallelReport = (failure?: string) => ({ ...report([parallelEngine(failure)]), profile: 'parallel' });

  it('the model: its costs, the measurement on 2 cores beside the projection to 2, 4, 8 and 16, labelled as one', () => {
    const md = markdown(parallelReport(), [64 * MiB, 256 * MiB]);
    assert.match(md, /projected to more \(a projection, not a measurement\)/);
    const row = md.split('\n').find((line) => line.startsWith('| chacha20 | new output | 40.0 ms'))!;
    const cells = row
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim())
      .filter((_, i) => i !== 1);
    // C: two passes (in and out) of 0.1 ns per byte over 64 MiB; A: 0.06 ns per byte of it; m·J: 64 jobs of 20 µs; K: 42 − 40 ms; measured with 1 worker: 40 / 24.
    assert.deepEqual(cells.slice(0, 7), ['chacha20', '40.0 ms', '13.4 ms', '4.03 ms', '1.28 ms', '2.00 ms', '1.67×']);
    const k = { w: 40, copies: (0.2 * 64 * MiB) / 1e6, touch: (0.06 * 64 * MiB) / 1e6, messages: (64 * 20_000) / 1e6, pieces: 2 };
    const expected = [2, 4, 8, 16].map((n) => `${projectedSpeedup(k, n).toFixed(2)}× (${boundSpeedup(k, n).toFixed(2)}×)`);
    assert.deepEqual(cells.slice(7), expected);
  });

  it('the speedups come first in the summary, and the longest task says when it passed 50 ms', () => {
    const md = markdown(parallelReport(), [64 * MiB, 256 * MiB]);
    assert.ok(md.indexOf('speedup over the synchronous function') < md.indexOf(summaryNote));
    assert.match(md, /\| chacha20 \| 1\.60× \(25\.00 ms\) \| 1\.60× \(100\.00 ms\) \|/);
    assert.match(md, /\| chacha20 \| 256 MiB \| 7\.00 ms \| 60\.0 ms \| not always \| 101 ms \| 100, 98, 0 \|/);
    assert.match(md, /1 worker started \(1 ready\), 300 jobs done, slots shared/);
  });

  it('says when the pool had no workers, and why', () => {
    assert.match(markdown(parallelReport('worker-src'), [64 * MiB]), /Workers cannot be used: worker-src; every call ran on the calling thread/);
  });
});
