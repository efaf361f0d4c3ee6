/**
 * npm run test:engines: the whole test suite (both tiers) in every engine.
 *
 *   npm run test:engines                                # all engines
 *   npm run test:engines -- --engines=firefox,webkit    # some
 *   npm run test:engines -- --jobs=1 --timeout=900 --seed=<hex>
 *   npm run test:engines -- --files=blake3/,serpent     # test files whose path contains one of these
 *   npm run test:engines -- --without=node='why'       # all but node, the reason in the summary
 *
 * Each engine runs the test files files.ts gives it (the others are
 * reported as skipped, with the reason), as suite.ts runs them: Node
 * engines (also node --jitless) as `npm test` does (node --test, tsx).
 * Every other engine runs the bundles of bundle.ts, built here once per
 * target and set of files, through runInEngine; shells (Hermes) and
 * workerd one process per test file. Browsers then run each page test
 * (test/pages/*.page.ts) in a fresh page of its own, served with the
 * headers suite.ts's PAGE_HEADERS gives it.
 * Prints one line per engine as it ends, then summary.ts's summary and
 * the failures, writes every result to
 * .engines/report.json, and exits 1 if any engine failed a test, could not
 * run, or did not have the WebAssembly it is listed with (engines.ts: SIMD,
 * WebAssembly without SIMD, none): a js-only run where SIMD was expected is
 * a failure, not a skip, and so is WebAssembly where none was expected.
 */
import { availableParallelism, loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundlePage, bundleTestSuite, pageFiles, testFiles, type SuiteBundle, type Target } from './bundle.js';
import { CACHE, ENGINES, ENGINE_IDS, requireInstalled, runsNodeTest, type Engine, type EngineId } from './engines.js';
import { checkTables, notRun } from './files.js';
import { count, printSummary } from './summary.js';
import { runBundledTests, runNodeTests } from './suite.js';

/**
 * Runs `tasks` with at most `jobs` at a time, started in the order of
 * `start` (indices into `tasks`), keeping their own order in the output.
 */
