/**
 * A made-up page result, complete as check.ts wants it, for the page's
 * unit tests: every op of a mode at every size with both of fourfold's
 * tiers and the peers that have it, scrypt's and age's shapes with fourfold/parallel
 * too, Argon2id's with fourfold/parallel at four lanes, and the all-cores points.
 */
import { PARALLEL, sharedWorkerColumn, workerColumn } from '../../bench/core/libraries.js';
import { megabytesPerSecond } from '../../bench/core/stats.js';
import type { Environment, Report } from '../../bench/report/json.js';
import { scalingPoints } from '../../bench/report/scaling.js';
import type { CaseSummary } from '../../bench/report/summary.js';
import {
  argon2Pooled,
  argon2Shapes,
  oneCoreConfig,
  opsOf,
  REFERENCE_OPS,
  SCALING_OPS,
  SCALING_SIZE,
  largeConfig,
  scryptShapes,
  ageShapes,
  SIZES,
  threadCounts,
  type Mode,
} from '../app/plan.js';
import { pageReport } from '../app/results.js';
import { PEERS_OF } from './check.js';

export function environment(overrides: Partial<Environment> = {}): Environment {
  return {
    browser: 'Chrome 131.0',
    engine: 'V8',
    os: 'Linux',
    cores: 4,
    webAssembly: true,
    simd: true,
    workers: true,
    sharedMemory: true,
    crossOriginIsolated: true,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ...overrides,
  };
}

function timed(op: string, size: number, library: string, ns: number, checkedBy: string | undefined): CaseSummary {
  const mbps = megabytesPerSecond(size, ns);
  return {
    part: 'sizes',
    op,
    library,
    size,
    offset: 0,
    keys: 1,
    callsPerSample: 1,
    nsPerCall: [ns * 0.9, ns, ns * 1.1],
    ns: { q1: ns * 0.95, median: ns, q3: ns * 1.05 },
    mbps: { q1: mbps * 0.95, median: mbps, q3: mbps * 1.05 },
    ...(checkedBy === undefined ? {} : { checkedBy }),
  };
}

export function completeReport(mode: Mode, env: Environment = environment()): Report {
  const cases: CaseSummary[] = [];
  for (const op of opsOf(mode)) {
    const peers = PEERS_OF[op]!;
    for (const size of SIZES) {
      if (!REFERENCE_OPS.includes(op)) {
        cases.push(timed(op, size, 'fourfold', size * 1, peers[0]), timed(op, size, 'fourfold-js', size * 4, peers[0]));
      }
      for (const peer of peers) cases.push(timed(op, size, peer, size * 2, peers[0]));
    }
  }
  for (const [op, size] of [...scryptShapes(mode), ...ageShapes(mode)]) {
    const peers = PEERS_OF[op]!;
    const ms = (size / (1 << 20)) * 2e6;
    cases.push(timed(op, size, 'fourfold', ms, peers[0]), timed(op, size, 'fourfold-js', 2 * ms, peers[0]), timed(op, size, PARALLEL, ms / 2, peers[0]));
    for (const peer of peers) cases.push(timed(op, size, peer, 1.5 * ms, peers[0]));
  }
  for (const [op, size] of argon2Shapes(mode)) {
    const peers = PEERS_OF[op]!;
    const ms = (size / (1 << 20)) * 3e6;
    cases.push(timed(op, size, 'fourfold', ms, peers[0]), timed(op, size, 'fourfold-js', 2 * ms, peers[0]));
    if (argon2Pooled(op)) cases.push(timed(op, size, PARALLEL, ms / 2, peers[0]));
    for (const peer of peers) cases.push(timed(op, size, peer, 1.5 * ms, peers[0]));
  }
  const threads = threadCounts(env.cores);
  for (const op of SCALING_OPS) {
    cases.push(timed(op, SCALING_SIZE, 'fourfold', 64e6, 'fourfold'), timed(op, SCALING_SIZE, 'fourfold (output)', 60e6, 'fourfold'));
    for (const n of threads) {
      cases.push(timed(op, SCALING_SIZE, workerColumn(n - 1), 64e6 / n, 'fourfold'));
      if (env.sharedMemory) cases.push(timed(op, SCALING_SIZE, sharedWorkerColumn(n - 1), 60e6 / n, 'fourfold'));
    }
  }
  const names = [...new Set(cases.map((c) => c.library))];
  const report = pageReport({
    started: new Date('2026-01-02T03:04:05Z'),
    seconds: 61,
    status: 'complete',
    mode,
    environment: env,
    address: 'https://example.org/bench/',
    oneCore: { result: undefined, config: oneCoreConfig(mode, { fourfold: '0.1.0' }) },
    allCores: { threads, pool: { workers: threads.at(-1)! - 1, ready: threads.at(-1)! - 1, jobs: 100, shared: env.sharedMemory } },
    large: { result: undefined, config: largeConfig(mode, true, { fourfold: '0.1.0' }) },
    notices: [],
  });
  const engine = {
    engine: { id: 'chrome', runtime: 'browser', version: 'Chrome/131.0', details: {} },
    timer: { granularityNs: 5000, crossOriginIsolated: env.crossOriginIsolated },
    libraries: names.map((name) => ({ name, version: name.startsWith('fourfold') ? 'fourfold 0.1.0 (simd)' : `${name} 1.0` })),
    started: '2026-01-02T03:04:05.000Z',
    sweepStep: 1,
    warnings: [],
    seconds: 61,
    cases,
    sweeps: [],
  };
  return { ...report, engines: [engine], page: { ...report.page!, scaling: { ...report.page!.scaling, points: scalingPoints(engine) } } };
}
