/** Order statistics and the least-squares line; pure functions. */

/** The q-quantile (0 ≤ q ≤ 1) of sorted values by linear interpolation between closest ranks. */
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

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return quantile(sorted, 0.5);
}

/** Throughput in MB/s (1 MB = 10^6 bytes) of `bytes` processed in `ns` nanoseconds. */
export function megabytesPerSecond(bytes: number, ns: number): number {
  return (bytes / ns) * 1e3;
}

/** The line y = a + b x closest to the points in the least-squares sense. */
export function fitLine(xs: readonly number[], ys: readonly number[]): { a: number; b: number } {
  const n = xs.length;
  if (n < 2) return { a: NaN, b: NaN };
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

/** The line y = b x through the origin closest to the points in the least-squares sense. */
export function fitThroughOrigin(xs: readonly number[], ys: readonly number[]): number {
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxx += xs[i]! * xs[i]!;
    sxy += xs[i]! * ys[i]!;
  }
  return sxx > 0 ? sxy / sxx : NaN;
}
