/**
 * The benchmark page's charts: fourfold against its fastest peer for
 * every op, size and engine (the first screen), and fourfold/parallel's
 * speedup by thread count against the ideal line. The figures are the
 * bench's (bench/report/summary.ts, bench/report/scaling.ts); svg.ts draws.
 */
import type { EngineReport, ScalingPoint } from '../../bench/report/json.js';
import { bestPeer, formatSize, formatTime, isFourfold } from '../../bench/report/summary.js';
import { dotPlot, lineChart, type Series } from './svg.js';

/** One colour per engine where engines share a chart. */
const engineColors = ['#1f5fbf', '#c0392b', '#27ae60', '#8e44ad', '#e67e22', '#222222', '#d4a017'];

/**
 * The page's first chart, one screen: for every op (a row), engine (a
 * dot's colour) and summary size (a panel), fourfold's speed-up over its
 * fastest peer there. A row without a dot says why: no peer has the op,
 * or the peers were capped (or failed).
 */
export function summaryChart(
  engines: readonly { name: string; report: EngineReport }[],
  sizes: readonly number[],
  width: number,
  text: { title?: string; subtitle?: string } = {},
): string | undefined {
  const panelSizes = sizes.filter((size) => engines.some(({ report }) => report.cases.some((c) => c.part === 'sizes' && c.size === size)));
  // Ops with a fourfold column at these sizes (not the platform's reference lines, nor ops timed only at other sizes).
  const ops = [
    ...new Set(
      engines.flatMap(({ report }) => report.cases.filter((c) => c.part === 'sizes' && isFourfold(c.library) && panelSizes.includes(c.size)).map((c) => c.op)),
    ),
  ];
  if (ops.length === 0 || panelSizes.length === 0) return undefined;
  const ratio = (v: number) => `${v >= 10 ? v.toFixed(0) : v.toPrecision(2)}×`;
  const panels = panelSizes.map((size) => {
    const dots = ops.map((op) =>
      engines.flatMap(({ name, report }, group) => {
        const best = bestPeer(report.cases, op, size);
        if (best === undefined) return [];
        const title = `${op}, ${formatSize(size)}, ${name}: ${best.fourfold} ${formatTime(best.fourfoldNs)}, ${best.peer} ${formatTime(best.peerNs)} (fastest peer): ${ratio(best.ratio)}`;
        // With one engine there is room to write each value beside its dot.
        return [{ x: best.ratio, group, title, label: engines.length === 1 ? ratio(best.ratio) : undefined }];
      }),
    );
    const notes = ops.map((op) => {
      const here = engines.flatMap(({ report }) => report.cases.filter((c) => c.part === 'sizes' && c.op === op && c.size === size));
      // An op not timed at this size at all (scrypt at 64 B, chacha20 at scrypt's 16 MiB): nothing to say.
      if (here.length === 0) return undefined;
      const peers = here.filter((c) => !isFourfold(c.library));
      if (peers.length === 0) return 'no peer';
      return peers.every((c) => c.capped !== undefined) ? 'peers capped' : peers.every((c) => c.ns === undefined) ? 'peers failed' : undefined;
    });
    return { title: formatSize(size), dots, notes };
  });
  // A run without peers (--profile=parallel) has nothing to show here.
  if (panels.every((panel) => panel.dots.every((dots) => dots.length === 0))) return undefined;
  return dotPlot({
    title: text.title ?? 'fourfold against its fastest peer',
    subtitle:
      text.subtitle ??
      "Per operation, message size and engine: the fastest peer's median time per call divided by fourfold's, each peer against the fourfold " +
        'column of the same call style (allocating, or into a caller-supplied output). Right of the dashed line fourfold is faster. Hover a dot for both times; the tables below have every library.',
    width,
    rows: ops,
    panels,
    groups: engines.map(({ name }, i) => ({ name, color: engineColors[i % engineColors.length]! })),
    x: { label: 'speed-up (×, log scale)', scale: 'log2', format: (v) => `${v >= 10 ? Math.round(v) : +v.toPrecision(2)}×` },
    vline: { x: 1, label: 'equal speed' },
  });
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
