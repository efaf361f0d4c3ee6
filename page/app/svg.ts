/**
 * The benchmark page's two chart types as inline SVG strings, with no
 * library: a line chart (linear, log2 or log10 axes, a few series) and
 * small multiples of a dot plot. Text is real SVG text, so the page stays
 * searchable, and every marker carries a <title> tooltip with its value.
 */

export type Scale = 'linear' | 'log2' | 'log10';

export interface Axis {
  readonly label: string;
  readonly scale: Scale;
  readonly min?: number;
  readonly max?: number;
  /** Tick positions; chosen automatically when absent. */
  readonly ticks?: readonly number[];
  readonly format?: (value: number) => string;
}

export interface Series {
  readonly name: string;
  readonly color: string;
  readonly dashed?: boolean;
  /** [x, y]; a NaN y breaks the line. */
  readonly points: readonly (readonly [number, number])[];
  /** Points drawn as circles with a tooltip (e.g. measured cases), on top of the line. */
  readonly markers?: readonly { readonly x: number; readonly y: number; readonly title: string }[];
}

export interface LineChartSpec {
  readonly title: string;
  readonly subtitle?: string;
  readonly width: number;
  readonly height: number;
  readonly x: Axis;
  readonly y: Axis;
  readonly series: readonly Series[];
  /** Horizontal reference lines, e.g. a ratio of 1. */
  readonly hlines?: readonly { readonly y: number; readonly label: string }[];
}

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"';

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const round = (v: number) => Math.round(v * 10) / 10;

function transform(scale: Scale): (v: number) => number {
  return scale === 'log2' ? Math.log2 : scale === 'log10' ? Math.log10 : (v) => v;
}

/** The most ticks an axis gets: more could not be told apart. */
const MAX_TICKS = 200;

/** 1-2-5 steps for a linear axis; powers of the base (thinned to fit) for a log axis. */
function autoTicks(scale: Scale, min: number, max: number, room: number): number[] {
  if (scale === 'linear') {
    const span = max - min || 1;
    const raw = span / Math.max(3, Math.floor(room / 45));
    const magnitude = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
    // Counted, not stepped: where the values are large next to their spread (beyond 2^53 / step),
    // v + step rounds back to v, and a loop stepping v would never end.
    const first = Math.ceil(min / step);
    const count = Math.floor(max / step + 1e-9) - first + 1;
    if (!(count > 0 && count <= MAX_TICKS)) return [];
    return Array.from({ length: count }, (_, i) => (first + i) * step);
  }
  const base = scale === 'log2' ? 2 : 10;
  const lo = Math.floor(Math.log(min) / Math.log(base) + 1e-9);
  const hi = Math.ceil(Math.log(max) / Math.log(base) - 1e-9);
  // An axis from 0 or to infinity has no powers to count (extent() keeps such values out; a given min or max might not).
  if (!(hi - lo >= 0 && hi - lo <= MAX_TICKS)) return [];
  const every = Math.max(1, Math.ceil((hi - lo + 1) / Math.max(3, Math.floor(room / 32))));
  const ticks: number[] = [];
  for (let e = lo; e <= hi; e++) if ((e - lo) % every === 0) ticks.push(base ** e);
  // A log10 axis spanning less than two decades also gets 2 and 5.
  if (scale === 'log10' && hi - lo <= 2) {
    for (let e = lo; e < hi; e++) ticks.push(2 * 10 ** e, 5 * 10 ** e);
  }
  return ticks.filter((t) => t >= min * 0.999 && t <= max * 1.001).sort((a, b) => a - b);
}

