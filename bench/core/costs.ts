/**
 * The cap on one case's time and the costs it is judged by
 * (docs/contributing/benchmarks.md, "The cap on one case"): a case runs as
 * long as its slowest library, so one whose minimum samples cannot fit the
 * cap is reported as capped, never as a measurement. The CostBook predicts
 * a size from those timed before, so a library capped at 1 MiB is not
 * called at 16 MiB; its first calls then replace the prediction.
 */
import type { CaseTiming } from './types.js';

export class CostBook {
  /** op and library -> size -> ns per call. */
  private readonly known = new Map<string, Map<number, number>>();

  record(op: string, library: string, size: number, nsPerCall: number): void {
    const key = `${op}\u0000${library}`;
    if (!this.known.has(key)) this.known.set(key, new Map());
    this.known.get(key)!.set(size, nsPerCall);
  }

  /**
   * The ns per call expected at `size` (undefined: never timed): above the
   * known sizes the line through the two largest, below the smallest scaled.
   */
  predict(op: string, library: string, size: number): number | undefined {
    const points = [...(this.known.get(`${op}\u0000${library}`) ?? [])].sort((a, b) => a[0] - b[0]);
    if (points.length === 0) return undefined;
    const exact = points.find(([s]) => s === size);
    if (exact !== undefined) return exact[1];
    const below = points.filter(([s]) => s < size);
    if (below.length === 0) return (points[0]![1] * Math.max(size, 1)) / Math.max(points[0]![0], 1);
    const [s2, t2] = below[below.length - 1]!;
    const proportional = (t2 * size) / Math.max(s2, 1);
    if (below.length === 1) return proportional;
    const [s1, t1] = below[below.length - 2]!;
    const slope = (t2 - t1) / (s2 - s1);
    return slope > 0 ? t2 + slope * (size - s2) : proportional;
  }
}

/**
 * The least time a subject takes in a case, in ms: its first call (the
 * output check), its warm-up (warmupMs, and at least three calls: one to
 * compile, two timed) and minSamples samples.
 */
export function minimumMs(nsPerCall: number, timing: CaseTiming): number {
  const callMs = nsPerCall / 1e6;
  return callMs + Math.max(timing.warmupMs, 3 * callMs) + timing.minSamples * Math.max(timing.sampleMs, callMs);
}

/**
 * The indexes of the subjects that do not fit `budgetMs`, cheapest first,
 * each judged by its whole minimum against the whole cap (a slow subject's
 * warm-up never pushes a fast one out); an unknown cost counts as nothing.
 */
export function overBudget(costsMs: readonly (number | undefined)[], budgetMs: number): Set<number> {
  const order = costsMs.map((cost, i) => [cost ?? 0, i] as const).sort((a, b) => a[0] - b[0]);
  const over = new Set<number>();
  let spent = 0;
  for (const [cost, i] of order) {
    if (spent + cost > budgetMs) over.add(i);
    else spent += cost;
  }
  return over;
}

/** A case's deadline (in now() milliseconds) and the cap it comes from; no cap: an infinite deadline. */
export interface Deadline {
  readonly at: number;
  readonly capMs: number;
}

export function deadlineFrom(start: number, capMs: number): Deadline {
  return { at: capMs > 0 ? start + capMs : Infinity, capMs: capMs > 0 ? capMs : Infinity };
}
