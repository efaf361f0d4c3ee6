/**
 * index.html: one self-contained page (inline CSS and SVG, no script, no
 * network): first one screen with the summary chart (fourfold against its
 * fastest peer, per op, size and engine), then the run's context, the
 * summary tables, one section per op with its charts for every engine,
 * and the setup and code-size tables.
 */
import { alignCharts, enginesChart, keysChart, perByteChart, ratioChart, stepCharts, summaryChart, throughputChart } from './charts.js';
import { engineLabel, type EngineReport, type Report } from './json.js';
import { chartSizes, formatBytes, summarySizes } from './summary.js';
import { escapeXml as esc } from './svg.js';
import { parallelSummaryChart, parallelTables, poolNote, workerChart } from './parallel.js';
import { codeSizeTable, overheadTable, readyTable, setupTable, summaryNote, summaryTables, type Table } from './tables.js';

const WIDE = 1340;
const HALF = 662;
const SMALL = 440;

const css = `
body { font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1b1b1b; margin: 0; background: #fafafa; }
main { max-width: ${WIDE + 40}px; margin: 0 auto; padding: 20px; }
h1 { font-size: 24px; margin: 8px 0 4px; } h2 { font-size: 20px; margin: 32px 0 8px; border-bottom: 2px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 6px; } h4 { font-size: 14px; margin: 14px 0 4px; color: #333; }
p.note { color: #555; margin: 4px 0 8px; max-width: 1100px; }
table { border-collapse: collapse; margin: 6px 0 14px; background: #fff; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, td.text { text-align: left; } th { background: #f0f2f5; }
td.text { white-space: normal; max-width: 320px; overflow-wrap: anywhere; } td.text:first-child { white-space: nowrap; max-width: none; }
.scroll { overflow-x: auto; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; margin: 8px 0 18px; }
.charts svg { background: #fff; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
dl.meta dt { color: #555; } dl.meta dd { margin: 0; }
nav a { margin-right: 12px; } code { background: #eef; padding: 0 3px; }
p.status { background: #fff3cd; border: 1px solid #e0c36a; padding: 6px 10px; margin: 6px 0; font-weight: 600; }
details { margin: 8px 0; } summary { cursor: pointer; color: #444; }
`;

function table(t: Table, level = 'h3'): string {
  return [
    `<${level}>${esc(t.title)}</${level}>`,
    t.note === undefined ? '' : `<p class="note">${esc(t.note)}</p>`,
    '<div class="scroll"><table><thead><tr>',
    ...t.header.map((h) => `<th>${esc(h)}</th>`),
    '</tr></thead><tbody>',
    // Figures align right, words (a file name, an error) left.
    ...t.rows.map((row) => `<tr>${row.map((cell) => `<td${/^[\d—]|^$/.test(cell) ? '' : ' class="text"'}>${esc(cell)}</td>`).join('')}</tr>`),
    '</tbody></table></div>',
  ].join('');
}

const anchor = (op: string) => `op-${op.replace(/[^a-z0-9]+/gi, '-')}`;