export function defaultFormat(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toPrecision(3)}k`;
  if (a >= 1) return `${+v.toPrecision(4)}`;
  return `${+v.toPrecision(2)}`;
}

/** Extent of the values, padded a little; log axes ignore values ≤ 0. */
function extent(values: number[], axis: Axis): [number, number] {
  const usable = values.filter((v) => Number.isFinite(v) && (axis.scale === 'linear' || v > 0)).sort((a, b) => a - b);
  const [low, high] = [usable[0]!, usable[usable.length - 1]!];
  // A given bound a log axis cannot show (0 and below) is left out like such values.
  const given = (bound: number | undefined) => (bound !== undefined && (axis.scale === 'linear' || bound > 0) ? bound : undefined);
  let min = given(axis.min) ?? low;
  let max = given(axis.max) ?? high;
  if (!Number.isFinite(min) || !Number.isFinite(max)) [min, max] = axis.scale === 'linear' ? [0, 1] : [1, 10];
  // One value: a range around it (relative where ±1 would round away, beyond 2^53).
  const around = Math.max(1, Math.abs(min) * 1e-6);
  if (min === max) [min, max] = axis.scale === 'linear' ? [min - around, max + around] : [min / 2, max * 2];
  return [min, max];
}

interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
  px: (x: number) => number;
  py: (y: number) => number;
}

function legend(series: readonly { name: string; color: string; dashed?: boolean }[], x: number, y: number, width: number): { svg: string; height: number } {
  const parts: string[] = [];
  let cx = x;
  let cy = y;
  for (const s of series) {
    const w = 30 + s.name.length * 6.6 + 14;
    if (cx + w > x + width && cx > x) {
      cx = x;
      cy += 18;
    }
    parts.push(
      `<line x1="${cx}" y1="${cy - 4}" x2="${cx + 22}" y2="${cy - 4}" stroke="${s.color}" stroke-width="3"${s.dashed ? ' stroke-dasharray="6 3"' : ''}/>`,
      `<text x="${cx + 27}" y="${cy}" font-size="12" fill="#222">${escapeXml(s.name)}</text>`,
    );
    cx += w;
  }
  return { svg: parts.join(''), height: cy - y + 18 };
}

/** Splits text into lines of about `width` pixels, for a font whose characters average `charWidth`. */
function wrapText(text: string, width: number, charWidth: number): string[] {
  const perLine = Math.max(20, Math.floor(width / charWidth));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The wrapped title and subtitle, and the frame; returns where the content may start. */
function header(title: string, subtitle: string | undefined, width: number): { svg: string; bottom: number } {
  const titles = wrapText(title, width - 24, 8.2);
  const subtitles = subtitle === undefined ? [] : wrapText(subtitle, width - 24, 6.1);
  const svg =
    titles.map((line, i) => `<text x="12" y="${20 + i * 18}" font-size="14" font-weight="600" fill="#111">${escapeXml(line)}</text>`).join('') +
    subtitles.map((line, i) => `<text x="12" y="${37 + (titles.length - 1) * 18 + i * 15}" font-size="11.5" fill="#555">${escapeXml(line)}</text>`).join('') +
    `<rect x="0.5" y="0.5" width="${width - 1}" height="__H__" fill="none" stroke="#ddd"/>`;
  return { svg, bottom: 30 + (titles.length - 1) * 18 + subtitles.length * 15 };
}

/** Draws the axes, grid, ticks and labels; returns the frame's coordinate maps. */
function axes(
  spec: { x: Axis; y: Axis },
  box: { left: number; top: number; width: number; height: number },
  xr: [number, number],
  yr: [number, number],
): { svg: string; frame: Frame } {
  const tx = transform(spec.x.scale);
  const ty = transform(spec.y.scale);
  const [x0, x1] = [tx(xr[0]), tx(xr[1])];
  const [y0, y1] = [ty(yr[0]), ty(yr[1])];
  const px = (x: number) => box.left + ((tx(x) - x0) / (x1 - x0)) * box.width;
  const py = (y: number) => box.top + box.height - ((ty(Math.min(Math.max(y, yr[0]), yr[1])) - y0) / (y1 - y0)) * box.height;
  const parts: string[] = [];
  const fx = spec.x.format ?? defaultFormat;
  const fy = spec.y.format ?? defaultFormat;
  for (const t of spec.x.ticks ?? autoTicks(spec.x.scale, xr[0], xr[1], box.width)) {
    if (t < xr[0] || t > xr[1]) continue;
    const x = round(px(t));
    parts.push(
      `<line x1="${x}" y1="${box.top}" x2="${x}" y2="${box.top + box.height}" stroke="#eee"/>`,
      `<text x="${x}" y="${box.top + box.height + 16}" font-size="11" text-anchor="middle" fill="#444">${escapeXml(fx(t))}</text>`,
    );
  }
  for (const t of spec.y.ticks ?? autoTicks(spec.y.scale, yr[0], yr[1], box.height)) {
    if (t < yr[0] || t > yr[1]) continue;
    const y = round(py(t));
    parts.push(
      `<line x1="${box.left}" y1="${y}" x2="${box.left + box.width}" y2="${y}" stroke="#eee"/>`,
      `<text x="${box.left - 6}" y="${y + 4}" font-size="11" text-anchor="end" fill="#444">${escapeXml(fy(t))}</text>`,
    );
  }
  parts.push(
    `<rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}" fill="none" stroke="#999"/>`,
    `<text x="${box.left + box.width / 2}" y="${box.top + box.height + 34}" font-size="12" text-anchor="middle" fill="#222">${escapeXml(spec.x.label)}</text>`,
    `<text transform="translate(14 ${box.top + box.height / 2}) rotate(-90)" font-size="12" text-anchor="middle" fill="#222">${escapeXml(spec.y.label)}</text>`,
  );
  return { svg: parts.join(''), frame: { ...box, px, py } };
}

