/**
 * The benchmark page's logic that needs no browser: what it tells the
 * visitor about a browser, the thread counts, the link that shares a
 * result, the checks CI makes of a run, and the merge of many results.
 * The page itself runs in Chromium, Firefox and WebKit in
 * `npm run test:page` (browsers.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PARALLEL, sharedWorkerColumn, workerColumn } from '../../bench/core/libraries.js';
import { devices, mergedMarkdown, mergedReport } from '../../bench/merge.js';
import { scalingPoints } from '../../bench/report/scaling.js';
import { browserOf, notices, osOf } from '../app/environment.js';
import { AGE_OPS, ageShapes, ARGON2_SIZES, argon2Shapes, largeConfig, SCRYPT_SIZES, scryptShapes, threadCounts } from '../app/plan.js';
import { joinParts, joinRuns, runNotices } from '../app/results.js';
import { decodeHash, encodeHash, expand, summarize } from '../app/share.js';
import { environmentHtml, resultHtml } from '../app/view.js';
import { checkResults } from './check.js';
import { completeReport, environment } from './fixture.js';

describe('the environment', () => {
  const agents: [string, string, string, string][] = [
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131.0', 'V8', 'Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131.0',
      'V8',
      'Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari 18.1',
      'JavaScriptCore',
      'iOS 18.1',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      'Chrome (iOS) 131.0',
      'JavaScriptCore',
      'iOS 17.5',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0', 'Firefox 132.0', 'SpiderMonkey', 'Android 14'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari 18.1',
      'JavaScriptCore',
      'macOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15',
      'WebKitGTK (Safari-like) 60.5',
      'JavaScriptCore',
      'Linux',
    ],
  ];
  for (const [ua, browser, engine, os] of agents) {
    it(`reads ${browser} on ${os}`, () => {
      assert.deepEqual(browserOf(ua), { browser, engine });
      assert.equal(osOf(ua), os);
    });
  }

  it('says what a browser without WebAssembly, SIMD, Workers or isolation measures', () => {
    const text = (env: Parameters<typeof notices>[0]) =>
      notices(env)
        .map((n) => `${n.level}: ${n.text}`)
        .join('\n');
    assert.deepEqual(notices(environment()), []);
    assert.match(text(environment({ webAssembly: false, simd: false })), /^warn: This browser runs no WebAssembly.*js tier only/);
    assert.match(text(environment({ simd: false })), /^warn: This browser runs WebAssembly without SIMD.*js tier/);
    assert.match(text(environment({ workers: false })), /^warn: This browser has no Web Workers/);
    assert.match(text(environment({ crossOriginIsolated: false, sharedMemory: false })), /^info: This page is not cross-origin isolated.*plain arrays only/);
    assert.match(text(environment({ sharedMemory: false })), /^info: This page is cross-origin isolated, but the browser offers no SharedArrayBuffer/);
  });

  it('says which peer did not load, and why fourfold has no simd tier where the browser has SIMD', () => {
    const report = completeReport('quick');
    const result = {
      ...report.engines[0]!,
      warnings: [
        'libsodium-wrappers: cannot load (libsodium-wrappers: Aborted(CompileError: refused). Build with -sASSERTIONS for more info.); its columns are skipped, and the ops it alone checks (secretstream) are not timed',
        'hash-wasm 4.13.0: WebAssembly.compile(): refused; its columns are skipped',
        'coarse clock (100000 ns): sweep stride widened from 127 to 254',
      ],
    };
    assert.deepEqual(
      runNotices(result, environment()).map((n) => n.text),
      [
        'A peer did not load, so its columns are empty: libsodium-wrappers (libsodium-wrappers: Aborted(CompileError: refused)). secretstream is not timed, as only libsodium checks its bytes.',
        'A peer did not load, so its columns are empty: hash-wasm (WebAssembly.compile(): refused).',
      ],
    );
    const jsOnly = { ...result, warnings: [], libraries: result.libraries.filter((l) => l.name !== 'fourfold' && l.name !== 'webcrypto') };
    const texts = runNotices(jsOnly, environment()).map((n) => n.text);
    assert.match(texts[0]!, /has WebAssembly SIMD, but fourfold could not compile its kernels.*'wasm-unsafe-eval'/);
    assert.match(texts[1]!, /WebCrypto.*not available here/);
    assert.equal(runNotices(jsOnly, environment({ simd: false })).length, 1);
  });
});

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
