/** results.json: the whole run, every sample, and the figures derived from them. */
import type { BenchConfig, EngineResult, PoolState } from '../core/types.js';
import type { CodeSizeResult } from '../node/code-size.js';
import type { Machine } from '../node/machine.js';
import { summarizeCase, summarizeSweep, type CaseSummary, type SweepSummary } from './summary.js';

/** One worker count's speedup at one size (scaling.ts computes them). */
export interface ScalingPoint {
  readonly op: string;
  /** Message bytes per call. */
  readonly size: number;
  readonly shared: boolean;
  /** The calling thread and the pool's workers. */
  readonly threads: number;
  readonly ns: number;
  /** The synchronous function's time over this one's: above 1, faster. */
  readonly speedup: number;
}

export interface EngineReport extends Omit<EngineResult, 'cases' | 'sweeps'> {
  readonly cases: CaseSummary[];
  readonly sweeps: SweepSummary[];
}

/**
 * 'complete'; 'running' while the run goes (the file is rewritten as it
 * does: a run killed outright leaves it so); 'interrupted' by Ctrl-C.
 */
export type RunStatus = 'complete' | 'running' | 'interrupted';

/** Who ran the engines: `npm run bench` (Node's version, its arguments) or the benchmark page (its address). */
export interface Runner {
  readonly node?: string;
  readonly page?: string;
  readonly argv: readonly string[];
}

/** What a browser says about itself and the device it runs on (page/app/environment.ts). */
export interface Environment {
  /** 'Chrome 131', 'Firefox 128', 'Safari 18.1'... */
  readonly browser: string;
  /** The JavaScript engine: V8, SpiderMonkey or JavaScriptCore. */
  readonly engine: string;
  /** 'Android 14', 'macOS', 'Windows', 'Linux'... as far as the browser tells. */
  readonly os: string;
  /** The device model, where the browser tells it (Android). */
  readonly model?: string;
  readonly architecture?: string;
  /** navigator.hardwareConcurrency: logical cores. */
  readonly cores: number;
  /** navigator.deviceMemory (GiB, rounded by the browser), where it exists. */
  readonly memoryGiB?: number;
  readonly webAssembly: boolean;
  readonly simd: boolean;
  readonly workers: boolean;
  /** SharedArrayBuffer and Atomics usable with workers. */
  readonly sharedMemory: boolean;
  readonly crossOriginIsolated: boolean;
  readonly userAgent: string;
}

/** What the benchmark page adds to its results. */
export interface PageRun {
  readonly mode: 'quick' | 'full';
  readonly environment: Environment;
  /** The all-cores part: its configuration, the thread counts it asked for, and the workers that started. */
  readonly scaling: {
    /** The configuration of the largest thread count's case (each count is a case of its own, and the others differ in the worker count only). */
    readonly config?: BenchConfig;
    /** Threads timed: the measuring thread and n - 1 pool workers. */
    readonly threads: readonly number[];
    /** The pool once its workers had started, before the part ran (it ends idle workers when its size is lowered). */
    readonly pool?: PoolState;
    /** The speedups, each from its thread count's own case (the cases in engines[] pool the synchronous function's samples over them). */
    readonly points?: readonly ScalingPoint[];
    readonly error?: string;
  };
  /** The large calls' part (scrypt and age): its configuration (the lanes' and files' sizes, its timing and cap), when it ran. */
  readonly large?: { readonly config: BenchConfig };
  /** The page's messages about this browser (no SIMD, not isolated, a peer that did not load...). */
  readonly notices: readonly string[];
}

export interface Report {
  readonly schema: 'fourfold-bench/3';
  readonly date: string;
  readonly durationSeconds: number;
  readonly status: RunStatus;
  readonly machine: Machine;
  readonly runner: Runner;
  /** The profile the run started from (node/options.ts): 'default', 'quick' or 'full'. */
  readonly profile: string;
  readonly settings: BenchConfig & { readonly megabyte: number };
  readonly engines: EngineReport[];
  readonly codeSize?: CodeSizeResult;
  readonly warnings: readonly string[];
  /** Set by the benchmark page (page/). */
  readonly page?: PageRun;
}

export function buildReport(run: {
  started: Date;
  seconds: number;
  status: RunStatus;
  machine: Machine;
  runner: Runner;
  profile: string;
  config: BenchConfig;
  engines: readonly EngineResult[];
  codeSize?: CodeSizeResult;
  warnings: readonly string[];
}): Report {
  return {
    schema: 'fourfold-bench/3',
    date: run.started.toISOString(),
    durationSeconds: Math.round(run.seconds * 10) / 10,
    status: run.status,
    machine: run.machine,
    runner: run.runner,
    profile: run.profile,
    settings: { ...run.config, megabyte: 1e6 },
    engines: run.engines.map((e) => ({ ...e, cases: e.cases.map(summarizeCase).map(roundCase), sweeps: e.sweeps.map(summarizeSweep).map(roundSweep) })),
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
