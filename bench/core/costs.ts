/**
 * The cap on the time of one case, and the costs it is judged by.
 *
 * A case interleaves every library, so its slowest library sets its
 * length: mipher's Serpent takes about a second per MiB here, and at
 * 16 MiB its case alone would take minutes. So every case (and every op's
 * sweep) has a cap, BenchConfig.capMs. A library whose minimum samples do
 * not fit in it is left out of the case and reported as capped, with its
 * cost per call, never as a measurement; the other libraries of the case
 * are timed as usual.
 *
 * The costs come from the run itself: the CostBook keeps what each
 * library took at the sizes timed so far, and predicts a larger size from
 * them, so a library capped at 1 MiB is not even called at 16 MiB. The
 * first call (the output check) and the warm-up then replace the
 * prediction with a measurement, and rounds beyond the minimum samples
 * stop at the deadline. A case can still outrun its cap by what a capped
 * library's first calls took before they were measured, or by calls that
 * turn much slower than measured while sampling.
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
   * The ns per call expected at `size`, or undefined when the library was
   * never timed for this op. Above the sizes known, the line through the
   * two largest extends them (proportionally when there is one, or when
   * the line falls); below, the smallest known size scales down.
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
 * Which subjects do not fit in `budgetMs` when the cheapest go first:
 * their indexes. Each subject is judged by its whole minimum cost against
 * the whole cap, not by the time left, so that a slow subject's warm-up
 * never pushes a fast one out. A cost that is not known yet (undefined)
 * counts as nothing: that subject is tried, and its first call tells.
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
