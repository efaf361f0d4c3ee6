/**
 * Turns measurements into the two outputs: Markdown tables for people
 * (stdout) and a JSON file with every sample for tools (later: charts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import os from 'node:os';
import type { Library, Measurement, Timing } from './harness.js';
import { megabytesPerSecond, quartiles } from './stats.js';

export interface Summary {
  readonly op: string;
  readonly size: number;
  readonly library: string;
  readonly error?: string;
  /** Nanoseconds per call. */
  readonly ns?: { q1: number; median: number; q3: number };
  /** MB/s; its q1 comes from the ns q3, as the slower samples give the lower throughput. */
  readonly mbps?: { q1: number; median: number; q3: number };
}

export function summarize(m: Measurement): Summary {
  if (m.error !== undefined || m.nsPerCall.length === 0) return { op: m.op, size: m.size, library: m.library, error: m.error ?? 'no samples' };
  const ns = quartiles(m.nsPerCall);
  return {
    op: m.op,
    size: m.size,
    library: m.library,
    ns,
    mbps: {
      q1: megabytesPerSecond(m.size, ns.q3),
      median: megabytesPerSecond(m.size, ns.median),
      q3: megabytesPerSecond(m.size, ns.q1),
    },
  };
}

export function formatSize(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} B`;
}

function formatRate(mbps: number): string {
  return mbps >= 100 ? mbps.toFixed(0) : mbps >= 10 ? mbps.toFixed(1) : mbps.toFixed(2);
}

function formatTime(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e4) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/**
 * One table per op: a row per size, a column per library with its median
 * MB/s and time per call, then fourfold's speed-up over each other library
 * (median over median; above 1 means fourfold is faster).
 */
export function markdown(summaries: readonly Summary[], libraries: readonly Library[]): string {
  const parts: string[] = [
    'Median throughput in MB/s (1 MB = 10^6 bytes), median time per call in parentheses; ' +
      '"fourfold vs X" is fourfold\'s throughput divided by X\'s.',
  ];
  const ops = [...new Set(summaries.map((s) => s.op))];
  for (const op of ops) {
    const ofOp = summaries.filter((s) => s.op === op);
    const names = libraries.map((l) => l.name).filter((name) => ofOp.some((s) => s.library === name));
    const sizes = [...new Set(ofOp.map((s) => s.size))];
    // Compare the simd tier with everyone; fall back to the js tier when
    // simd is not measured (no build, or an engine without SIMD).
    const primary = ['fourfold', 'fourfold-js'].find((name) => names.includes(name));
    const peers = primary === undefined ? [] : names.filter((name) => name !== primary);
    const find = (size: number, library: string) => ofOp.find((s) => s.size === size && s.library === library);

    const header = ['size', ...names, ...peers.map((peer) => `${primary} vs ${peer}`)];
    const rows = sizes.map((size) => {
      const own = primary === undefined ? undefined : find(size, primary)?.ns?.median;
      const cells = names.map((name) => {
        const s = find(size, name);
        if (s === undefined) return '—';
        if (s.error !== undefined) return 'error';
        return `${formatRate(s.mbps!.median)} (${formatTime(s.ns!.median)})`;
      });
      const ratios = peers.map((peer) => {
        const theirs = find(size, peer)?.ns?.median;
        return own === undefined || theirs === undefined ? '—' : `${(theirs / own).toFixed(2)}x`;
      });
      return [formatSize(size), ...cells, ...ratios];
    });
    const errors = ofOp.filter((s) => s.error !== undefined).map((s) => `- ${s.library} at ${formatSize(s.size)}: ${s.error}`);

    parts.push(
      [
        `### ${op}`,
        '',
        `| ${header.join(' | ')} |`,
        `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
        ...rows.map((row) => `| ${row.join(' | ')} |`),
        ...(errors.length > 0 ? ['', ...errors] : []),
      ].join('\n'),
    );
  }
  return parts.join('\n\n') + '\n';
}

export interface RunInfo {
  readonly libraries: readonly Library[];
  readonly timing: Timing;
  readonly selection: { ops?: readonly string[]; sizes: readonly number[]; libs?: readonly string[]; quick: boolean };
  readonly warnings: readonly string[];
  readonly started: Date;
  readonly seconds: number;
  readonly sink: number;
  /** os.loadavg() at the start and the end of the run: other load skews every number. */
  readonly load: { readonly start: number[]; readonly end: number[] };
}

export function writeJson(path: string, info: RunInfo, measurements: readonly Measurement[]): void {
  const cpus = os.cpus();
  const report = {
    date: info.started.toISOString(),
    durationSeconds: Math.round(info.seconds * 10) / 10,
    machine: {
      cpu: cpus[0]?.model ?? 'unknown',
      cores: cpus.length,
      platform: process.platform,
      arch: process.arch,
      osRelease: os.release(),
      memoryBytes: os.totalmem(),
      loadAverage: info.load,
    },
    engine: { runtime: 'node', version: process.version, v8: process.versions.v8 },
    libraries: info.libraries.map(({ name, version }) => ({ name, version })),
    settings: { ...info.selection, ...info.timing, megabyte: 1e6 },
    warnings: info.warnings,
    // Every output's first byte was folded into this; recorded so that no
    // result of a timed call is ever provably dead.
    sink: info.sink,
    results: measurements.map((m) => ({ ...summarize(m), callsPerSample: m.callsPerSample, nsPerCall: m.nsPerCall })),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
}