function context(report: Report): string {
  const m = report.machine;
  const s = report.settings;
  const load = `${m.loadAverage.start.map((l) => l.toFixed(2)).join(' / ')}${m.loadAverage.end === undefined ? '' : ` at the start, ${m.loadAverage.end.map((l) => l.toFixed(2)).join(' / ')} at the end`}`;
  const ran = (part: string) => s.parts.includes(part as (typeof s.parts)[number]);
  const command =
    report.runner.page !== undefined
      ? `the benchmark page, ${report.page?.mode ?? ''} run`
      : report.runner.argv.length === 0
        ? 'npm run bench'
        : `npm run bench -- ${report.runner.argv.join(' ')}`;
  const rows: [string, string][] = [
    ['date', `${report.date} (${report.durationSeconds} s, profile ${report.profile})`],
    ['machine', machineText(m)],
    // A web page sees no load average.
    ...(m.loadAverage.start.length === 0 ? [] : [['load average', `${load} (1, 5, 15 min)`] as [string, string]]),
    ['command', command],
    [
      'cap',
      (s.capMs > 0 ? `${s.capMs / 1000} s per case or sweep` : 'none') +
        Object.entries(s.opCapMs ?? {})
          .map(([op, ms]) => `; ${op}: ${ms / 1000} s`)
          .join(''),
    ],
  ];
  if (ran('sizes')) rows.push(['summary sizes', s.sizes.join(', ')]);
  if (ran('sweep')) rows.push(['sweep', `${s.sweep.from}..${s.sweep.to} by ${s.sweep.step}, ${s.timing.sweep.passes} passes`]);
  if (ran('align')) rows.push(['alignment', `byteOffsets ${s.offsets.join(', ')} against 0, at ${s.alignSizes.join(', ')} bytes`]);
  if (ran('keys')) rows.push(['keys', `${s.keyCounts.join(', ')} keys, ${s.keySize}-byte messages`]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

/** 'Intel Xeon, 2 cores, 8.3 GB memory, linux x64 6.1'; a page's machine has no CPU name, and perhaps no memory size. */
export function machineText(m: Report['machine']): string {
  const memory = m.memoryBytes > 0 ? `, ${formatBytes(m.memoryBytes)} memory` : '';
  return `${m.cpu === '' ? '' : `${m.cpu}, `}${m.cores} cores${memory}, ${[m.platform, m.arch, m.osRelease].filter((x) => x !== '').join(' ')}`;
}

function enginesTable(report: Report): string {
  const names = [...new Set(report.engines.flatMap((e) => e.libraries.map((l) => l.name)))];
  const t: Table = {
    title: 'Engines and libraries',
    header: ['', ...report.engines.map(engineLabel)],
    rows: [
      [
        'details',
        ...report.engines.map((e) =>
          Object.entries(e.engine.details)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
        ),
      ],
      [
        'clock granularity',
        ...report.engines.map(
          (e) =>
            `${e.timer.granularityNs.toFixed(0)} ns${e.timer.crossOriginIsolated === undefined ? '' : e.timer.crossOriginIsolated ? ' (isolated)' : ' (not isolated)'}`,
        ),
      ],
      ['run time', ...report.engines.map((e) => `${e.seconds.toFixed(0)} s`)],
      ...names.map((name) => [name, ...report.engines.map((e) => e.libraries.find((l) => l.name === name)?.version ?? '—')]),
    ],
  };
  return table(t);
}

function opSection(report: Report, op: string): string {
  const parts: string[] = [`<h2 id="${anchor(op)}">${esc(op)}</h2>`];
  const engines = report.engines.map((e) => ({ name: engineLabel(e), report: e }));
  const across = enginesChart(engines, op, HALF);
  if (across !== undefined) parts.push(`<div class="charts">${across}</div>`);
  for (const { name, report: engine } of engines) {
    if (report.engines.length > 1) parts.push(`<h3>${esc(name)}</h3>`);
    const pair = [throughputChart(engine, op, name, HALF), ratioChart(engine, op, name, HALF)].filter((c) => c !== undefined);
    if (pair.length > 0) parts.push(`<div class="charts">${pair.join('')}</div>`);
    const perByte = perByteChart(engine, op, name, WIDE);
    if (perByte !== undefined) {
      parts.push(`<div class="charts">${perByte}</div>`);
      parts.push(
        `<h4>Block and SIMD-group steps: time per call over the first KiB</h4>`,
        `<p class="note">Median ns per call at each length (dotted guides every 64 bytes), with the least-squares line over the whole sweep. A step at a guide is one more 64-byte block; a kernel that works on groups of blocks (fourfold: 4 blocks, 256 bytes, and 8 blocks, 512 bytes) steps higher where a group starts.</p>`,
        `<div class="charts">${stepCharts(engine, op, SMALL).join('')}</div>`,
      );
    }
    // Anchors per chart group, for links (and screenshots) straight to them.
    const id = `${anchor(op)}-${engines.indexOf(engines.find((e) => e.report === engine)!)}`;
    const align = alignCharts(engine, op, HALF);
    if (align.length > 0) parts.push(`<div class="charts" id="${id}-align">${align.join('')}</div>`);
    const keys = keysChart(engine, op, name, HALF);
    if (keys !== undefined) parts.push(`<div class="charts" id="${id}-keys">${keys}</div>`);
  }
  return parts.join('\n');
}

/** fourfold/parallel in each engine: the pool, the speedups, by worker count, the model, the longest task. */
function parallelSection(engines: readonly { name: string; report: EngineReport }[], cores: number): string {
  const parts = [`<h2 id="parallel">fourfold/parallel</h2>`];
  for (const { name, report } of engines) {
    const tables = parallelTables(report, cores);
    const note = poolNote(report);
    if (tables.length === 0 && note === undefined) continue;
    parts.push(`<h3>${esc(name)}</h3>`);
    if (note !== undefined) parts.push(`<p class="note">${esc(note)}</p>`);
    const [speedups, ...rest] = tables;
    if (speedups !== undefined) parts.push(table(speedups, 'h4'));
    const chart = workerChart(report, name, WIDE);
    if (chart !== undefined) parts.push(`<div class="charts">${chart}</div>`);
    parts.push(...rest.map((t) => table(t, 'h4')));
  }
  return parts.join('\n');
}

/** One line under the title: when, where, how long, and whether the run finished. */
function headline(report: Report): string {
  const m = report.machine;
  const status =
    report.status === 'complete'
      ? ''
      : report.status === 'interrupted'
        ? '<p class="status">Interrupted (Ctrl-C): only the results finished by then are shown.</p>'
        : '<p class="status">Incomplete: written while the run was going, and it did not finish (or is still running).</p>';
  const engines = report.engines.map((e) => `${engineLabel(e)}${e.interrupted === true ? ' (unfinished)' : ''}`).join(', ');
  return (
    status +
    `<p class="note">${esc(report.date.slice(0, 16).replace('T', ' '))} UTC · ${esc(m.cpu === '' ? m.platform : m.cpu)}, ${m.cores} cores · ${esc(engines || 'no engine')} · ` +
    `profile ${esc(report.profile)}, ${report.durationSeconds.toFixed(0)} s${m.loadAverage.start.length === 0 ? '' : ` · load ${m.loadAverage.start[0]!.toFixed(1)}`}</p>`
  );
}

export function renderHtml(report: Report): string {
  const ops = [...new Set(report.engines.flatMap((e) => [...e.cases.map((c) => c.op), ...e.sweeps.map((s) => s.op)]))];
  const sizes = summarySizes(report.settings.sizes);
  const named = report.engines.map((e) => ({ name: engineLabel(e), report: e }));
  // With a panel for the sizes of the ops timed at none of the summary's (scrypt's in the default run).
  const first = summaryChart(
    named,
    chartSizes(
      report.engines.flatMap((e) => e.cases),
      sizes,
    ),
    WIDE,
  );
  // A run that timed fourfold/parallel opens with its speedups.
  const parallel = parallelSummaryChart(named, WIDE);
  const body: string[] = [
    `<h1>fourfold benchmarks</h1>`,
    headline(report),
    parallel === undefined ? '' : `<div class="charts" id="parallel-chart">${parallel}</div>`,
    first === undefined ? '' : `<div class="charts" id="summary-chart">${first}</div>`,
    context(report),
    `<nav>${parallel === undefined ? '' : '<a href="#parallel">fourfold/parallel</a>'}${ops.map((op) => `<a href="#${anchor(op)}">${esc(op)}</a>`).join('')}<a href="#setup">setup and code size</a></nav>`,
    report.warnings.length === 0
      ? ''
      : `<details><summary>${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}</summary><ul>${report.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></details>`,
  ];
  if (report.engines.length > 0) body.push(enginesTable(report));
  if (parallel !== undefined) body.push(parallelSection(named, report.machine.cores));
  for (const engine of report.engines) {
    body.push(`<h2>Summary: ${esc(engineLabel(engine))}</h2>`, `<p class="note">${esc(summaryNote)}</p>`);
    body.push(...summaryTables(engine, sizes).map((t) => table(t, 'h3')));
    const overhead = overheadTable(engine);
    if (overhead !== undefined) body.push(table(overhead));
  }
  for (const op of ops) body.push(opSection(report, op));
  body.push(`<h2 id="setup">Setup and code size</h2>`);
  for (const t of [readyTable(report), setupTable(report), codeSizeTable(report)]) if (t !== undefined) body.push(table(t));
  body.push(`<p class="note">Every sample is in results.json next to this page. Method: bench/README.md. MB = 10^6 bytes; KiB = 1024 bytes.</p>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fourfold benchmarks ${esc(report.date.slice(0, 10))}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${css}</style></head>
<body><main>
${body.join('\n')}
</main></body></html>
`;
}
