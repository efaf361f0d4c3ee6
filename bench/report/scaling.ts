/**
 * fourfold/parallel's scaling with the number of threads, from a run's
 * worker-count columns ('fourfold (parallel, N workers)' and, on
 * SharedArrayBuffers, 'fourfold (parallel, shared memory, N workers)'): N
 * workers and the calling thread make N + 1 threads, and the speedup is
 * the synchronous function's median time over the column's, both timed in
 * the same case. Like for like: a plain column allocates its output on
 * every call, as 'fourfold' does; a shared one writes into the caller's
 * output, as 'fourfold (output)' does where the op has that column
 * (a hash has no output to allocate: 'fourfold'). The benchmark page
 * times each thread count in a case of its own, and keeps the points it
 * took from each (PageRun.scaling.points); it draws them against the ideal
 * line (speedup = threads), and bench/merge.ts tabulates them per device.
 */
import { parseWorkerColumn } from '../core/libraries.js';
import type { EngineReport, Report, ScalingPoint } from './json.js';
import { formatSize, formatTime } from './summary.js';
import { lineChart, type Series } from './svg.js';

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

const opColors: Record<string, string> = {
  'xchacha20poly1305-encrypt': '#1f5fbf',
  'xchacha20poly1305-decrypt': '#8e44ad',
  chacha20: '#27ae60',
  blake3: '#e67e22',
};
const spare = ['#c0392b', '#16a085', '#d4a017', '#2c3e50'];

/** Rows the legend of svg.ts takes for these names at `width` (its layout: 44 px and 6.6 px per character an entry). */
function legendRows(names: readonly string[], width: number): number {
  let rows = 1;
  let x = 0;
  for (const name of names) {
    const w = 44 + name.length * 6.6;
    if (x + w > width - 80 && x > 0) {
      rows++;
      x = 0;
    }
    x += w;
  }
  return rows;
}

/** Speedup against threads, one line per op and memory (shared dashed), with the ideal line; log2 on both axes, so the ideal is the diagonal. */
export function scalingChart(points: readonly ScalingPoint[], options: { title: string; width: number; height?: number }): string | undefined {
  if (points.length === 0) return undefined;
  const size = points[0]!.size;
  const threads = [...new Set(points.map((p) => p.threads))].sort((a, b) => a - b);
  const most = Math.max(2, ...threads);
  const ops = [...new Set(points.map((p) => p.op))];
  const series: Series[] = [];
  for (const [i, op] of ops.entries()) {
    for (const shared of [false, true]) {
      const own = points.filter((p) => p.op === op && p.shared === shared);
      if (own.length === 0) continue;
      const color = opColors[op] ?? spare[i % spare.length]!;
      series.push({
        name: shared ? `${op}, SharedArrayBuffer` : op,
        color,
        dashed: shared,
        points: own.map((p) => [p.threads, p.speedup]),
        markers: own.map((p) => ({
          x: p.threads,
          y: p.speedup,
          title: `${op}${shared ? ' (SharedArrayBuffer)' : ''}, ${p.threads} thread${p.threads === 1 ? '' : 's'}: ${p.speedup.toFixed(2)}× (${formatTime(p.ns)})`,
        })),
      });
    }
  }
  series.push({
    name: 'ideal (speedup = threads)',
    color: '#999999',
    dashed: true,
    points: [
      [1, 1],
      [most, most],
    ],
  });
  const low = Math.min(0.5, ...points.map((p) => p.speedup));
  const subtitle =
    `fourfold/parallel on ${formatSize(size)}: the synchronous function's median time divided by fourfold/parallel's on n threads ` +
    '(the measuring thread and n − 1 workers), timed in the same case. Dashed: input and output on SharedArrayBuffers, against the ' +
    'synchronous function writing into a caller-supplied output (neither allocates per call). Hover a dot for the time.';
  return lineChart({
    title: options.title,
    subtitle,
    width: options.width,
    // The plot keeps about 280 px however many lines the legend and the subtitle take on a narrow chart.
    height:
      options.height ??
      300 +
        18 *
          legendRows(
            series.map((s) => s.name),
            options.width,
          ) +
        15 * Math.ceil((subtitle.length * 6.1) / (options.width - 24)),
    x: {
      label: 'threads (log scale)',
      scale: 'log2',
      min: 1,
      max: most,
      ticks: threads.includes(most) ? threads : [...threads, most],
      format: (v) => String(Math.round(v)),
    },
    y: { label: 'speedup (×, log scale)', scale: 'log2', min: low, max: most * 1.1, format: (v) => `${+v.toPrecision(2)}×` },
    series,
    hlines: [{ y: 1, label: 'the synchronous function' }],
  });
}
