/**
 * Derived figures shared by the Markdown summary, the HTML report and
 * results.json: quartiles per case, medians and the overhead fit per
 * sweep, and which fourfold column each library is compared with.
 */
import { fitLine, megabytesPerSecond, median, quartiles, type Quartiles } from '../core/stats.js';
import type { CaseResult, SweepResult } from '../core/types.js';

export interface CaseSummary extends CaseResult {
  /** Nanoseconds per call. */
  readonly ns?: Quartiles;
  /** MB/s; its q1 comes from the ns q3, as the slower samples give the lower throughput. */
  readonly mbps?: Quartiles;
}

export interface SweepSummary extends SweepResult {
  /** Median ns per call at each length; null where the library failed. */
  readonly medianNs: (number | null)[];
  /**
   * Least-squares line through the medians: time = a + b * length, so `a`
   * is the per-call overhead (ns) and `b` the cost per byte (ns/byte).
   */
  readonly fit: { readonly a: number; readonly b: number };
}

export function summarizeCase(c: CaseResult): CaseSummary {
  if (c.error !== undefined || c.nsPerCall.length === 0) return c;
  const ns = quartiles(c.nsPerCall);
  return {
    ...c,
    ns,
    mbps: { q1: megabytesPerSecond(c.size, ns.q3), median: megabytesPerSecond(c.size, ns.median), q3: megabytesPerSecond(c.size, ns.q1) },
  };
}

export function summarizeSweep(s: SweepResult): SweepSummary {
  const medianNs = s.nsPerCall.map((samples) => (samples.length === 0 ? null : median(samples)));
  const xs: number[] = [];
  const ys: number[] = [];
  medianNs.forEach((ns, i) => {
    if (ns === null) return;
    xs.push(s.lengths[i]!);
    ys.push(ns);
  });
  return { ...s, medianNs, fit: fitLine(xs, ys) };
}

/** The fourfold column a library is compared with: like for like, an '(output)' call style with fourfold's. */
export function baselineOf(library: string, present: readonly string[]): string | undefined {
  const simd = present.includes('fourfold') ? 'fourfold' : present.includes('fourfold-js') ? 'fourfold-js' : undefined;
  if (library === simd) return undefined;
  if (library.endsWith(' (output)') && library !== 'fourfold (output)' && present.includes('fourfold (output)')) return 'fourfold (output)';
  return simd;
}

/** Whether a library is one of fourfold's columns (those are not "peers"). */
export const isFourfold = (library: string) => library.startsWith('fourfold');

export function formatSize(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} B`;
}

export function formatRate(mbps: number): string {
  return mbps >= 100 ? mbps.toFixed(0) : mbps >= 10 ? mbps.toFixed(1) : mbps.toFixed(2);
}

export function formatTime(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e4) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

export function formatBytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}
