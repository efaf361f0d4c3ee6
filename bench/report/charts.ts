/**
 * The report's charts, one function per question the benchmark answers:
 * throughput against size, fourfold against each peer, the cost per byte
 * over every swept length, the block and SIMD-group steps, unaligned
 * against aligned input, and many keys against one.
 */
import type { EngineReport } from './json.js';
import { baselineOf, bestPeer, formatFit, formatRate, formatSize, formatTime, isFourfold, type CaseSummary, type SweepSummary } from './summary.js';
import { barChart, dotPlot, lineChart, type Series } from './svg.js';

const palette: Record<string, string> = {
  fourfold: '#1f5fbf',
  'fourfold-js': '#8e44ad',
  noble: '#e67e22',
  sodium: '#27ae60',
  node: '#6b7280',
};
const spare = ['#c0392b', '#16a085', '#d4a017', '#2c3e50', '#e84393'];
/** One colour per engine where engines share a chart. */
export const engineColors = ['#1f5fbf', '#c0392b', '#27ae60', '#8e44ad', '#e67e22', '#222222', '#d4a017'];

/** A library's colour; an '(output)' call style shares its library's colour and is dashed. */
export function styleOf(library: string): { color: string; dashed: boolean } {
  const base = library.replace(/ \(output\)$/, '');
  let color = palette[base];
  if (color === undefined) {
    let hash = 0;
    for (const ch of base) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    color = spare[hash % spare.length]!;
  }
  return { color, dashed: library !== base };
}

const sizeFormat = (v: number) => formatSize(v).replace(' ', '\u202f');
const pow2Ticks = (max: number, step = 2) => Array.from({ length: Math.floor(Math.log2(max) / step) + 1 }, (_, i) => 2 ** (i * step));

function libraryOrder(engine: EngineReport, present: Iterable<string>): string[] {
  const set = new Set(present);
  return engine.libraries.map((l) => l.name).filter((name) => set.has(name));
}

const casesOf = (engine: EngineReport, part: CaseSummary['part'], op: string) =>
  engine.cases.filter((c) => c.part === part && c.op === op && c.ns !== undefined);
// A capped library has no samples to draw (the overhead table says it was capped).
const sweepsOf = (engine: EngineReport, op: string) => engine.sweeps.filter((s) => s.op === op && s.capped === undefined);

/** A library's median ns per call against size: the sweep, then the larger sizes of the 'sizes' part. */
function timeBySize(engine: EngineReport, op: string, library: string): { points: [number, number][]; cases: CaseSummary[] } {
  const sweep = sweepsOf(engine, op).find((s) => s.library === library);
  const points: [number, number][] = [];
  sweep?.lengths.forEach((length, i) => {
    const ns = sweep.medianNs[i];
    if (length > 0 && ns !== null && ns !== undefined) points.push([length, ns]);
  });
  const sweepEnd = sweep?.lengths.at(-1) ?? 0;
  const cases = casesOf(engine, 'sizes', op).filter((c) => c.library === library);
  for (const c of cases) if (c.size > sweepEnd) points.push([c.size, c.ns!.median]);
  points.sort((a, b) => a[0] - b[0]);
  return { points, cases };
}

export function throughputChart(engine: EngineReport, op: string, engineName: string, width: number): string | undefined {
  const names = libraryOrder(
    engine,
    [...sweepsOf(engine, op), ...casesOf(engine, 'sizes', op)].map((x) => x.library),
  );
  if (names.length === 0) return undefined;
  const series: Series[] = names.map((library) => {
    const { points, cases } = timeBySize(engine, op, library);
    return {
      name: library,
      ...styleOf(library),
      points: points.map(([size, ns]) => [size, (size / ns) * 1e3]),
      markers: cases.map((c) => ({
        x: c.size,
        y: c.mbps!.median,
        title: `${library}, ${formatSize(c.size)}: ${formatRate(c.mbps!.median)} MB/s (quartiles ${formatRate(c.mbps!.q1)}–${formatRate(c.mbps!.q3)}), ${formatTime(c.ns!.median)} per call`,
      })),
    };
  });
  const maxX = Math.max(...series.flatMap((s) => s.points.map((p) => p[0])));
  return lineChart({
    title: `${op}: throughput against message size (${engineName})`,
    subtitle: 'Median of the samples; line: every swept length, then the large sizes; dots: the summary cases (hover for quartiles).',
    width,
    height: 400,
    x: { label: 'message size (bytes, log scale)', scale: 'log2', min: 1, ticks: pow2Ticks(maxX), format: sizeFormat },
    y: { label: 'throughput (MB/s, 10^6 bytes/s, log scale)', scale: 'log10' },
    series,
    decimate: 'mean',
  });
}

