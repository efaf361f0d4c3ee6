/**
 * One engine's run of the test suite (test.ts runs the engines): Node
 * engines run the test files as `npm test` does (node --test, tsx, a
 * reporter writing each result); every other engine runs the bundles of
 * bundle.ts through runInEngine, a whole suite, a part of it or one file
 * per launch, and browsers then each page test in a page of its own,
 * served with the headers PAGE_HEADERS gives it. Either way, the results
 * come back as an EngineOutcome.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteBundle } from './bundle.js';
import { CACHE, ROOT, versionOf, type Engine, type EngineId, type Wasm } from './engines.js';
import { runInEngine, type RunResult } from './run.js';
import { launchUntilStarted, START_MS, type LaunchLimits } from './launches.js';
import { notRun } from './files.js';
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

export interface EngineOutcome {
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

export async function runNodeTests(engine: Engine, selected: string[], seed: string, timeoutMs: number): Promise<EngineOutcome> {
  const t0 = Date.now();
  const out = join(CACHE, `node-results-${engine.id}.jsonl`);
  rmSync(out, { force: true });
  const log: string[] = [];
  const files = selected.filter((f) => notRun(engine, f) === undefined);
  // With no file given, node --test runs every file its default patterns find (bundles, helpers): none to run is none run.
  if (files.length === 0) {
    const none: EngineOutcome = { ...newOutcome(engine), wasm: nodeWasm(engine), log };
    skipNotRun(none, engine, selected);
    none.ms = Date.now() - t0;
    return none;
  }
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

export async function runBundledTests(
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
