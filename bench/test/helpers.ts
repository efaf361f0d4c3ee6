/** What the harness's tests share: the profiles' configurations, a small run's, and results and reports made by hand. */
import type { BenchConfig, CaseResult, CaseTiming, EngineResult, SweepResult } from '../core/types.js';
import { parseOptions, type Options } from '../node/options.js';
import { buildReport, type RunStatus } from '../report/json.js';

/** The options of a command line that parses (throws otherwise). */
export const parse = (...argv: string[]): Options => parseOptions(argv) as Options;
export const quick = parse('--quick').config;

/** --quick's configuration for a test: 'sizes' only, three short samples, no cap, no profile's own sizes, under `config`. */
export function smallRun(config: Partial<BenchConfig>, sizes: Partial<CaseTiming> = {}): BenchConfig {
  const timing = { ...quick.timing, sizes: { warmupMs: 0, sampleMs: 0.2, samples: 3, minSamples: 3, budgetMs: 100, ...sizes } };
  return { ...quick, parts: ['sizes'], opSizes: undefined, capMs: 0, versions: {}, ...config, timing };
}

/** A 'sizes' case of `op` with three samples around `ns`. */
export const sizeCase = (library: string, size: number, ns: number, op = 'chacha20'): CaseResult => ({
  part: 'sizes',
  op,
  library,
  size,
  offset: 0,
  keys: 1,
  callsPerSample: 10,
  nsPerCall: [ns * 0.99, ns, ns * 1.01],
});

/** Node's result with these cases and sweeps, each library at version 1. */
export function engineResult(cases: CaseResult[], sweeps: SweepResult[] = [], interrupted?: boolean): EngineResult {
  const names = [...new Set([...cases, ...sweeps].map((c) => c.library))];
  return {
    engine: { id: 'node', runtime: 'node', version: '20.0.0', details: {} },
    timer: { granularityNs: 100 },
    libraries: names.map((name) => ({ name, version: '1' })),
    started: '2026-01-01T00:00:00.000Z',
    sweepStep: 1,
    warnings: [],
    seconds: 1,
    interrupted,
    cases,
    sweeps,
  };
}

/** The report of a default run with these engines, on a made-up 2-core machine. */
export function testReport(engines: EngineResult[], status: RunStatus = 'complete', config: Partial<BenchConfig> = {}) {
  return buildReport({
    started: new Date('2026-01-01T00:00:00Z'),
    seconds: 10,
    status,
    machine: { cpu: 'test cpu', cores: 2, platform: 'linux', arch: 'x64', osRelease: '6', memoryBytes: 1e9, loadAverage: { start: [0.5, 0.5, 0.5] } },
    runner: { node: process.version, argv: [] },
    profile: 'default',
    config: { ...parse().config, versions: {}, ...config },
    engines,
    warnings: [],
  });
}