export function ratioChart(engine: EngineReport, op: string, engineName: string, width: number): string | undefined {
  const present = libraryOrder(
    engine,
    [...sweepsOf(engine, op), ...casesOf(engine, 'sizes', op)].map((x) => x.library),
  );
  const series: Series[] = [];
  for (const library of present) {
    const base = baselineOf(library, present);
    if (base === undefined || isFourfold(library)) continue;
    const own = new Map(timeBySize(engine, op, library).points);
    const theirs = timeBySize(engine, op, base).points;
    const points = theirs.filter(([size]) => own.has(size)).map(([size, ns]): [number, number] => [size, own.get(size)! / ns]);
    series.push({ name: base === 'fourfold' ? library : `${library} vs ${base}`, ...styleOf(library), points });
  }
  if (series.length === 0) return undefined;
  const maxX = Math.max(...series.flatMap((s) => s.points.map((p) => p[0])));
  return lineChart({
    title: `${op}: fourfold against each peer (${engineName})`,
    subtitle: "Peer's time per call divided by fourfold's (noble (output) against fourfold (output)); above 1, fourfold is faster.",
    width,
    height: 400,
    x: { label: 'message size (bytes, log scale)', scale: 'log2', min: 1, ticks: pow2Ticks(maxX), format: sizeFormat },
    y: { label: 'speed-up of fourfold (×, log scale)', scale: 'log2', format: (v) => `${+v.toPrecision(3)}×` },
    series,
    hlines: [{ y: 1, label: 'equal speed' }],
    decimate: 'mean',
  });
}

export function perByteChart(engine: EngineReport, op: string, engineName: string, width: number): string | undefined {
  const sweeps = sweepsOf(engine, op);
  if (sweeps.length === 0) return undefined;
  const perByte = (s: SweepSummary) =>
    s.lengths.map((length, i): [number, number] => [length, length > 0 && s.medianNs[i] !== null ? s.medianNs[i]! / length : NaN]);
  // Clip the top at each library's cost around 32 bytes, so the shape
  // beyond the first blocks gets the height, not the per-call overhead.
  const cap = Math.max(...sweeps.map((s) => perByte(s).find(([length, v]) => length >= 32 && Number.isFinite(v))?.[1] ?? 0));
  const to = sweeps[0]!.lengths.at(-1)!;
  return lineChart({
    title: `${op}: cost per byte at every length 0..${to} (${engineName})`,
    subtitle: `Median ns per call ÷ length, stride ${engine.sweepStep}. Each sawtooth tooth is one 64-byte block; dotted guides every 512 bytes.`,
    width,
    height: 440,
    x: { label: 'message length (bytes)', scale: 'linear', min: 0, max: to, ticks: Array.from({ length: Math.floor(to / 512) + 1 }, (_, i) => i * 512) },
    y: { label: 'time per byte (ns/byte, log scale)', scale: 'log10', max: cap > 0 ? cap : undefined },
    series: libraryOrder(
      engine,
      sweeps.map((s) => s.library),
    ).map((library) => ({
      name: library,
      ...styleOf(library),
      points: perByte(sweeps.find((s) => s.library === library)!),
    })),
    vlines: Array.from({ length: Math.floor(to / 512) }, (_, i) => (i + 1) * 512),
    decimate: 'median',
  });
}

/** Small multiples: each library's time per call over the first KiB, where the steps stand out most. */
export function stepCharts(engine: EngineReport, op: string, width: number): string[] {
  const sweeps = sweepsOf(engine, op);
  return libraryOrder(
    engine,
    sweeps.map((s) => s.library),
  ).map((library) => {
    const s = sweeps.find((x) => x.library === library)!;
    const to = Math.min(1024, s.lengths.at(-1)!);
    const points = s.lengths.map((length, i): [number, number] => [length, s.medianNs[i] ?? NaN]).filter(([length]) => length <= to);
    return lineChart({
      title: `${library}`,
      subtitle: Number.isFinite(s.fit.a) ? `fit over the sweep: ${formatFit(s.fit)}` : undefined,
      width,
      height: 250,
      x: { label: 'length (bytes)', scale: 'linear', min: 0, max: to, ticks: [0, 256, 512, 768, 1024].filter((t) => t <= to) },
      y: { label: 'ns per call', scale: 'linear', robust: true },
      series: [
        { name: library, ...styleOf(library), dashed: false, points },
        {
          name: 'least-squares fit',
          color: '#bbb',
          dashed: true,
          points: [
            [0, s.fit.a],
            [to, s.fit.a + s.fit.b * to],
          ],
        },
      ],
      vlines: Array.from({ length: Math.floor(to / 64) }, (_, i) => (i + 1) * 64),
      legend: false,
      decimate: 'median',
    });
  });
}