export function lineChart(spec: LineChartSpec): string {
  const head = header(spec.title, spec.subtitle, spec.width);
  const top = head.bottom;
  const lg = legend(spec.series, 60, top + 12, spec.width - 80);
  const box = { left: 64, top: top + lg.height + 6, width: spec.width - 64 - 16, height: spec.height - (top + lg.height + 6) - 44 };

  const usable = (v: number, scale: Scale) => Number.isFinite(v) && (scale === 'linear' || v > 0);
  const all = spec.series.flatMap((s) => [...s.points, ...(s.markers ?? []).map((m) => [m.x, m.y] as const)]);
  const xr = extent(
    all.map((p) => p[0]),
    spec.x,
  );
  const inX = all.filter((p) => p[0] >= xr[0] && p[0] <= xr[1]);
  const yr = extent([...inX.map((p) => p[1]), ...(spec.hlines ?? []).map((h) => h.y)], spec.y);
  const { svg: axisSvg, frame } = axes(spec, box, xr, yr);

  const parts: string[] = [axisSvg];
  for (const h of spec.hlines ?? []) {
    const y = round(frame.py(h.y));
    parts.push(
      `<line x1="${box.left}" y1="${y}" x2="${box.left + box.width}" y2="${y}" stroke="#333" stroke-width="1.2" stroke-dasharray="5 4"/>`,
      `<text x="${box.left + 5}" y="${y - 4}" font-size="11" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">${escapeXml(h.label)}</text>`,
    );
  }
  parts.push(`<clipPath id="__CLIP__"><rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}"/></clipPath>`);
  for (const s of spec.series) {
    // Split at gaps, map to pixels, then draw.
    const runs: [number, number][][] = [[]];
    for (const [x, y] of s.points) {
      if (x < xr[0] || x > xr[1]) continue;
      if (!usable(y, spec.y.scale)) {
        if (runs[runs.length - 1]!.length > 0) runs.push([]);
        continue;
      }
      runs[runs.length - 1]!.push([frame.px(x), frame.py(y)]);
    }
    const d = runs
      .filter((run) => run.length > 0)
      .map((run) => `M${run.map(([x, y]) => `${round(x)},${round(y)}`).join('L')}`)
      .join('');
    if (d !== '') {
      parts.push(
        `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.6" stroke-linejoin="round"${s.dashed ? ' stroke-dasharray="6 3"' : ''} clip-path="url(#__CLIP__)"><title>${escapeXml(s.name)}</title></path>`,
      );
    }
    for (const m of s.markers ?? []) {
      if (m.x < xr[0] || m.x > xr[1] || !usable(m.y, spec.y.scale)) continue;
      parts.push(
        `<circle cx="${round(frame.px(m.x))}" cy="${round(frame.py(m.y))}" r="3.2" fill="${s.color}" stroke="#fff" stroke-width="1"><title>${escapeXml(m.title)}</title></circle>`,
      );
    }
  }
  return wrap(spec.width, spec.height, head.svg + lg.svg + parts.join(''));
}

export interface Dot {
  readonly x: number;
  /** Index into DotPlotSpec.groups (its colour and its place within the row). */
  readonly group: number;
  readonly title: string;
  /** Text beside the dot (its value), if any. */
  readonly label?: string;
}

export interface DotPlotSpec {
  readonly title: string;
  readonly subtitle?: string;
  readonly width: number;
  /** Row labels, top to bottom, shared by every panel. */
  readonly rows: readonly string[];
  /** Side by side, one x axis each (the same range): dots[row] are that row's dots; a note stands where a row has none. */
  readonly panels: readonly { readonly title: string; readonly dots: readonly (readonly Dot[])[]; readonly notes?: readonly (string | undefined)[] }[];
  readonly groups: readonly { readonly name: string; readonly color: string }[];
  readonly x: Axis;
  readonly vline?: { readonly x: number; readonly label: string };
  readonly rowHeight?: number;
}

