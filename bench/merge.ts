/**
 * Many results files, one table: a row per device (per engine of a file),
 * as the speed tables of old were collected from the people who ran one
 * benchmark program on their machines.
 *
 *   npm run bench:merge -- a.json b.json ... [--out=DIR]
 *
 * Takes the benchmark page's "Download results" files and `npm run
 * bench`'s results.json alike (the same schema). Prints Markdown: for
 * chosen ops and sizes, fourfold's median MB/s and its speedup over the
 * fastest peer measured in the same run, then fourfold/parallel's speedup
 * on the most threads the run had, then each device's details. With
 * --out, also DIR/results.json and DIR/index.html: every device in one
 * report, a dot per device in its summary chart.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { engineLabel, parseReport, type EngineReport, type Report } from './report/json.js';
import { renderHtml } from './report/html.js';
import { reportScalingPoints } from './report/scaling.js';
import { bestPeer, formatRate, formatSize, summarySizes } from './report/summary.js';

/** [op, size]: the columns of the table. */
export const COLUMNS: readonly (readonly [string, number])[] = [
  ['chacha20', 64],
  ['chacha20', 65536],
  ['xchacha20poly1305-encrypt', 1024],
  ['xchacha20poly1305-encrypt', 65536],
  ['poly1305', 65536],
  ['salsa20', 65536],
  ['xsalsa20poly1305-encrypt', 65536],
  ['secretstream-push', 65536],
  ['serpent-ctr-encrypt', 65536],
  ['blake3', 64],
  ['blake3', 1 << 20],
];

/** The op whose scaling the table shows. */
const SCALING_OP = 'xchacha20poly1305-encrypt';

export interface Device {
  readonly label: string;
  readonly file: string;
  readonly report: Report;
  readonly engine: EngineReport;
}

/** One device per engine of each file, labelled by what the page or the runner knew of it. */
export function devices(files: readonly { file: string; report: Report }[]): Device[] {
  return files.flatMap(({ file, report }) =>
    report.engines.map((engine) => {
      const env = report.page?.environment;
      const label =
        env !== undefined
          ? `${env.browser} · ${[env.os, env.model].filter((x) => x !== undefined && x !== '').join(' ')} · ${env.cores} cores${env.crossOriginIsolated ? '' : ' · not isolated'}`
          : `${engineLabel(engine)} · ${report.machine.cpu} · ${report.machine.cores} cores`;
      return { label, file, report, engine };
    }),
  );
}

/** fourfold's MB/s and its speedup over the fastest peer at (op, size); empty when not timed there. */
function cell(engine: EngineReport, op: string, size: number): string {
  const ours = engine.cases.find(
    (c) => c.part === 'sizes' && c.op === op && c.size === size && c.library === 'fourfold' && c.offset === 0 && c.keys === 1 && c.mbps !== undefined,
  );
  if (ours === undefined) return '';
  const best = bestPeer(engine.cases, op, size);
  return `${formatRate(ours.mbps!.median)}${best === undefined ? '' : ` · ${best.ratio.toFixed(2)}×`}`;
}

/** fourfold/parallel's speedup for SCALING_OP on the most threads timed: '1.62× on 2 (shared 1.71×)'. */
function scalingCell(device: Device): string {
  const points = reportScalingPoints(device.report, device.engine).filter((p) => p.op === SCALING_OP);
  if (points.length === 0) return '';
  const most = Math.max(...points.map((p) => p.threads));
  const plain = points.find((p) => p.threads === most && !p.shared);
  const shared = points.find((p) => p.threads === most && p.shared);
  return `${plain === undefined ? '' : `${plain.speedup.toFixed(2)}×`} on ${most}${shared === undefined ? '' : ` (shared ${shared.speedup.toFixed(2)}×)`}`;
}