export function alignCharts(engine: EngineReport, op: string, width: number): string[] {
  const cases = casesOf(engine, 'align', op);
  const offsets = [...new Set(cases.map((c) => c.offset))].filter((o) => o !== 0).sort((a, b) => a - b);
  const shades = ['#f39c12', '#d35400', '#8e1b0e', '#5b2c6f'];
  return [...new Set(cases.map((c) => c.size))].map((size) => {
    const atSize = cases.filter((c) => c.size === size);
    const names = libraryOrder(
      engine,
      atSize.map((c) => c.library),
    );
    const median = (library: string, offset: number) => atSize.find((c) => c.library === library && c.offset === offset)?.ns?.median ?? NaN;
    return barChart({
      title: `${op}, ${formatSize(size)}: unaligned against aligned input`,
      subtitle: 'Time per call at byteOffset 1, 3, 7 divided by the time at 0 (same case, interleaved); above 1 is slower.',
      width,
      height: 330,
      categories: names,
      groups: offsets.map((o, i) => ({ name: `byteOffset ${o}`, color: shades[i % shades.length]! })),
      values: names.map((library) => offsets.map((o) => median(library, o) / median(library, 0))),
      titles: names.map((library) =>
        offsets.map((o) => `${library}, byteOffset ${o}: ${formatTime(median(library, o))} vs ${formatTime(median(library, 0))} aligned`),
      ),
      y: { label: 'time ÷ aligned time', scale: 'linear', min: 0, format: (v) => `${+v.toPrecision(3)}×` },
      hlines: [{ y: 1, label: 'aligned' }],
    });
  });
}

export function keysChart(engine: EngineReport, op: string, engineName: string, width: number): string | undefined {
  const cases = casesOf(engine, 'keys', op);
  if (cases.length === 0) return undefined;
  const names = libraryOrder(
    engine,
    cases.map((c) => c.library),
  );
  const size = cases[0]!.size;
  const series: Series[] = names.map((library) => {
    const own = cases.filter((c) => c.library === library).sort((a, b) => a.keys - b.keys);
    const one = own.find((c) => c.keys === 1)?.ns?.median ?? NaN;
    return {
      name: library,
      ...styleOf(library),
      points: own.map((c): [number, number] => [c.keys, c.ns!.median / one]),
      markers: own.map((c) => ({
        x: c.keys,
        y: c.ns!.median / one,
        title: `${library}, ${c.keys} keys: ${formatTime(c.ns!.median)} per call (${formatTime(one)} with one key)`,
      })),
    };
  });
  const maxKeys = Math.max(...cases.map((c) => c.keys));
  return lineChart({
    title: `${op}: many keys against one, ${formatSize(size)} messages (${engineName})`,
    subtitle: 'Time per call when the calls cycle through n keys, divided by the time with one key (hover a dot for the times).',
    width,
    height: 380,
    x: {
      label: 'number of keys (log scale)',
      scale: 'log2',
      min: 1,
      max: Math.max(2, maxKeys),
      ticks: pow2Ticks(Math.max(2, maxKeys), maxKeys > 4096 ? 2 : 1),
      format: (v) => (v >= 1024 ? sizeFormat(v).replace('\u202fKiB', 'k').replace('\u202fMiB', 'M') : String(v)),
    },
    y: { label: 'time ÷ time with one key', scale: 'linear', format: (v) => `${+v.toPrecision(3)}×` },
    series,
    hlines: [{ y: 1, label: 'one key' }],
  });
}

/** fourfold's throughput in every engine, when more than one ran. */
export function enginesChart(engines: readonly { name: string; report: EngineReport }[], op: string, width: number): string | undefined {
  if (engines.length < 2) return undefined;
  const series: Series[] = engines.map(({ name, report }, i) => ({
    name,
    color: engineColors[i % engineColors.length]!,
    points: timeBySize(report, op, 'fourfold').points.map(([size, ns]) => [size, (size / ns) * 1e3]),
  }));
  const maxX = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[0])));
  return lineChart({
    title: `${op}: fourfold in each engine`,
    width,
    height: 400,
    x: { label: 'message size (bytes, log scale)', scale: 'log2', min: 1, ticks: pow2Ticks(maxX), format: sizeFormat },
    y: { label: 'throughput (MB/s, log scale)', scale: 'log10' },
    series,
    decimate: 'mean',
  });
}

/**
 * The report's first chart, one screen: for every op (a row), engine (a
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
