/**
 * Derived figures shared by the Markdown summary, the HTML report and
 * results.json: quartiles per case, medians and the overhead fit per
 * sweep, and which fourfold column each library is compared with.
 */
import { fitLine, fitThroughOrigin, megabytesPerSecond, median, quartiles, type Quartiles } from '../core/stats.js';
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
  readonly fit: Fit;
}

/**
 * Least-squares line through the medians, time = a + b·length: `a` the
 * per-call overhead, `b` ns per byte. A negative intercept is clamped to 0,
 * `b` refitted through the origin, and `negativeA` keeps what the fit gave.
 */
export interface Fit {
  readonly a: number;
  readonly b: number;
  readonly negativeA?: number;
}

export function fitOverhead(xs: readonly number[], ys: readonly number[]): Fit {
  const line = fitLine(xs, ys);
  if (!(line.a < 0)) return line;
  return { a: 0, b: fitThroughOrigin(xs, ys), negativeA: line.a };
}

/** '120 ns + 1.23 ns/B', or for a clamped fit '0 ns (fit: −35) + 1.23 ns/B'; '—' without a fit. */
export function formatFit(fit: Fit): string {
  if (!Number.isFinite(fit.a) || !Number.isFinite(fit.b)) return '—';
  const a = fit.negativeA === undefined ? `${fit.a.toFixed(0)} ns` : `0 ns (fit: −${Math.abs(fit.negativeA).toFixed(0)})`;
  return `${a} + ${fit.b.toFixed(2)} ns/B`;
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
  return { ...s, medianNs, fit: fitOverhead(xs, ys) };
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

/** fourfold against its fastest peer in one case: the peer's median time ÷ that of the fourfold column it is compared with. */
export interface PeerComparison {
  readonly ratio: number;
  readonly peer: string;
  readonly peerNs: number;
  readonly fourfold: string;
  readonly fourfoldNs: number;
}

/**
 * The peer closest to fourfold at (`op`, `size`), or ahead of it: the
 * smallest ratio against its like-for-like fourfold column (baselineOf).
 */
export function bestPeer(cases: readonly CaseSummary[], op: string, size: number): PeerComparison | undefined {
  const timed = cases.filter((c) => c.part === 'sizes' && c.op === op && c.size === size && c.ns !== undefined);
  const names = timed.map((c) => c.library);
  let best: PeerComparison | undefined;
  for (const peer of timed.filter((c) => !isFourfold(c.library))) {
    const base = baselineOf(peer.library, names);
    const ours = timed.find((c) => c.library === base);
    if (ours === undefined) continue;
    const ratio = peer.ns!.median / ours.ns!.median;
    if (best === undefined || ratio < best.ratio)
      best = { ratio, peer: peer.library, peerNs: peer.ns!.median, fourfold: ours.library, fourfoldNs: ours.ns!.median };
  }
  return best;
}

/** The sizes of the summary: 64 B, 1 KiB, 8 KiB, 64 KiB and 1 MiB (the headline sizes), as many as the run has; else every size it has (--profile=parallel). */
export function summarySizes(sizes: readonly number[]): number[] {
  const five = [64, 1 << 10, 8 << 10, 64 << 10, 1 << 20].filter((size) => sizes.includes(size));
  return five.length > 0 ? five : [...sizes];
}

/**
 * The sizes of one op in the summary: those of `sizes` it was timed at,
 * or for an op timed at none of them (scrypt, whose sizes are a lane's
 * memory: BenchConfig.opSizes) every size it was timed at.
 */
export function opSummarySizes(cases: readonly CaseResult[], op: string, sizes: readonly number[]): number[] {
  const own = [...new Set(cases.filter((c) => c.part === 'sizes' && c.op === op).map((c) => c.size))].sort((a, b) => a - b);
  const shared = sizes.filter((size) => own.includes(size));
  return shared.length > 0 ? shared : own;
}

export function formatSize(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} B`;
}

export function formatRate(mbps: number): string {
  return mbps >= 100 ? mbps.toFixed(0) : mbps >= 10 ? mbps.toFixed(1) : mbps.toFixed(2);
}

export function formatTime(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e4) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}
