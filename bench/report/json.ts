/** results.json: the whole run, every sample, and the figures derived from them. */
import type { BenchConfig, EngineResult } from '../core/types.js';
import type { CodeSizeResult } from '../node/code-size.js';
import type { Machine } from '../node/machine.js';
import type { SetupResult } from '../node/setup.js';
import { summarizeCase, summarizeSweep, type CaseSummary, type SweepSummary } from './summary.js';

export interface EngineReport extends Omit<EngineResult, 'cases' | 'sweeps'> {
  readonly cases: CaseSummary[];
  readonly sweeps: SweepSummary[];
}

/**
 * 'complete'; 'running' while the run goes (the file is rewritten as it
 * does: a run killed outright leaves it so); 'interrupted' by Ctrl-C.
 */
export type RunStatus = 'complete' | 'running' | 'interrupted';

export interface Report {
  readonly schema: 'fourfold-bench/3';
  readonly date: string;
  readonly durationSeconds: number;
  readonly status: RunStatus;
  readonly machine: Machine;
  readonly runner: { readonly node: string; readonly argv: readonly string[] };
  /** The profile the run started from (node/options.ts): 'default', 'quick' or 'full'. */
  readonly profile: string;
  readonly settings: BenchConfig & { readonly megabyte: number };
  readonly engines: EngineReport[];
  readonly setup?: SetupResult;
  readonly codeSize?: CodeSizeResult;
  readonly warnings: readonly string[];
}

export function buildReport(run: {
  started: Date;
  seconds: number;
  status: RunStatus;
  machine: Machine;
  argv: readonly string[];
  profile: string;
  config: BenchConfig;
  engines: readonly EngineResult[];
  setup?: SetupResult;
  codeSize?: CodeSizeResult;
  warnings: readonly string[];
}): Report {
  return {
    schema: 'fourfold-bench/3',
    date: run.started.toISOString(),
    durationSeconds: Math.round(run.seconds * 10) / 10,
    status: run.status,
    machine: run.machine,
    runner: { node: process.version, argv: run.argv },
    profile: run.profile,
    settings: { ...run.config, megabyte: 1e6 },
    engines: run.engines.map((e) => ({ ...e, cases: e.cases.map(summarizeCase).map(roundCase), sweeps: e.sweeps.map(summarizeSweep).map(roundSweep) })),
    setup: run.setup,
    codeSize: run.codeSize,
    warnings: run.warnings,
  };
}

/** A results.json read back; one of schema 2 (before profiles, whose default run is --full today) gets a status and a profile. */
export function parseReport(text: string): Report {
  const report = JSON.parse(text) as Report & { quick?: boolean };
  if (report.schema === 'fourfold-bench/3') return report;
  return { ...report, status: 'complete', profile: report.quick === true ? 'quick' : 'full' };
}

/** A short name for an engine: 'node 20.20.2', 'chromium (Chrome/131.0)'. */
export function engineLabel(e: EngineResult): string {
  return e.engine.runtime === 'browser' ? `${e.engine.id ?? 'browser'} (${e.engine.version})` : `${e.engine.runtime} ${e.engine.version}`;
}

// Samples are rounded (0.1 ns for cases, 1 ns for the sweep's short
// samples), far below what the clock resolves: results.json holds every
// sample of the sweep, and full-precision doubles would triple its size.
const tenth = (ns: number) => Math.round(ns * 10) / 10;

function roundCase(c: CaseSummary): CaseSummary {
  return { ...c, nsPerCall: c.nsPerCall.map(tenth) };
}

function roundSweep(s: SweepSummary): SweepSummary {
  return { ...s, nsPerCall: s.nsPerCall.map((samples) => samples.map(Math.round)), medianNs: s.medianNs.map((ns) => (ns === null ? null : tenth(ns))) };
}