export function mergedMarkdown(all: readonly Device[]): string {
  const scalingSize = all.flatMap((d) => reportScalingPoints(d.report, d.engine)).find((p) => p.op === SCALING_OP)?.size;
  const scalingHeader = `all cores: ${SCALING_OP} ${scalingSize === undefined ? '' : formatSize(scalingSize)}`;
  const lines = [
    `| device | ${COLUMNS.map(([op, size]) => `${op} ${formatSize(size)}`).join(' | ')} | ${scalingHeader} |`,
    `|---|${COLUMNS.map(() => '---:').join('|')}|---:|`,
    ...all.map((d) => `| ${d.label} | ${COLUMNS.map(([op, size]) => cell(d.engine, op, size)).join(' | ')} | ${scalingCell(d)} |`),
    '',
    "Cells: fourfold's median MB/s (10^6 bytes/s) · the fastest peer's time per call over fourfold's in the same run (above 1×, fourfold is faster). " +
      `All cores: fourfold/parallel's speedup over the synchronous function on the most threads the run had (plain arrays; SharedArrayBuffer input and output in parentheses).`,
    '',
    '| device | date | run | browser or runtime | WebAssembly | isolated | file |',
    '|---|---|---|---|---|---|---|',
    ...all.map((d) => {
      const env = d.report.page?.environment;
      const wasm = env === undefined ? '' : env.simd ? 'SIMD' : env.webAssembly ? 'no SIMD' : 'none';
      const isolated = env === undefined ? '' : env.crossOriginIsolated ? 'yes' : 'no';
      return `| ${d.label} | ${d.report.date.slice(0, 10)} | ${d.report.profile}${d.report.status === 'complete' ? '' : ` (${d.report.status})`} | ${env?.userAgent ?? engineLabel(d.engine)} | ${wasm} | ${isolated} | ${basename(d.file)} |`;
    }),
  ];
  return lines.join('\n') + '\n';
}

/** Every device's engine in one report (for its HTML page): each engine named after its device. */
export function mergedReport(all: readonly Device[]): Report {
  const first = all[0]!.report;
  return {
    ...first,
    date: all.map((d) => d.report.date).sort()[0]!,
    durationSeconds: all.reduce((sum, d) => sum + d.report.durationSeconds, 0),
    status: all.every((d) => d.report.status === 'complete') ? 'complete' : 'interrupted',
    machine: {
      cpu: '',
      cores: Math.max(...all.map((d) => d.report.machine.cores)),
      platform: `${all.length} devices`,
      arch: '',
      osRelease: '',
      memoryBytes: 0,
      loadAverage: { start: [] },
    },
    runner: { argv: ['merge', ...all.map((d) => basename(d.file))] },
    profile: [...new Set(all.map((d) => d.report.profile))].join(', '),
    settings: { ...first.settings, sizes: [...new Set(all.flatMap((d) => d.report.settings.sizes))].sort((a, b) => a - b) },
    engines: all.map((d) => ({ ...d.engine, engine: { ...d.engine.engine, id: d.label } })),
    warnings: all.flatMap((d) => d.report.warnings.map((w) => `${d.label}: ${w}`)),
    page: undefined,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = args.find((a) => a.startsWith('--out='))?.slice(6);
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0 || args.some((a) => a.startsWith('--') && !a.startsWith('--out='))) {
    process.stderr.write('usage: npm run bench:merge -- a.json b.json ... [--out=DIR]\n');
    process.exit(2);
  }
  const all = devices(files.map((file) => ({ file, report: parseReport(readFileSync(file, 'utf8')) })));
  process.stdout.write(mergedMarkdown(all));
  if (out === undefined) return;
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const report = mergedReport(all);
  writeFileSync(join(dir, 'results.json'), JSON.stringify(report) + '\n');
  writeFileSync(join(dir, 'index.html'), renderHtml(report));
  process.stderr.write(
    `wrote ${join(dir, 'results.json')} and ${join(dir, 'index.html')} (${summarySizes(report.settings.sizes).length} summary sizes, ${all.length} devices)\n`,
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
