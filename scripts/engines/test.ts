/**
 * npm run test:engines: the whole test suite (both tiers) in every engine.
 *
 *   npm run test:engines                                # all engines
 *   npm run test:engines -- --engines=firefox,webkit    # some
 *   npm run test:engines -- --jobs=1 --timeout=300 --seed=<hex>
 *   npm run test:engines -- --files=blake3/,serpent     # test files whose path contains one of these
 *
 * Node engines run the test files as `npm test` does (node --test, tsx).
 * Every other engine runs the bundles of bundle.ts through runInEngine.
 * Browsers then run each page test (test/pages/*.page.ts) in a fresh page
 * of its own, served with the headers PAGE_HEADERS gives it.
 * Prints one line per engine and the failures, writes every result to
 * .engines/report.json, and exits 1 if any engine failed a test, could not
 * run, or did not have the WebAssembly SIMD support it is listed with
 * (engines.ts): a js-only run where SIMD was expected is a failure, not a skip.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundlePage, bundleTestSuite, pageFiles, testFiles, type SuiteBundle, type Target } from './bundle.js';
import { CACHE, ENGINES, ENGINE_IDS, ROOT, requireInstalled, versionOf, type Engine, type EngineId } from './engines.js';
import { runInEngine, type RunResult } from './run.js';
import { scriptEnv } from './drivers/script.js';
import { spawnGroup } from './drivers/process.js';
import type { SuiteReport } from './harness/suite-entry.js';
import { SIMD_PROBE } from './harness/simd.js';
import type { TestResult } from './harness/node-test.js';

const REPORTER = fileURLToPath(new URL('./harness/node-reporter.mjs', import.meta.url));

/** Test files that cannot run in a browser, and why; reported there as skipped. */
const NOT_IN_BROWSERS: Record<string, string> = {
  'test/runtime.test.ts': 'not applicable in browsers: starts fresh processes of the runtime (node:child_process)',
  'test/cli/b3sum.test.ts': 'not applicable in browsers: runs the fourfold and b3sum commands (node:child_process)',
  'test/cli/fourfold.test.ts': 'not applicable in browsers: runs the fourfold command (node:child_process)',
};

/** Response headers of a page test's page (all others get none beyond the server's own). */
const PAGE_HEADERS: Record<string, Record<string, string>> = {
  // No 'wasm-unsafe-eval' (nor 'unsafe-eval'): browsers refuse to compile or instantiate WebAssembly.
  'test/pages/csp.page.ts': { 'content-security-policy': "script-src 'self'" },
};

interface EngineOutcome {
  engine: EngineId;
  /** Name and version from the engine's packaging (engines.ts versionOf). */
  version: string;
  /** How the engine described itself from inside the run (user agent...), where it did. */
  runtime: string;
  simd: boolean | undefined;
  ms: number;
  results: (TestResult & { file: string })[];
  /** The engine could not run the suite, or broke the rules (SIMD expectation). */
  problems: string[];
  log: string[];
}

// ------------------------------------------------------------------ Node: the test files as npm test runs them

/** Asks the Node binary itself, as the suite entry does in the other engines. */
function nodeHasSimd(engine: Engine): boolean {
  const probe = `WebAssembly.validate(new Uint8Array([${SIMD_PROBE.join(',')}]))`;
  return execFileSync(engine.binary, ['-p', probe], { encoding: 'utf8' }).trim() === 'true';
}