async function pool<T>(tasks: (() => Promise<T>)[], jobs: number, start: readonly number[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, tasks.length) }, async () => {
      while (next < start.length) {
        const i = start[next++]!;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      engines: { type: 'string' },
      jobs: { type: 'string' },
      timeout: { type: 'string' },
      seed: { type: 'string' },
      files: { type: 'string' },
      without: { type: 'string', multiple: true },
    },
  });
  // --without=node='npm test ran these files in this Node': an engine left out, with the reason the summary gives.
  const without = new Map((values.without ?? []).map((w) => [w.split('=')[0]!.trim() as EngineId, w.slice(w.indexOf('=') + 1).trim()]));
  for (const [id, reason] of without)
    if (!ENGINES[id] || !reason) throw new Error(`--without=${id}: give a known engine and the reason, as --without=node='why'`);
  const listed = (values.engines ? values.engines.split(',').map((s) => s.trim()) : ENGINE_IDS) as EngineId[];
  for (const id of listed) if (!ENGINES[id]) throw new Error(`unknown engine '${id}'; known: ${ENGINE_IDS.join(', ')}`);
  const ids = listed.filter((id) => !without.has(id));
  const engines = ids.map((id) => ENGINES[id]);
  for (const e of engines) requireInstalled(e);
  // Two at a time by default: each engine runs the suite on one thread, and browsers add a few busy processes.
  const jobs = Number(values.jobs ?? Math.max(1, Math.min(2, availableParallelism())));
  // Per engine, for the whole suite: 150-190 s on an idle run here before scrypt and age, whose tests add about
  // 130 s in Node, and 300 s and more (Deno, Bun, WebKitGTK) when two engines share the two cores with other
  // jobs; a limit that close turned a loaded run into failures.
  const timeoutMs = Number(values.timeout ?? 900) * 1000;
  const seed = values.seed ?? process.env.FOURFOLD_TEST_SEED ?? Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  // --files=blake3/,serpent: only the test files whose path contains one of these.
  const only = values.files?.split(',').map((s) => s.trim());
  const selectedBy = (f: string) => only === undefined || only.some((part) => f.includes(part));
  checkTables(testFiles());
  const files = testFiles().filter(selectedBy);
  const pages = pageFiles().filter(selectedBy);
  const t0 = Date.now();
  console.log(
    `# engines: ${ids.join(', ')}${without.size ? ` (not ${[...without.keys()].join(', ')}: see the summary)` : ''}; ${files.length} test files, ${pages.length} browser pages; ${jobs} at a time; replay with FOURFOLD_TEST_SEED=${seed}`,
  );

  mkdirSync(CACHE, { recursive: true });
  // One bundle per target and set of files: engines that run the same files share it.
  const bundles = new Map<string, SuiteBundle>();
  const bundleOf = new Map<EngineId, SuiteBundle>();
  const targetOf = (e: Engine): Target => (e.kind === 'script' ? 'script' : e.kind);
  for (const engine of engines.filter((e) => !runsNodeTest(e))) {
    const target = targetOf(engine);
    const included = files.filter((f) => notRun(engine, f) === undefined);
    const key = `${target}\n${included.join('\n')}`;
    if (!bundles.has(key)) {
      const outdir = join(CACHE, 'build', [...bundles.keys()].some((k) => k.startsWith(`${target}\n`)) ? `${target}-${engine.id}` : target);
      // (With --files naming browser pages only, there may be no test file to bundle.)
      bundles.set(key, included.length ? await bundleTestSuite({ target, outdir, files: included, seed }) : { entry: '', files: [] });
    }
    bundleOf.set(engine.id, bundles.get(key)!);
  }
  const pageBundles: SuiteBundle[] = [];
  if (engines.some((e) => e.kind === 'browser')) {
    for (const file of pages) pageBundles.push(await bundlePage({ file, outdir: join(CACHE, 'build', 'pages', basename(file, '.page.ts')), seed }));
  }
  console.log(`# bundled in ${Date.now() - t0} ms`);

  const tasks = engines.map((engine) => async () => {
    const startedAtS = Math.round((Date.now() - t0) / 1000);
    console.log(`[${engine.id}] started at +${startedAtS} s (load average ${loadavg()[0]!.toFixed(2)})`);
    // Engines that only interpret (no JIT) get more time.
    const limit = timeoutMs * (engine.slow ?? 1);
    const o = runsNodeTest(engine)
      ? await runNodeTests(engine, files, seed, limit)
      : await runBundledTests(engine, bundleOf.get(engine.id)!, pageBundles, files, seed, limit);
    if (o.wasm !== undefined && o.wasm !== engine.wasm) {
      o.problems.push(
        `the engine's WebAssembly is '${o.wasm}' where engines.ts lists '${engine.wasm}' (simd: with SIMD; no-simd: without; none: no WebAssembly)`,
      );
    }
    if (o.results.length === 0 && o.problems.length === 0) o.problems.push('no test ran');
    o.startedAtS = startedAtS;
    o.loadAtEnd = Math.round(loadavg()[0]! * 100) / 100;
    o.files.sort((a, b) => b.ms - a.ms);
    console.log(
      `[${engine.id}] ${count(o, 'pass')} passed, ${count(o, 'fail')} failed, ${count(o, 'skip')} skipped in ${(o.ms / 1000).toFixed(1)} s (load average ${o.loadAtEnd.toFixed(2)})${o.problems.length ? ' (problems below)' : ''}`,
    );
    return o;
  });
  // The interpreters first, then the table's order: among the longest runs, they would leave the
  // other slot idle at the end if started last. (Two at a time keep two cores busy: one browser's
  // run alone keeps 1.2 of them busy, a script engine's one and more.)
  const start = engines.map((_, i) => i).sort((a, b) => (engines[b]!.slow ?? 1) - (engines[a]!.slow ?? 1));
  const outcomes = await pool(tasks, jobs, start);

  writeFileSync(join(CACHE, 'report.json'), JSON.stringify({ seed, outcomes }, null, 1));
  return printSummary(outcomes, without, seed, t0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
