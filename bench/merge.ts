/**
 * Many results files, one table: a row per device (the benchmark page's
 * downloads and results.json alike), fourfold's MB/s and speedup over the
 * fastest peer of the same run, then each device's details:
 *
 *   npm run bench:merge -- a.json b.json ... [--out=DIR]
 *
 * --tables: the files are runs of one machine, and the output is
 * docs/performance.md's and the README's tables, each cell the median of a
 * case's samples pooled over the runs (one run can catch a slow period for
 * one library only; a pool of two moves less than either).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { median, megabytesPerSecond } from './core/stats.js';
import { engineLabel, parseReport, type EngineReport, type Report } from './report/json.js';
import { reportScalingPoints } from './report/scaling.js';
import { bestPeer, formatRate, formatSize, formatTime, summarySizes } from './report/summary.js';

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
  const ours = engine.cases.find((c) => c.part === 'sizes' && c.op === op && c.size === size && c.library === 'fourfold' && c.mbps !== undefined);
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

/** [op, size, peer, target]: a table's rows; 64-byte cells show the time per call, the others MB/s. */
type Row = readonly [op: string, size: number, peer: string | undefined, target?: string];
const KB64 = 65536;
const MIB = 1 << 20;
/** docs/performance.md's table, a column per row here and a row per engine. */
const ENGINE_COLUMNS: readonly Row[] = [
  ['chacha20', KB64, 'sodium'],
  ['chacha20', 64, 'sodium'],
  ['xchacha20poly1305-encrypt', KB64, 'sodium'],
  ['poly1305', KB64, 'sodium'],
  ['salsa20', KB64, 'sodium'],
  ['xsalsa20poly1305-encrypt', KB64, 'sodium'],
  ['secretstream-push', KB64, 'sodium'],
  ['blake3', MIB, 'hash-wasm'],
  ['blake3', 64, 'hash-wasm'],
  ['serpent-ctr-encrypt', KB64, 'mipher'],
  ['serpent-cbc-encrypt', KB64, 'mipher'],
];
/** The README's table, from Node's runs: fourfold as Node runs it by default ('fourfold (native)' where timed), its fastest JavaScript peer, node:crypto. */
const README_ROWS: readonly Row[] = [
  ...(
    ['chacha20', 'chacha20', 'chacha20poly1305-encrypt', 'xchacha20poly1305-encrypt', 'poly1305', 'xsalsa20poly1305-encrypt', 'secretstream-push'] as const
  ).map((op, i): Row => [op, i === 1 ? 64 : KB64, 'sodium']),
  ['blake3', MIB, 'hash-wasm'],
  ['serpent-ctr-encrypt', KB64, 'mipher'],
];
const PEER_LABELS: Record<string, string> = { sodium: 'libsodium-wrappers', 'hash-wasm': 'hash-wasm', mipher: 'mipher (pure JS)' };
/** fourfold's speed targets in Node 20: the peer's time over fourfold's it aims for, or a rate where no peer is as fast. */
const TARGETS: readonly Row[] = [
  ['chacha20', 64, 'sodium', '1.5×'],
  ['chacha20', KB64, 'sodium', '3×'],
  ['xchacha20poly1305-encrypt', 64, 'sodium', '1.5×'],
  ['xchacha20poly1305-encrypt', KB64, 'sodium', '2.5×'],
  ['chacha20poly1305-encrypt', MIB, 'sodium', '2.5×'],
  ['poly1305', KB64, 'sodium', '1.6×'],
  ['blake3', 64, 'hash-wasm', '1.3×'],
  ['blake3', MIB, 'hash-wasm', '2.5×'],
  ['salsa20', KB64, 'sodium', '4.5×'],
  ['xsalsa20poly1305-encrypt', KB64, 'sodium', '3×'],
  ['secretstream-push', KB64, 'sodium', '2.5×'],
  ['serpent-ctr-encrypt', KB64, undefined, '250 MB/s'],
  ['serpent-cbc-decrypt', KB64, undefined, '250 MB/s'],
  ['serpent-cbc-encrypt', KB64, undefined, '80 MB/s'],
  ['serpent-ecb-encrypt', 64, undefined, '60 MB/s'],
  ['serpent-ctr-encrypt', 64, undefined, '60 MB/s'],
];
/** The native tier's target where node:crypto has ChaCha20 (Node, Deno): 'fourfold (native)' at least this share of the faster of node:crypto and the kernels. */
const NATIVE_OPS = ['chacha20poly1305-encrypt', 'chacha20poly1305-decrypt', 'xchacha20poly1305-encrypt', 'xchacha20poly1305-decrypt', 'chacha20', 'xchacha20'];
const NATIVE_TARGET = 0.95;

