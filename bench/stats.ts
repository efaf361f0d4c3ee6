/** Order statistics of a sample set. */

/** The q-quantile (0 ≤ q ≤ 1) by linear interpolation between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export interface Quartiles {
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
}

export function quartiles(values: readonly number[]): Quartiles {
  const sorted = [...values].sort((a, b) => a - b);
  return { q1: quantile(sorted, 0.25), median: quantile(sorted, 0.5), q3: quantile(sorted, 0.75) };
}

/** Throughput in MB/s (1 MB = 10^6 bytes) of `bytes` processed in `ns` nanoseconds. */
export function megabytesPerSecond(bytes: number, ns: number): number {
  return (bytes / ns) * 1e3;
}
