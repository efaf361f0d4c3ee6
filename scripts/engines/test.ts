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
 * reported as skipped, with the reason). Node engines (also node
 * --jitless) run them as `npm test` does
 * (node --test, tsx). Every other engine runs the bundles of bundle.ts
 * through runInEngine; shells (Hermes) and workerd one process per test file.
 * Browsers then run each page test (test/pages/*.page.ts) in a fresh page
 * of its own, served with the headers PAGE_HEADERS gives it.
 * Prints one line per engine and the failures, writes every result to
 * .engines/report.json, and exits 1 if any engine failed a test, could not
 * run, or did not have the WebAssembly it is listed with (engines.ts: SIMD,
 * WebAssembly without SIMD, none): a js-only run where SIMD was expected is
 * a failure, not a skip, and so is WebAssembly where none was expected.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundlePage, bundleTestSuite, pageFiles, testFiles, type SuiteBundle, type Target } from './bundle.js';
import { CACHE, ENGINES, ENGINE_IDS, ROOT, requireInstalled, runsNodeTest, versionOf, type Engine, type EngineId, type Wasm } from './engines.js';
import { runInEngine, type RunResult } from './run.js';
import { launchUntilStarted, START_MS, type LaunchLimits } from './launches.js';
import { checkTables, notRun } from './files.js';
import { scriptEnv } from './drivers/script.js';
import { spawnGroup } from './drivers/process.js';
import type { SuiteReport } from './harness/suite-entry.js';
import { SIMD_PROBE } from './harness/simd.js';
import type { TestResult } from './harness/node-test.js';

const REPORTER = fileURLToPath(new URL('./harness/node-reporter.mjs', import.meta.url));

/** Response headers of a page test's page (all others get none beyond the server's own). */
const PAGE_HEADERS: Record<string, Record<string, string>> = {
  // No 'wasm-unsafe-eval' (nor 'unsafe-eval'): browsers refuse to compile or instantiate WebAssembly.
  'test/pages/csp.page.ts': { 'content-security-policy': "script-src 'self'" },
};

interface FileTime {
  file: string;
  ms: number;
}

interface EngineOutcome {
  engine: EngineId;
  /** Name and version from the engine's packaging (engines.ts versionOf). */
  version: string;
  /** How the engine described itself from inside the run (user agent...), where it did. */
  runtime: string;
  /** The engine's WebAssembly as it reported it (undefined if it never did). */
  wasm: Wasm | undefined;
  ms: number;
  /** Seconds after the matrix started that this engine started, and the load average (1 minute) when it ended. */
  startedAtS: number;
  loadAtEnd: number;
  /** Each test file's (or page's) wall time in this engine, slowest first. */
  files: FileTime[];
  results: (TestResult & { file: string })[];
  /** The engine could not run the suite, or broke the rules (SIMD expectation). */
  problems: string[];
  log: string[];
}

function newOutcome(engine: Engine): EngineOutcome {
  return {
    engine: engine.id,
    version: versionOf(engine),
    runtime: '',
    wasm: undefined,
    ms: 0,
    startedAtS: 0,
    loadAtEnd: 0,
    files: [],
    results: [],
    problems: [],
    log: [],
  };
}

/** Reports each of `selected` that `engine` does not run as a skip, with the reason files.ts gives. */
function skipNotRun(outcome: EngineOutcome, engine: Engine, selected: string[]): void {
  for (const file of selected) {
    const reason = notRun(engine, file);
    if (reason !== undefined) outcome.results.push({ file, name: '(whole file)', status: 'skip', ms: 0, reason });
  }
}

// ------------------------------------------------------------------ Node: the test files as npm test runs them

/** Asks the Node binary itself (with the engine's options), as harness/simd.ts's engineWasm() does in the other engines. */
function nodeWasm(engine: Engine): Wasm {
  const probe = `console.log(typeof WebAssembly !== 'object' ? 'none' : WebAssembly.validate(new Uint8Array([${SIMD_PROBE.join(',')}])) ? 'simd' : 'no-simd')`;
  return execFileSync(engine.binary, [...(engine.args ?? []), '-e', probe], { encoding: 'utf8' }).trim() as Wasm;
}

async function runNodeTests(engine: Engine, selected: string[], seed: string, timeoutMs: number): Promise<EngineOutcome> {
  const t0 = Date.now();
  const out = join(CACHE, `node-results-${engine.id}.jsonl`);
  rmSync(out, { force: true });
  const log: string[] = [];
  const files = selected.filter((f) => notRun(engine, f) === undefined);
  const group = spawnGroup(
    engine.binary,
    // The engine's options (--jitless) reach the test files: node --test passes its own to each file's process.
    [...(engine.args ?? []), '--import', 'tsx', '--test', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${out}`, ...files],
    (l) => log.push(l),
    scriptEnv({ FOURFOLD_TEST_SEED: seed }),
  );
  const outcome: EngineOutcome = { ...newOutcome(engine), wasm: nodeWasm(engine), log };
  skipNotRun(outcome, engine, selected);
  let timer: NodeJS.Timeout | undefined;
  const finished = new Promise<number | null>((resolve) => group.child.once('exit', (exitCode) => resolve(exitCode)));
  const code = await Promise.race([finished, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)))]);
  clearTimeout(timer);
  await group.kill(1000);
  if (code === 'timeout') outcome.problems.push(`timed out after ${timeoutMs} ms`);
  if (existsSync(out)) {
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line) as (TestResult & { file: string }) | { file: string; fileMs: number };
      const file = r.file ? relative(ROOT, r.file) : '';
      if ('fileMs' in r) outcome.files.push({ file, ms: r.fileMs });
      else outcome.results.push({ ...r, file });
    }
  }
  if (code !== 'timeout' && code !== 0 && !outcome.results.some((r) => r.status === 'fail')) {
    // Which files it never finished says where to look (the reporter names a file once it ends).
    const ended = new Set(outcome.files.map((f) => f.file));
    const unfinished = files.filter((f) => !ended.has(f));
    const named =
      unfinished.length > 0
        ? `; files not finished: ${unfinished.slice(0, 5).join(', ')}${unfinished.length > 5 ? ` and ${unfinished.length - 5} more` : ''}`
        : '';
    outcome.problems.push(`node --test exited with code ${code} without a failing test${named}`);
  }
  outcome.ms = Date.now() - t0;
  return outcome;
}

// ------------------------------------------------------------------ everything else: bundles through runInEngine

/**
 * One run of the suite bundle within `timeoutMs`; a launch that never
 * started the suite (no progress at all: a timeout, a dead engine, or for
 * a browser none within START_MS of the launch) is launched again at once,
 * up to three launches (launches.ts). WPE's cog once stayed at "Load
 * started" for a whole 900 s limit beside a WebKitGTK run, and passed in
 * 16 s on each of six reruns: a launch failure, not a test's. Script
 * engines, shells and workerd have no start limit (a process that has not
 * failed is left to load: the ARM64 ones under qemu take long to).
 */
async function runSuiteBundle(
  engine: Engine,
  entry: string,
  label: string,
  seed: string,
  timeoutMs: number,
  headers?: Record<string, string>,
): Promise<RunResult> {
  // FOURFOLD_TEST_EMULATED: the tests leave what emulation makes minutes long to the x86-64 engines (test/helpers.ts EMULATED).
  const env = { FOURFOLD_TEST_SEED: seed, ...(engine.emulator && { FOURFOLD_TEST_EMULATED: basename(engine.emulator[0]!) }) };
  const launch = (limits: LaunchLimits) =>
    runInEngine(engine.id, { entry, headers, env, timeoutMs: limits.timeoutMs, startMs: limits.startMs, onProgress: limits.started });
  return launchUntilStarted(launch, {
    timeoutMs,
    startMs: engine.kind === 'browser' ? START_MS : undefined,
    say: (line) => console.log(`[${engine.id}] ${label}: ${line}`),
  });
}

/**
 * Adds one run's results (a suite, a page, or a shell's single file) to
 * `outcome`. A run of one file (shells, pages) counts whole, its launch
 * included; in a suite, each file's own time.
 */
function collect(outcome: EngineOutcome, r: RunResult, label: string, oneFile: boolean): void {
  outcome.ms += r.ms;
  if (oneFile) outcome.files.push({ file: label, ms: r.ms });
  outcome.log.push(...r.log.map((l) => `${label}: ${l}`));
  if (!r.ok) {
    outcome.problems.push(`${label}: ${r.error ?? 'no result'}`);
    return;
  }
  const report = r.value as SuiteReport;
  outcome.runtime ||= report.runtime;
  outcome.wasm ??= report.wasm;
  for (const f of report.files) {
    if (!oneFile) outcome.files.push({ file: f.file, ms: f.ms });
    if (f.loadError) outcome.problems.push(`${f.file} did not load: ${f.loadError}`);
    for (const t of f.results) outcome.results.push({ ...t, file: f.file });
  }
}

async function runBundledTests(
  engine: Engine,
  bundle: SuiteBundle,
  pages: SuiteBundle[],
  selected: string[],
  seed: string,
  timeoutMs: number,
): Promise<EngineOutcome> {
  const t0 = Date.now();
  const outcome = newOutcome(engine);
  skipNotRun(outcome, engine, selected);
  // The whole suite at once, or (shells) one process per test file, or (browsers) a page per part, in turn, within the engine's time limit.
  const runs = bundle.perFile ?? bundle.parts ?? (bundle.files.length > 0 ? [{ file: 'suite', entry: bundle.entry }] : []);
  for (const { file, entry } of runs) {
    const left = timeoutMs - (Date.now() - t0);
    if (left > 0) collect(outcome, await runSuiteBundle(engine, entry, file, seed, left), file, bundle.perFile !== undefined);
    else outcome.problems.push(`${file}: not run: the ${timeoutMs} ms limit was reached`);
  }
  if (engine.kind === 'browser') {
    for (const page of pages) {
      collect(outcome, await runSuiteBundle(engine, page.entry, page.files[0]!, seed, timeoutMs, PAGE_HEADERS[page.files[0]!]), page.files[0]!, true);
    }
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

/** The slowest files of each engine: where its time goes (all of them are in report.json). */
function printSlowest(outcomes: EngineOutcome[], n = 10): void {
  for (const o of outcomes) {
    if (o.files.length === 0) continue;
    const total = o.files.reduce((sum, f) => sum + f.ms, 0);
    console.log(`\n## ${o.engine}: the ${Math.min(n, o.files.length)} slowest of ${o.files.length} files (${(total / 1000).toFixed(1)} s in all)`);
    for (const f of o.files.slice(0, n)) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
  }
}

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

  // Summary table.
  const rows = outcomes.map((o) => {
    const e = ENGINES[o.engine];
    const failed = count(o, 'fail') > 0 || o.problems.length > 0;
    return [
      failed ? 'FAIL' : 'ok',
      o.engine,
      e.label,
      o.version,
      // Under emulation the tests run the simd tier alone (test/helpers.ts EMULATED).
      o.wasm === undefined ? '?' : o.wasm === 'simd' ? (e.emulator ? 'simd' : 'simd+js') : o.wasm === 'none' ? 'js (no wasm)' : 'js only',
      String(count(o, 'pass')),
      String(count(o, 'fail')),
      String(count(o, 'skip') + count(o, 'todo')),
      `${(o.ms / 1000).toFixed(1)} s`,
    ];
  });
  const header = ['', 'engine', 'family / host', 'version', 'tiers', 'pass', 'fail', 'skip', 'time'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 5 && i <= 8 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log('\n' + line(header));
  for (const r of rows) console.log(line(r));
  for (const [id, reason] of without) console.log(`(not run: ${id}, ${reason})`);

  printSlowest(outcomes);

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
  // Once more at the end, one line each: a CI log cut in its middle still names what failed.
  for (const o of bad) {
    for (const f of o.results.filter((r) => r.status === 'fail').slice(0, 5))
      console.log(`failed in ${o.engine}: ${f.file}: ${f.name}: ${firstLines(f.error ?? '', 1)}`);
    for (const p of o.problems.slice(0, 2)) console.log(`problem in ${o.engine}: ${firstLines(p, 1)}`);
  }
  console.log(
    `\n# ${outcomes.length - bad.length}/${outcomes.length} engines passed in ${((Date.now() - t0) / 1000).toFixed(1)} s; seed ${seed}; details in ${relative(ROOT, join(CACHE, 'report.json'))}`,
  );
  return bad.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
