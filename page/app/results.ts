/**
 * The page's results as `npm run bench` writes them (results.json, schema
 * fourfold-bench/3): the parts joined into one engine's result, the
 * device as a web page sees it for the machine, and the page's own
 * account (mode, environment, the all-cores part, its notices).
 */
import type { BenchConfig, CaseResult, EngineResult, PoolState } from '../../bench/core/types.js';
import { buildReport, type Environment, type PageRun, type Report, type RunStatus } from '../../bench/report/json.js';
import type { Machine } from '../../bench/node/machine.js';
import type { ScalingPoint } from '../../bench/report/json.js';
import type { Notice } from './environment.js';
import { PEER_PACKAGES, type Mode } from './plan.js';

/** The one-core result and the other parts' (all cores, scrypt, Argon2id and age) as one engine's: the cases, libraries and warnings of all. */
export function joinParts(oneCore: EngineResult, ...others: (EngineResult | undefined)[]): EngineResult {
  const parts = [oneCore, ...others.filter((part): part is EngineResult => part !== undefined)];
  const libraries: EngineResult['libraries'][number][] = [];
  for (const library of parts.flatMap((part) => part.libraries)) if (!libraries.some((l) => l.name === library.name)) libraries.push(library);
  return {
    ...oneCore,
    libraries,
    cases: parts.flatMap((part) => part.cases),
    warnings: parts.flatMap((part) => part.warnings),
    seconds: parts.reduce((sum, part) => sum + part.seconds, 0),
    ...(parts.some((part) => part.interrupted === true) ? { interrupted: true } : {}),
    ...(parts.every((part) => part.sink !== undefined) ? { sink: parts.reduce((x, part) => x ^ part.sink!, 0) } : {}),
  };
}

/**
 * Several runs of the core as one result: their cases, with the cases a
 * column had in more than one run (the synchronous function, timed in
 * every thread count's case of the all-cores part) pooled into one, its
 * samples joined; the libraries of all; the warnings of all.
 */
export function joinRuns(runs: readonly EngineResult[]): EngineResult {
  const first = runs[0]!;
  const cases = new Map<string, CaseResult>();
  for (const c of runs.flatMap((r) => r.cases)) {
    const key = `${c.part} ${c.op} ${c.library} ${c.size} ${c.offset} ${c.keys}`;
    const seen = cases.get(key);
    // A timed case pools with a timed one; a capped or failed one gives way to a timed one.
    if (seen === undefined || seen.nsPerCall.length === 0) cases.set(key, c);
    else if (c.nsPerCall.length > 0)
      cases.set(key, { ...seen, callsPerSample: Math.max(seen.callsPerSample, c.callsPerSample), nsPerCall: [...seen.nsPerCall, ...c.nsPerCall] });
  }
  const libraries = [...new Map(runs.flatMap((r) => r.libraries).map((l) => [l.name, l])).values()];
  return {
    ...first,
    libraries,
    cases: [...cases.values()],
    warnings: [...new Set(runs.flatMap((r) => r.warnings))],
    seconds: runs.reduce((sum, r) => sum + r.seconds, 0),
    ...(runs.some((r) => r.interrupted === true) ? { interrupted: true } : {}),
    ...(runs.every((r) => r.sink !== undefined) ? { sink: runs.reduce((x, r) => x ^ r.sink!, 0) } : {}),
  };
}