/**
 * Small multiples of a dot plot: one row per category (an op), one panel
 * per column (a message size), one dot per group (an engine) on a shared
 * x axis. The groups of a row are spread over its height, so dots of
 * equal value stay apart.
 */
export function dotPlot(spec: DotPlotSpec): string {
  const rowHeight = spec.rowHeight ?? 20;
  const head = header(spec.title, spec.subtitle, spec.width);
  const lg = spec.groups.length > 1 ? legend(spec.groups, 60, head.bottom + 12, spec.width - 80) : { svg: '', height: 0 };
  const labelWidth = Math.min(230, 16 + 7 * Math.max(...spec.rows.map((r) => r.length)));
  const gap = 14;
  const panelWidth = (spec.width - labelWidth - 16 - gap * (spec.panels.length - 1)) / Math.max(spec.panels.length, 1);
  const top = head.bottom + lg.height + 22;
  const height = top + spec.rows.length * rowHeight + 44;
  const values = spec.panels.flatMap((p) => p.dots.flat().map((d) => d.x));
  const xr = extent([...values, ...(spec.vline === undefined ? [] : [spec.vline.x])], spec.x);
  const parts: string[] = [];
  spec.rows.forEach((row, r) => {
    const y = top + r * rowHeight;
    if (r % 2 === 0) parts.push(`<rect x="8" y="${y}" width="${spec.width - 16}" height="${rowHeight}" fill="#f4f6f8"/>`);
    parts.push(`<text x="${labelWidth - 8}" y="${y + rowHeight / 2 + 4}" font-size="12" text-anchor="end" fill="#222">${escapeXml(row)}</text>`);
  });
  spec.panels.forEach((panel, p) => {
    const left = labelWidth + p * (panelWidth + gap);
    const box = { left, top, width: panelWidth, height: spec.rows.length * rowHeight };
    const { svg, frame } = axes({ x: spec.x, y: { label: '', scale: 'linear', ticks: [] } }, box, xr, [0, 1]);
    parts.push(
      svg,
      `<text x="${round(left + panelWidth / 2)}" y="${top - 6}" font-size="12.5" font-weight="600" text-anchor="middle" fill="#111">${escapeXml(panel.title)}</text>`,
    );
    if (spec.vline !== undefined) {
      const x = round(frame.px(spec.vline.x));
      parts.push(
        `<line x1="${x}" y1="${top}" x2="${x}" y2="${top + box.height}" stroke="#333" stroke-width="1.2" stroke-dasharray="5 4"><title>${escapeXml(spec.vline.label)}</title></line>`,
      );
    }
    panel.dots.forEach((dots, r) => {
      const center = top + r * rowHeight + rowHeight / 2;
      const spread = Math.min(4, (rowHeight - 8) / Math.max(spec.groups.length, 1));
      if (dots.length === 0 && panel.notes?.[r] !== undefined) {
        parts.push(`<text x="${round(left + 6)}" y="${center + 4}" font-size="10.5" fill="#888">${escapeXml(panel.notes[r]!)}</text>`);
      }
      for (const dot of dots) {
        const cx = round(frame.px(Math.min(Math.max(dot.x, xr[0]), xr[1])));
        const cy = round(center + (dot.group - (spec.groups.length - 1) / 2) * spread);
        parts.push(
          `<circle cx="${cx}" cy="${cy}" r="4.2" fill="${spec.groups[dot.group]!.color}" stroke="#fff" stroke-width="1"><title>${escapeXml(dot.title)}</title></circle>`,
        );
        if (dot.label !== undefined) {
          const right = cx + 40 < left + panelWidth;
          parts.push(
            `<text x="${right ? cx + 7 : cx - 7}" y="${cy + 4}" font-size="10.5" text-anchor="${right ? 'start' : 'end'}" fill="#333">${escapeXml(dot.label)}</text>`,
          );
        }
      }
    });
  });
  return wrap(spec.width, height, head.svg + lg.svg + parts.join(''));
}

let clipCounter = 0;

function wrap(width: number, height: number, body: string): string {
  const clip = `clip${++clipCounter}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT}>${body
    .replace('__H__', String(height - 1))
    .replace(/__CLIP__/g, clip)}</svg>`;
}
