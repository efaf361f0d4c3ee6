/**
 * What each part of the benchmark page measures and how it is shown
 * (page/app/plan.ts, results.ts, view.ts): the all-cores part's thread
 * counts and columns, joined over its runs; scrypt, Argon2id and age, each
 * with its sizes in quick and full, its chart or table, and the columns
 * it wants. Part of npm test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PARALLEL, workerColumn } from '../../bench/core/libraries.js';
import { scalingPoints } from '../../bench/report/scaling.js';
import { AGE_OPS, ageShapes, ARGON2_SIZES, argon2Shapes, largeConfig, SCRYPT_SIZES, scryptShapes, threadCounts } from '../app/plan.js';
import { joinParts, joinRuns } from '../app/results.js';
import { resultHtml } from '../app/view.js';
import { checkResults } from './check.js';
import { completeReport } from './fixture.js';

describe('the all-cores part', () => {
  it('takes 1, 2, 4, ... threads up to the logical cores, and the cores themselves', () => {
    assert.deepEqual(threadCounts(1), [1]);
    assert.deepEqual(threadCounts(2), [1, 2]);
    assert.deepEqual(threadCounts(6), [1, 2, 4, 6]);
    assert.deepEqual(threadCounts(16), [1, 2, 4, 8, 16]);
  });

  it('compares plain columns with the allocating function and shared ones with the one writing into an output', () => {
    const points = scalingPoints(completeReport('quick').engines[0]!).filter((p) => p.op === 'chacha20');
    assert.deepEqual(
      points.map((p) => [p.threads, p.shared, +p.speedup.toFixed(3)]),
      [
        [1, false, 1],
        [2, false, 2],
        [4, false, 4],
        [1, true, 1],
        [2, true, 2],
        [4, true, 4],
      ],
    );
  });
});

describe('joining the thread counts of the all-cores part', () => {
  it("pools the synchronous function's samples over the cases, keeps every other column, and the libraries of all", () => {
    const engine = completeReport('quick').engines[0]!;
    const pick = (library: string, op = 'chacha20') => engine.cases.find((c) => c.op === op && c.library === library && c.size === 64 << 20)!;
    const run = (n: number, ns: number[]) => ({
      ...engine,
      libraries: engine.libraries.filter((l) => l.name === 'fourfold' || l.name === workerColumn(n - 1)),
      cases: [{ ...pick('fourfold'), nsPerCall: ns }, pick(workerColumn(n - 1))],
      seconds: 2,
    });
    const joined = joinRuns([run(1, [10, 11]), run(2, [12]), run(4, [13, 14])]);
    assert.deepEqual(
      joined.cases.map((c) => [c.library, c.nsPerCall]),
      [
        ['fourfold', [10, 11, 12, 13, 14]],
        [workerColumn(0), pick(workerColumn(0)).nsPerCall],
        [workerColumn(1), pick(workerColumn(1)).nsPerCall],
        [workerColumn(3), pick(workerColumn(3)).nsPerCall],
      ],
    );
    assert.deepEqual(
      joined.libraries.map((l) => l.name),
      ['fourfold', workerColumn(0), workerColumn(1), workerColumn(3)],
    );
    assert.equal(joined.seconds, 6);
    const capped = { ...pick('fourfold'), nsPerCall: [], capped: { nsPerCall: 1, how: 'measured' as const, neededMs: 1, capMs: 1 } };
    assert.deepEqual(joinRuns([{ ...run(1, []), cases: [capped] }, run(2, [12])]).cases[0]!.nsPerCall, [12]);
  });
});

describe('scrypt', () => {
  const MiB = 1 << 20;

  it('one lane of 16 MiB and four in quick; the full mode adds a lane of 128 MiB; fourfold/parallel only where its workers started', () => {
    assert.deepEqual(scryptShapes('quick'), [
      ['scrypt', 16 * MiB],
      ['scrypt-p4', 16 * MiB],
    ]);
    assert.deepEqual(scryptShapes('full'), [
      ['scrypt', 16 * MiB],
      ['scrypt', 128 * MiB],
      ['scrypt-p4', 16 * MiB],
    ]);
    const config = largeConfig('full', true, {});
    assert.deepEqual(config.ops, ['scrypt', 'scrypt-p4', 'argon2id-t2', 'argon2id-t3', 'argon2id-t3-p4', ...AGE_OPS]);
    assert.deepEqual(config.opSizes, { ...SCRYPT_SIZES.full, ...ARGON2_SIZES.full, age: [16 * MiB, 256 * MiB] });
    assert.deepEqual(config.parts, ['sizes']);
    assert.ok(config.libs!.includes(PARALLEL));
    assert.ok(!largeConfig('full', false, {}).libs!.includes(PARALLEL));
  });

  it('joins the three parts into one engine', () => {
    const engine = completeReport('quick').engines[0]!;
    const part = (op: string) => ({ ...engine, cases: engine.cases.filter((c) => c.op === op), seconds: 1 });
    const joined = joinParts(part('chacha20'), part('blake3'), undefined, part('scrypt'));
    assert.deepEqual([...new Set(joined.cases.map((c) => c.op))], ['chacha20', 'blake3', 'scrypt']);
    assert.equal(joined.seconds, 3);
  });

  it('has a chart and a table of its own: time per call, each column against the simd tier, N and p', () => {
    const html = resultHtml(completeReport('full'), 1000, false);
    const section = html.slice(html.indexOf('Keys from passwords: scrypt'), html.indexOf('Keys from passwords: Argon2id'));
    assert.match(section, /scrypt: fourfold against its fastest peer/);
    assert.match(section, /scrypt, p = 1.*16 MiB, N = 2\^14.*128 MiB, N = 2\^17.*scrypt, p = 4/s);
    assert.match(section, /<th>fourfold \(parallel\)<\/th>/);
    assert.match(section, />0\.50×</, "fourfold/parallel's time over the simd tier's");
    // Not in the one-core table, whose sizes are messages.
    assert.doesNotMatch(html.slice(0, html.indexOf('Keys from passwords')), /<th scope="row">scrypt/);
  });

  it("wants fourfold/parallel's column where the all-cores part ran, and not without Workers", () => {
    const report = completeReport('quick');
    const engine = report.engines[0]!;
    const without = { ...report, engines: [{ ...engine, cases: engine.cases.filter((c) => !(c.library === PARALLEL && c.op === 'scrypt-p4')) }] };
    assert.deepEqual(checkResults(without, { mode: 'quick', isolated: true }), [`scrypt-p4 ${16 * MiB} B: no fourfold (parallel) column`]);
    const skipped = {
      ...without,
      page: { ...without.page!, scaling: { ...without.page!.scaling, error: 'fourfold/parallel could not start a worker here (blocked)' } },
    };
    assert.deepEqual(checkResults(skipped, { mode: 'quick', isolated: true }), [
      'all cores: not measured (fourfold/parallel could not start a worker here (blocked))',
    ]);
  });
});

describe('Argon2id', () => {
  const MiB = 1 << 20;

  it("OWASP's m = 19 MiB, t = 2 in quick; the full mode adds RFC 9106's m = 64 MiB, t = 3 on one lane and four", () => {
    assert.deepEqual(argon2Shapes('quick'), [['argon2id-t2', 19 * MiB]]);
    assert.deepEqual(argon2Shapes('full'), [
      ['argon2id-t2', 19 * MiB],
      ['argon2id-t3', 64 * MiB],
      ['argon2id-t3-p4', 64 * MiB],
    ]);
    const quick = largeConfig('quick', true, {});
    assert.deepEqual(quick.ops, ['scrypt', 'scrypt-p4', 'argon2id-t2', ...AGE_OPS]);
    assert.deepEqual(quick.opSizes?.['argon2id-t2'], [19 * MiB]);
    assert.equal(quick.exactOps, true, "'argon2id-t3' must not bring 'argon2id-t3-p4' into the quick mode");
  });

  it('has a chart and a table of its own: time per call, m, t and p, fourfold/parallel at four lanes, libsodium at one', () => {
    const html = resultHtml(completeReport('full'), 1000, false);
    const section = html.slice(html.indexOf('Keys from passwords: Argon2id'), html.indexOf('Files: age'));
    assert.match(section, /Argon2id: fourfold against its fastest peer/);
    assert.match(section, /argon2id, t = 2, p = 1.*19 MiB, m = 19456.*argon2id, t = 3, p = 1.*64 MiB, m = 65536.*argon2id, t = 3, p = 4/s);
    assert.match(section, /<th>fourfold \(parallel\)<\/th>/);
    assert.match(section, /<th>sodium<\/th>/);
    // libsodium at p = 1 only: its cell in the four lanes' row is empty.
    const p4 = section.slice(section.indexOf('argon2id, t = 3, p = 4'));
    assert.match(p4, /<td title="not timed">—<\/td>/);
    assert.match(section, />0\.50×</, "fourfold/parallel's time over the simd tier's");
    // Its chart has only its own ops, though the all-cores part times others at 64 MiB.
    const chart = section.slice(0, section.indexOf('</svg>'));
    assert.doesNotMatch(chart, /chacha20|blake3/);
    assert.match(chart, /argon2id-t3-p4/);
    assert.doesNotMatch(html.slice(0, html.indexOf('Keys from passwords')), /<th scope="row">argon2id/);
  });

  it("wants fourfold/parallel's column at four lanes where the all-cores part ran, and libsodium's at one lane", () => {
    const drop = (library: string, op: string, mode: 'quick' | 'full' = 'full') => {
      const report = completeReport(mode);
      const engine = report.engines[0]!;
      return { ...report, engines: [{ ...engine, cases: engine.cases.filter((c) => !(c.library === library && c.op === op)) }] };
    };
    assert.deepEqual(checkResults(drop(PARALLEL, 'argon2id-t3-p4'), { mode: 'full', isolated: true }), [
      `argon2id-t3-p4 ${64 * MiB} B: no fourfold (parallel) column`,
    ]);
    assert.deepEqual(checkResults(drop('sodium', 'argon2id-t3'), { mode: 'full', isolated: true }), [`argon2id-t3 ${64 * MiB} B: no sodium column`]);
    assert.deepEqual(checkResults(drop('hash-wasm', 'argon2id-t2', 'quick'), { mode: 'quick', isolated: true }), [
      `argon2id-t2 ${19 * MiB} B: no hash-wasm column`,
    ]);
  });
});

describe('age', () => {
  const MiB = 1 << 20;

  it('times files of 4 MiB in quick, 16 and 256 MiB in full, each op one-shot and streamed', () => {
    assert.deepEqual(
      ageShapes('quick'),
      AGE_OPS.map((op) => [op, 4 * MiB]),
    );
    assert.deepEqual(
      ageShapes('full'),
      AGE_OPS.flatMap((op) => [
        [op, 16 * MiB],
        [op, 256 * MiB],
      ]),
    );
    assert.ok(largeConfig('quick', true, {}).libs!.includes('typage'));
  });

  it('has a table of its own: MB/s, typage against the simd tier, fourfold/parallel beside', () => {
    const html = resultHtml(completeReport('full'), 1000, false);
    const section = html.slice(html.indexOf('Files: age'), html.indexOf('The platform, for scale'));
    assert.match(section, /age-encrypt<\/th><td class="size">16 MiB.*256 MiB.*age-decrypt-stream/s);
    assert.match(section, /<th>fourfold \(parallel\)<\/th>.*<th>typage<\/th>/s);
    assert.match(section, /vs fastest peer.*× \(typage\)/s);
    assert.doesNotMatch(html.slice(0, html.indexOf('Files: age')), /<th scope="row">age-/);
  });

  it("wants typage's column and fourfold/parallel's where the all-cores part ran", () => {
    const report = completeReport('quick');
    const engine = report.engines[0]!;
    const drop = (library: string, op: string) => ({
      ...report,
      engines: [{ ...engine, cases: engine.cases.filter((c) => !(c.library === library && c.op === op)) }],
    });
    assert.deepEqual(checkResults(drop(PARALLEL, 'age-decrypt'), { mode: 'quick', isolated: true }), [
      `age-decrypt ${4 * MiB} B: no fourfold (parallel) column`,
    ]);
    assert.deepEqual(checkResults(drop('typage', 'age-encrypt-stream'), { mode: 'quick', isolated: true }), [
      `age-encrypt-stream ${4 * MiB} B: no typage column`,
    ]);
  });

  it('takes a throw from typage where it gave checked figures elsewhere, and not where it gave none', () => {
    const report = completeReport('quick');
    const engine = report.engines[0]!;
    const threw = (ops: readonly string[]) => ({
      ...report,
      engines: [
        {
          ...engine,
          cases: engine.cases.map((c) =>
            c.library === 'typage' && ops.includes(c.op) ? { ...c, ns: undefined, nsPerCall: [], error: 'threw while timed: DataError' } : c,
          ),
        },
      ],
    });
    assert.deepEqual(checkResults(threw(['age-encrypt']), { mode: 'quick', isolated: true }), []);
    const everywhere = ['age-encrypt', 'age-decrypt', 'age-encrypt-stream', 'age-decrypt-stream'];
    assert.deepEqual(
      checkResults(threw(everywhere), { mode: 'quick', isolated: true }),
      everywhere.map((op) => `${op} ${4 * MiB} B: typage: threw while timed: DataError`),
    );
  });
});
