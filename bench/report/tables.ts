/**
 * The report's tables as plain rows of text, rendered as Markdown for
 * stdout and as HTML for index.html.
 */
import type { PageSize } from '../node/code-size.js';
import type { EngineReport, Report } from './json.js';
import { baselineOf, formatFit, formatRate, formatSize, formatTime, isFourfold, opSummarySizes } from './summary.js';

export interface Table {
  readonly title: string;
  readonly note?: string;
  readonly header: string[];
  readonly rows: string[][];
}

/** Per op: a row per size (opSummarySizes), a column per library; peers also show fourfold's speed-up over them. */
export function summaryTables(engine: EngineReport, sizes: readonly number[]): Table[] {
  const all = engine.cases.filter((c) => c.part === 'sizes');
  return [...new Set(all.map((c) => c.op))].map((op) => {
    const own = opSummarySizes(all, op, sizes);
    const ofOp = all.filter((c) => c.op === op && own.includes(c.size));
    const names = engine.libraries.map((l) => l.name).filter((name) => ofOp.some((c) => c.library === name));
    const find = (size: number, library: string) => ofOp.find((c) => c.size === size && c.library === library);
    const rows = own.map((size) => [
      formatSize(size),
      ...names.map((name) => {
        const c = find(size, name);
        if (c === undefined) return '—';
        if (c.capped !== undefined) return `capped (~${formatTime(c.capped.nsPerCall)})`;
        if (c.ns === undefined) return 'error';
        const base = baselineOf(name, names);
        const theirs = base === undefined || isFourfold(name) ? undefined : find(size, base)?.ns?.median;
        if (theirs === undefined) return `${formatRate(c.mbps!.median)} (${formatTime(c.ns.median)})`;
        return `${formatRate(c.mbps!.median)} · ${(c.ns.median / theirs).toFixed(2)}x`;
      }),
    ]);
    return { title: op, header: ['size', ...names], rows };
  });
}

export const summaryNote =
  "Median MB/s (10^6 bytes/s), with the time per call for fourfold's columns. For a peer, Nx is its time divided by fourfold's " +
  '(above 1: fourfold is faster); noble (output) is compared with fourfold (output). "capped (~t)": one call takes about t, too long ' +
  "for the minimum samples to fit the cap on one case, so it was not timed (the run's --cap).";

export function overheadTable(engine: EngineReport): Table | undefined {
  if (engine.sweeps.length === 0) return undefined;
  const names = engine.libraries.map((l) => l.name).filter((name) => engine.sweeps.some((s) => s.library === name));
  const rows = [...new Set(engine.sweeps.map((s) => s.op))].map((op) => [
    op,
    ...names.map((name) => {
      const s = engine.sweeps.find((x) => x.op === op && x.library === name);
      return s === undefined ? '—' : s.capped !== undefined ? 'capped' : formatFit(s.fit);
    }),
  ]);
  const lengths = engine.sweeps[0]!.lengths;
  return {
    title: 'Per-call overhead and cost per byte',
    note:
      `Least-squares fit of time = a + b × length over the medians of every length swept (${lengths[0]}..${lengths.at(-1)} bytes, stride ${engine.sweepStep}): ` +
      'a is the overhead of a call, b the cost of a byte. "0 ns (fit: −N)": the fit gave a negative overhead, which no call has; the overhead is ' +
      'below what the fit resolves (or the time is not linear in the length), so it is shown as 0 and b is fitted through the origin.',
    header: ['op', ...names],
    rows,
  };
}

/** fourfold's first ready() in every engine the run covered. */
export function readyTable(report: Report): Table | undefined {
  const rows = report.engines
    .filter((e) => e.readyMs !== undefined)
    .map((e) => [e.engine.id ?? e.engine.runtime, e.engine.version, `${e.readyMs!.toFixed(1)} ms`]);
  if (rows.length === 0) return undefined;
  return {
    title: "fourfold's ready() in each engine",
    note: 'The first ready() in a fresh page or process: decoding the embedded kernels, compiling and instantiating them. One measurement per engine and run.',
    header: ['engine', 'version', 'ready()'],
    rows,
  };
}

export function codeSizeTable(report: Report): Table | undefined {
  const size = report.codeSize;
  if (size === undefined) return undefined;
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const page = (p: PageSize, what: string) => [
    p.name,
    what,
    kb(p.bytes),
    kb(p.gzipBytes),
    p.budget === undefined ? '' : `${kb(p.budget)}${p.goal === undefined ? '' : ` (goal ${kb(p.goal)})`}`,
    [
      p.syncGzipBytes === undefined ? '' : `${(p.gzipBytes / p.syncGzipBytes).toFixed(2)}× the synchronous import`,
      // Absent from reports made before the pool had a worker per tier.
      (p.jsTierOnly ?? []).length === 0
        ? ''
        : `where the kernels cannot run, the js-tier worker (${kb(p.jsTierOnly.reduce((s, f) => s + f.gzipBytes, 0))} gzip) instead of the simd one`,
    ]
      .filter((s) => s !== '')
      .join('; '),
  ];
  return {
    title: 'Code size',
    note:
      'Each page imports one function and calls it (or imports all of an entry), built by a default vite build; its bytes are the files the page loads ' +
      '(scripts, the pool worker, assets), gzip -9 (where the engine cannot run the kernels, a page starts the js-tier worker of the pool instead of its simd one: ' +
      'the last column). Kernels: each WebAssembly module, and its generated file (hexadecimal text) gzipped. ' +
      '1 kB = 1000 bytes.',
    header: ['', 'what', 'raw', 'gzip', 'budget', ''],
    rows: [
      ...size.pages.map((p) => page(p, `${p.files.length} files`)),
      ...size.peers.map((p) => page(p, 'peer')),
      ...size.kernels.map((k) => [
        `${k.kernel} kernel (WebAssembly)`,
        k.file,
        kb(k.wasmBytes),
        kb(k.wasmGzipBytes),
        '',
        `as embedded: ${kb(k.jsGzipBytes)} gzip`,
      ]),
    ],
  };
}