async function runNodeTests(engine: Engine, files: string[], seed: string, timeoutMs: number): Promise<EngineOutcome> {
  const t0 = Date.now();
  const out = join(CACHE, `node-results-${engine.id}.jsonl`);
  rmSync(out, { force: true });
  const log: string[] = [];
  const group = spawnGroup(
    engine.binary,
    ['--import', 'tsx', '--test', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${out}`, ...files],
    (l) => log.push(l),
    scriptEnv({ FOURFOLD_TEST_SEED: seed }),
  );
  const outcome: EngineOutcome = { engine: engine.id, version: versionOf(engine), runtime: '', simd: nodeHasSimd(engine), ms: 0, results: [], problems: [], log };
  let timer: NodeJS.Timeout | undefined;
  const finished = new Promise<number | null>((resolve) => group.child.once('exit', (code) => resolve(code)));
  const code = await Promise.race([finished, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)))]);
  clearTimeout(timer);
  await group.kill(1000);
  if (code === 'timeout') outcome.problems.push(`timed out after ${timeoutMs} ms`);
  if (existsSync(out)) {
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line) as TestResult & { file: string };
      outcome.results.push({ ...r, file: r.file ? relative(ROOT, r.file) : '' });
    }
  }
  if (code !== 'timeout' && code !== 0 && !outcome.results.some((r) => r.status === 'fail')) {
    outcome.problems.push(`node --test exited with code ${code} without a failing test`);
  }
  outcome.ms = Date.now() - t0;
  return outcome;
}

// ------------------------------------------------------------------ everything else: bundles through runInEngine

/**
 * One run of the suite bundle; a run whose page never started the suite (no
 * progress at all, then a timeout or a dead engine) is launched once more.
 * WPE's cog once stayed at "Load started" for the whole timeout beside a
 * WebKitGTK run, and passed in 16 s on each of six reruns: a launch
 * failure, not a test's.
 */
async function runSuiteBundle(engine: Engine, bundle: SuiteBundle, seed: string, timeoutMs: number, headers?: Record<string, string>): Promise<RunResult> {
  let started = false;
  const attempt = () => runInEngine(engine.id, { entry: bundle.entry, timeoutMs, headers, env: { FOURFOLD_TEST_SEED: seed }, onProgress: () => (started = true) });
  const first = await attempt();
  if (first.ok || started) return first;
  const second = await attempt();
  return { ...second, ms: first.ms + second.ms, log: [`first launch never started the suite (${first.error ?? 'no result'}); launched again`, ...first.log, ...second.log] };
}

/** Adds one run's results (a suite or a page) to `outcome`. */
function collect(outcome: EngineOutcome, r: RunResult, label: string): void {
  outcome.ms += r.ms;
  outcome.log.push(...r.log);
  if (!r.ok) {
    outcome.problems.push(`${label}: ${r.error ?? 'no result'}`);
    return;
  }
  const report = r.value as SuiteReport;
  outcome.runtime ||= report.runtime;
  outcome.simd ??= report.simd;
  for (const f of report.files) {
    if (f.loadError) outcome.problems.push(`${f.file} did not load: ${f.loadError}`);
    for (const t of f.results) outcome.results.push({ ...t, file: f.file });
  }
}

async function runBundledTests(engine: Engine, bundle: SuiteBundle, pages: SuiteBundle[], selected: string[], seed: string, timeoutMs: number): Promise<EngineOutcome> {
  const outcome: EngineOutcome = { engine: engine.id, version: versionOf(engine), runtime: '', simd: undefined, ms: 0, results: [], problems: [], log: [] };
  if (engine.kind === 'browser') {
    for (const [file, reason] of Object.entries(NOT_IN_BROWSERS)) if (selected.includes(file)) outcome.results.push({ file, name: '(whole file)', status: 'skip', ms: 0, reason });
  }
  if (bundle.files.length > 0) collect(outcome, await runSuiteBundle(engine, bundle, seed, timeoutMs), 'suite');
  if (engine.kind === 'browser') {
    for (const page of pages) collect(outcome, await runSuiteBundle(engine, page, seed, timeoutMs, PAGE_HEADERS[page.files[0]!]), page.files[0]!);
  }
  return outcome;
}

// ------------------------------------------------------------------ main

function count(o: EngineOutcome, status: TestResult['status']): number {
  return o.results.filter((r) => r.status === status).length;
}

function firstLines(s: string, n: number): string {
  return s.split('\n').slice(0, n).join('\n      ');
}

/** Runs `tasks` with at most `jobs` at a time, keeping their order in the output. */
async function pool<T>(tasks: (() => Promise<T>)[], jobs: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
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
    },
  });
  const ids = (values.engines ? values.engines.split(',').map((s) => s.trim()) : ENGINE_IDS) as EngineId[];
  for (const id of ids) if (!ENGINES[id]) throw new Error(`unknown engine '${id}'; known: ${ENGINE_IDS.join(', ')}`);
  const engines = ids.map((id) => ENGINES[id]);
  for (const e of engines) requireInstalled(e);
  // Two at a time by default: each engine runs the suite on one thread, and browsers add a few busy processes.
  const jobs = Number(values.jobs ?? Math.max(1, Math.min(2, availableParallelism())));
  const timeoutMs = Number(values.timeout ?? 300) * 1000;
  const seed = values.seed ?? process.env.FOURFOLD_TEST_SEED ?? Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  // --files=blake3/,serpent: only the test files whose path contains one of these.
  const only = values.files?.split(',').map((s) => s.trim());
  const selectedBy = (f: string) => only === undefined || only.some((part) => f.includes(part));
  const files = testFiles().filter(selectedBy);
  const pages = pageFiles().filter(selectedBy);
  const t0 = Date.now();
  console.log(`# engines: ${ids.join(', ')}; ${files.length} test files, ${pages.length} browser pages; ${jobs} at a time; replay with FOURFOLD_TEST_SEED=${seed}`);

  mkdirSync(CACHE, { recursive: true });
  const bundles: Partial<Record<Target, SuiteBundle>> = {};
  for (const target of ['script', 'browser'] as const) {
    const needed = engines.some((e) => e.id !== 'node' && e.id !== 'node-current' && (target === 'browser') === (e.kind === 'browser'));
    const included = target === 'browser' ? files.filter((f) => !NOT_IN_BROWSERS[f]) : files;
    // (With --files naming browser pages only, there may be no test file to bundle.)
    if (needed) bundles[target] = included.length ? await bundleTestSuite({ target, outdir: join(CACHE, 'build', target), files: included, seed }) : { entry: '', files: [] };
  }
  const pageBundles: SuiteBundle[] = [];
  if (engines.some((e) => e.kind === 'browser')) {
    for (const file of pages) pageBundles.push(await bundlePage({ file, outdir: join(CACHE, 'build', 'pages', basename(file, '.page.ts')), seed }));
  }
  console.log(`# bundled in ${Date.now() - t0} ms`);

  const tasks = engines.map((engine) => async () => {
    console.log(`[${engine.id}] started`);
    const o =
      engine.id === 'node' || engine.id === 'node-current'
        ? await runNodeTests(engine, files, seed, timeoutMs)
        : await runBundledTests(engine, bundles[engine.kind === 'browser' ? 'browser' : 'script']!, pageBundles, files, seed, timeoutMs);
    if (o.simd !== undefined && o.simd !== engine.simd) {
      o.problems.push(engine.simd ? 'WebAssembly SIMD was expected but the engine does not validate a SIMD module' : 'the engine runs WebAssembly SIMD; engines.ts lists it without');
    }
    if (o.results.length === 0 && o.problems.length === 0) o.problems.push('no test ran');
    console.log(`[${engine.id}] ${count(o, 'pass')} passed, ${count(o, 'fail')} failed, ${count(o, 'skip')} skipped in ${(o.ms / 1000).toFixed(1)} s${o.problems.length ? ' (problems below)' : ''}`);
    return o;
  });
  const outcomes = await pool(tasks, jobs);

  writeFileSync(join(CACHE, 'report.json'), JSON.stringify({ seed, outcomes }, null, 1));

  // Summary table.
  const rows = outcomes.map((o) => {
    const e = ENGINES[o.engine];
    const failed = count(o, 'fail') > 0 || o.problems.length > 0;
    return [failed ? 'FAIL' : 'ok', o.engine, e.label, o.version, o.simd === undefined ? '?' : o.simd ? 'simd+js' : 'js only', String(count(o, 'pass')), String(count(o, 'fail')), String(count(o, 'skip') + count(o, 'todo')), `${(o.ms / 1000).toFixed(1)} s`];
  });
  const header = ['', 'engine', 'family / host', 'version', 'tiers', 'pass', 'fail', 'skip', 'time'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 5 && i <= 8 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log('\n' + line(header));
  for (const r of rows) console.log(line(r));

  for (const o of outcomes) {
    const failures = o.results.filter((r) => r.status === 'fail');
    const skips = o.results.filter((r) => r.status === 'skip' || r.status === 'todo');
    if (!failures.length && !o.problems.length && !skips.length) continue;
    console.log(`\n## ${o.engine}`);
    for (const p of o.problems) console.log(`  problem: ${firstLines(p, 6)}`);
    for (const f of failures.slice(0, 15)) console.log(`  FAIL ${f.file}: ${f.name}\n      ${firstLines(f.error ?? '', 4)}`);
    if (failures.length > 15) console.log(`  ... and ${failures.length - 15} more failures (see .engines/report.json)`);
    // Group skips by reason: 'not applicable: no SIMD' should read as one line, not thirty.
    const reasons = new Map<string, number>();
    for (const s of skips) reasons.set(s.reason ?? '(no reason given)', (reasons.get(s.reason ?? '(no reason given)') ?? 0) + 1);
    for (const [reason, n] of reasons) console.log(`  skipped ${n}: ${reason}`);
    if ((failures.length || o.problems.length) && o.log.length) console.log(`  engine log (last lines):\n    ${o.log.slice(-12).join('\n    ')}`);
  }

  const bad = outcomes.filter((o) => count(o, 'fail') > 0 || o.problems.length > 0);
  console.log(`\n# ${outcomes.length - bad.length}/${outcomes.length} engines passed in ${((Date.now() - t0) / 1000).toFixed(1)} s; seed ${seed}; details in ${relative(ROOT, join(CACHE, 'report.json'))}`);
  return bad.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