/** A short id for the engine column of the report: 'chrome', 'firefox', 'safari'... */
export function browserId(env: Environment): string {
  return env.browser
    .replace(/ [\d.]+$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The machine as a page sees it: no CPU name and no load average; the OS and cores the browser reports. */
export function pageMachine(env: Environment): Machine {
  return {
    cpu: '',
    cores: env.cores,
    platform: env.os,
    arch: env.architecture ?? '',
    osRelease: env.model ?? '',
    memoryBytes: env.memoryGiB === undefined ? 0 : env.memoryGiB * 2 ** 30,
    loadAverage: { start: [] },
  };
}

/** The first sentence of a reason, at most about 160 characters. */
function brief(reason: string): string {
  const sentence = reason.split(/(?<=\.) /)[0]!.replace(/\.$/, '');
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence;
}

/**
 * What a run found that the browser's own account did not say: a peer
 * that did not load (from the core's warnings), fourfold without its simd
 * tier in a browser that has SIMD (WebAssembly refused by the page's
 * Content-Security-Policy), no WebCrypto (not a secure context).
 */
export function runNotices(result: EngineResult | undefined, env: Environment): Notice[] {
  if (result === undefined) return [];
  const out: Notice[] = [];
  if (env.simd && !result.libraries.some((l) => l.name === 'fourfold') && result.libraries.some((l) => l.name === 'fourfold-js')) {
    out.push({
      level: 'warn',
      text:
        "This browser has WebAssembly SIMD, but fourfold could not compile its kernels here and runs its js tier, so the figures are that tier's: " +
        "most likely the page's Content-Security-Policy forbids compiling WebAssembly (it needs 'wasm-unsafe-eval' in script-src).",
    });
  }
  for (const warning of result.warnings) {
    const match = /^(.+?): (?:cannot load \((.*)\)|(.*)); its columns are skipped/.exec(warning);
    if (match === null) continue;
    const name = match[1]!.replace(/ [\d.]+$/, '');
    const alone = /secretstream/.test(warning) ? ' secretstream is not timed, as only libsodium checks its bytes.' : '';
    out.push({ level: 'warn', text: `A peer did not load, so its columns are empty: ${name} (${brief(match[2] ?? match[3] ?? '')}).${alone}` });
  }
  if (!result.libraries.some((l) => l.name === 'webcrypto')) {
    out.push({
      level: 'info',
      text: `${PEER_PACKAGES.webcrypto} is not available here (browsers offer it only to pages served over HTTPS or from localhost), so the reference line is @noble's alone.`,
    });
  }
  return out;
}

export interface Finished {
  readonly started: Date;
  readonly seconds: number;
  readonly status: RunStatus;
  readonly mode: Mode;
  readonly environment: Environment;
  readonly address: string;
  /** The one-core part's configuration (the report's settings), and what it measured (nothing yet, if stopped before its first result). */
  readonly oneCore: { readonly result: EngineResult | undefined; readonly config: BenchConfig };
  readonly allCores: {
    readonly result?: EngineResult;
    readonly config?: BenchConfig;
    readonly threads: readonly number[];
    readonly pool?: PoolState;
    readonly points?: readonly ScalingPoint[];
    readonly error?: string;
  };
  /** The large calls' part's (scrypt's and age's) configuration, and what it measured (nothing before it ran). */
  readonly large?: { readonly result: EngineResult | undefined; readonly config: BenchConfig };
  readonly notices: readonly Notice[];
}

/** The results object: what "Download results" saves and `window.benchResults` holds. */
export function pageReport(run: Finished): Report {
  const engine = run.oneCore.result === undefined ? undefined : joinParts(run.oneCore.result, run.allCores.result, run.large?.result);
  const engines = engine === undefined ? [] : [{ ...engine, engine: { ...engine.engine, id: browserId(run.environment) } }];
  const page: PageRun = {
    mode: run.mode,
    environment: run.environment,
    scaling: {
      ...(run.allCores.config === undefined ? {} : { config: run.allCores.config }),
      threads: run.allCores.threads,
      ...(run.allCores.pool === undefined ? {} : { pool: run.allCores.pool }),
      ...(run.allCores.points === undefined ? {} : { points: run.allCores.points }),
      ...(run.allCores.error === undefined ? {} : { error: run.allCores.error }),
    },
    ...(run.large?.result === undefined ? {} : { large: { config: run.large.config } }),
    notices: run.notices.map((n) => n.text),
  };
  const report = buildReport({
    started: run.started,
    seconds: run.seconds,
    status: run.status,
    machine: pageMachine(run.environment),
    runner: { page: run.address, argv: [] },
    profile: `page-${run.mode}`,
    config: run.oneCore.config,
    engines,
    warnings: engines.flatMap((e) => e.warnings.map((w) => `${e.engine.id}: ${w}`)),
  });
  return { ...report, page };
}