/** The tables of --tables, from runs of one machine. */
export function pooledTables(runs: readonly Report[]): string {
  const out: string[] = [];
  /** Median ns per call of one library on a 'sizes' case, over every run; undefined if never timed. */
  const ns = (engine: string, op: string, size: number, library: string): number | undefined => {
    const samples = runs
      .flatMap((run) => run.engines.filter((e) => e.engine.id === engine))
      .flatMap((e) => e.cases.filter((c) => c.part === 'sizes' && c.op === op && c.size === size && c.library === library && !c.error))
      .flatMap((c) => c.nsPerCall);
    return samples.length > 0 ? median(samples) : undefined;
  };
  const over = (theirs: number | undefined, mine: number) => (theirs === undefined ? '' : `${(theirs / mine).toFixed(2)}×`);
  const rate = (size: number, time: number) => formatRate(megabytesPerSecond(size, time));
  // Every engine of any run, in order, labelled as the first run with it reports it.
  const engines = new Map<string, string>();
  for (const e of runs.flatMap((run) => run.engines)) if (!engines.has(e.engine.id!)) engines.set(e.engine.id!, engineLabel(e));

  out.push(
    `| engine | ${ENGINE_COLUMNS.map(([op, size]) => `${op} ${formatSize(size)}`).join(' | ')} | ready() |`,
    `|---|${ENGINE_COLUMNS.map(() => '---:').join('|')}|---:|`,
  );
  for (const [id, label] of engines) {
    const cells = ENGINE_COLUMNS.map(([op, size, peer]) => {
      const mine = ns(id, op, size, 'fourfold');
      if (mine === undefined) return '';
      const ratio = ns(id, op, size, peer!) === undefined ? '' : ` · ${over(ns(id, op, size, peer!), mine)}`;
      return `${size === 64 ? formatTime(mine) : rate(size, mine)}${ratio}`;
    });
    const readyMs = runs.flatMap((run) => run.engines.filter((e) => e.engine.id === id && e.readyMs !== undefined).map((e) => e.readyMs!));
    out.push(`| ${label} | ${cells.join(' | ')} | ${readyMs.length > 0 ? `${median(readyMs).toFixed(1)} ms` : ''} |`);
  }

  out.push('', '| operation | size | fourfold | peer | ratio | node:crypto |', '|---|---:|---:|---|---:|---:|');
  for (const [op, size, peer] of README_ROWS) {
    const mine = ns('node', op, size, 'fourfold (native)') ?? ns('node', op, size, 'fourfold');
    if (mine === undefined) continue;
    const ours = size === 64 ? `${formatTime(mine)} a call` : `${rate(size, mine)} MB/s`;
    const row = [
      op.replaceAll('-', ' '),
      formatSize(size),
      ours,
      PEER_LABELS[peer!],
      over(ns('node', op, size, peer!), mine),
      over(ns('node', op, size, 'node'), mine),
    ];
    out.push(`| ${row.join(' | ')} |`);
  }

  out.push('', '| operation | size | fourfold | peer | ratio | target |', '|---|---:|---:|---:|---:|---:|');
  for (const [op, size, peer, target] of TARGETS) {
    const mine = ns('node', op, size, 'fourfold');
    if (mine === undefined) continue;
    const theirs = peer === undefined ? undefined : ns('node', op, size, peer);
    const peerCells = theirs === undefined ? ' | ' : `${rate(size, theirs)} MB/s (${peer}) | ${over(theirs, mine)}`;
    out.push(`| ${op} | ${formatSize(size)} | ${rate(size, mine)} MB/s${peer === undefined ? '' : ` (${formatTime(mine)})`} | ${peerCells} | ${target} |`);
  }

  /** fourfold (native)'s speed over the fastest of `rivals`, undefined where it or all of them were not timed. */
  const nativeRatio = (id: string, op: string, size: number, rivals: string[]): number | undefined => {
    const mine = ns(id, op, size, 'fourfold (native)');
    const theirs = rivals.map((library) => ns(id, op, size, library)).filter((t) => t !== undefined);
    return mine === undefined || theirs.length === 0 ? undefined : Math.min(...theirs) / mine;
  };
  const shown = (ratio: number) => (ratio < NATIVE_TARGET ? `**${ratio.toFixed(2)}**` : ratio.toFixed(2));
  for (const [id, label] of engines) {
    const native = runs.flatMap((run) => run.engines.filter((e) => e.engine.id === id)).flatMap((e) => e.cases);
    const sizes = [...new Set(native.filter((c) => c.part === 'sizes' && c.library === 'fourfold (native)').map((c) => c.size))].sort((a, b) => a - b);
    if (sizes.length === 0) continue;
    let below = 0;
    let belowJoined = 0;
    out.push(
      '',
      `${label}: fourfold (native) against the faster of node:crypto and the kernels (its speed over theirs; target ${NATIVE_TARGET}; encrypt: against node:crypto's tag apart / joined)`,
      '',
      `| size | ${NATIVE_OPS.join(' | ')} |`,
      `|---:|${NATIVE_OPS.map(() => '---:').join('|')}|`,
    );
    for (const size of sizes) {
      const cells = NATIVE_OPS.map((op) => {
        const ratio = nativeRatio(id, op, size, ['fourfold', 'node']);
        if (ratio === undefined) return '';
        const joined = ns(id, op, size, 'node (joined)') === undefined ? undefined : nativeRatio(id, op, size, ['fourfold', 'node (joined)']);
        if (ratio < NATIVE_TARGET) below++;
        if ((joined ?? ratio) < NATIVE_TARGET) belowJoined++;
        return joined === undefined ? shown(ratio) : `${shown(ratio)} / ${shown(joined)}`;
      });
      out.push(`| ${formatSize(size)} | ${cells.join(' | ')} |`);
    }
    out.push('', `cells below ${NATIVE_TARGET}: ${below}; counting encrypt against the joined array: ${belowJoined}`);
  }
  return out.join('\n') + '\n';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = args.find((a) => a.startsWith('--out='))?.slice(6);
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0 || args.some((a) => a.startsWith('--') && !a.startsWith('--out=') && a !== '--tables')) {
    process.stderr.write('usage: npm run bench:merge -- a.json b.json ... [--out=DIR]\n       npm run bench:merge -- --tables run1.json run2.json ...\n');
    process.exit(2);
  }
  const reports = files.map((file) => ({ file, report: parseReport(readFileSync(file, 'utf8')) }));
  if (args.includes('--tables')) return void process.stdout.write(pooledTables(reports.map((r) => r.report)));
  const all = devices(reports);
  process.stdout.write(mergedMarkdown(all));
  if (out === undefined) return;
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const report = mergedReport(all);
  writeFileSync(join(dir, 'results.json'), JSON.stringify(report) + '\n');
  process.stderr.write(`wrote ${join(dir, 'results.json')} (${summarySizes(report.settings.sizes).length} summary sizes, ${all.length} devices)\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
