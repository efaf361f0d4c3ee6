/**
 * fourfold/parallel's speedup by thread count from a run's worker-count
 * columns (N workers and the calling thread: N + 1 threads), against the
 * synchronous call of the same case, like for like: a plain column against
 * 'fourfold', a shared one against 'fourfold (output)' where the op has it.
 * The page charts these points (page/app/charts.ts); bench/merge.ts
 * tabulates them per device.
 */
import { parseWorkerColumn } from '../core/libraries.js';
import type { EngineReport, Report, ScalingPoint } from './json.js';

/** Every worker-count column timed (not capped, not failed) at `size` (the largest size they have, by default). */
export function scalingPoints(engine: EngineReport, size?: number): ScalingPoint[] {
  const columns = engine.cases.filter((c) => c.part === 'sizes' && c.ns !== undefined && parseWorkerColumn(c.library) !== undefined);
  const at = size ?? Math.max(0, ...columns.map((c) => c.size));
  const points: ScalingPoint[] = [];
  const timed = (op: string, library: string) =>
    engine.cases.find((s) => s.part === 'sizes' && s.op === op && s.size === at && s.library === library && s.ns !== undefined);
  for (const c of columns.filter((column) => column.size === at)) {
    const { workers, shared } = parseWorkerColumn(c.library)!;
    const sync = (shared ? timed(c.op, 'fourfold (output)') : undefined) ?? timed(c.op, 'fourfold');
    if (sync === undefined) continue;
    points.push({ op: c.op, size: at, shared, threads: workers + 1, ns: c.ns!.median, speedup: sync.ns!.median / c.ns!.median });
  }
  return points.sort((a, b) => a.op.localeCompare(b.op) || Number(a.shared) - Number(b.shared) || a.threads - b.threads);
}

/** A report's points: the page's, each from its thread count's own case; else those of its engine's cases. */
export function reportScalingPoints(report: Report, engine: EngineReport): readonly ScalingPoint[] {
  return report.page?.scaling.points ?? scalingPoints(engine);
}
