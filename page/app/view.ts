/**
 * Draws a result (the page's own, or one from a shared link) with the
 * report's pieces (bench/report): the summary chart first (fourfold
 * against its fastest peer per op and size), then one table of every
 * column, scrypt's and Argon2id's charts and tables, the platform's reference line, and
 * the all-cores curve. Charts
 * are drawn at the width they are shown at, so a phone gets charts made
 * for its screen rather than shrunken ones.
 */
import { engineLabel, type EngineReport, type Report } from '../../bench/report/json.js';
import { reportScalingPoints } from '../../bench/report/scaling.js';
import { bestPeer, formatRate, formatSize, formatTime, isFourfold, type CaseSummary } from '../../bench/report/summary.js';
import { scalingChart, summaryChart } from './charts.js';
import { escapeXml as esc } from './svg.js';
import type { Environment, Notice } from './environment.js';
import { AGE_OPS, AGE_SIZES, ARGON2_SIZES, PEER_PACKAGES, REFERENCE_OPS, SCRYPT_SIZES, SIZES } from './plan.js';

const yes = (b: boolean) => (b ? 'yes' : 'no');

/** The environment panel: the browser's account of itself, and what the run found (fourfold's tier, the clock). */
export function environmentHtml(env: Environment, engine?: EngineReport): string {
  const fourfold = engine?.libraries.find((l) => l.name === 'fourfold') ?? engine?.libraries.find((l) => l.name === 'fourfold-js');
  const rows: [string, string][] = [
    ['browser', `${env.browser} (${env.engine})`],
    ['operating system', [env.os, env.model, env.architecture].filter((x) => x !== undefined && x !== '').join(', ')],
    ['logical cores', String(env.cores)],
    ...(env.memoryGiB === undefined ? [] : [['memory', `${env.memoryGiB} GiB or more`] as [string, string]]),
    ['WebAssembly', env.webAssembly ? (env.simd ? 'yes, with SIMD' : 'yes, without SIMD') : 'no'],
    ['Web Workers', yes(env.workers)],
    ['threads with shared memory', env.sharedMemory ? 'yes (SharedArrayBuffer)' : 'no'],
    ['cross-origin isolated', yes(env.crossOriginIsolated)],
    [
      'fourfold',
      fourfold === undefined
        ? 'not loaded yet'
        : `${fourfold.version.replace(/^fourfold /, '')}${fourfold.name === 'fourfold' ? '' : ' (the simd tier is not available)'}`,
    ],
  ];
  if (engine !== undefined && engine.timer.granularityNs > 0) rows.push(['clock step', formatTime(engine.timer.granularityNs)]);
  return `<dl class="env">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

export function noticesHtml(notices: readonly Notice[]): string {
  return notices.map((n) => `<p class="notice ${n.level}">${esc(n.text)}</p>`).join('');
}

const sizesCases = (engine: EngineReport) => engine.cases.filter((c) => c.part === 'sizes' && c.offset === 0 && c.keys === 1) as CaseSummary[];

/** What a summary chart shows: its title, its sizes, and its explanation where not the report's. */
interface SummaryOf {
  readonly title: string;
  readonly sizes: readonly number[];
  readonly subtitle?: string;
}

/**
 * The summary chart at `width` (by default of the one-core part's sizes):
 * one panel per size side by side, or on a narrow screen one chart per
 * size.
 */
export function summaryHtml(
  engine: EngineReport,
  name: string,
  width: number,
  of: SummaryOf = { title: 'fourfold against its fastest peer', sizes: SIZES },
): string {
  const sizes = of.sizes.filter((size) => engine.cases.some((c) => c.size === size));
  const engines = [{ name, report: engine }];
  if (width >= 760) return summaryChart(engines, sizes, width, { title: of.title, ...(of.subtitle === undefined ? {} : { subtitle: of.subtitle }) }) ?? '';
  // A narrow screen: a chart per size, the explanation once.
  const subtitle = "The fastest peer's median time per call divided by fourfold's. Right of the dashed line, fourfold is faster.";
  return sizes
    .map((size, i) => summaryChart(engines, [size], width, { title: `${of.title}, ${formatSize(size)}`, subtitle: i === 0 ? subtitle : '' }) ?? '')
    .join('');
}

/**
 * A column's cell: MB/s, and under it for a peer its time over fourfold's
 * (above 1×, fourfold is faster); with `time`, the time per call, and the
 * ratio under every column but fourfold's own.
 */
function cell(c: CaseSummary | undefined, fourfold: CaseSummary | undefined, time = false): string {
  const td = (html: string, tooltip: string) => `<td title="${esc(tooltip)}">${html}</td>`;
  if (c === undefined) return td('—', 'not timed');
  if (c.capped !== undefined) {
    return td(
      `capped<span class="ratio">~${esc(formatTime(c.capped.nsPerCall))}</span>`,
      `one call takes about ${formatTime(c.capped.nsPerCall)}: too long for the run's cap on one case, so not timed`,
    );
  }
  if (c.ns === undefined) return td('error', c.error ?? 'failed');
  const checked = c.checkedBy === undefined ? '' : c.checkedBy === c.library ? '; its output is the reference' : `; output checked against ${c.checkedBy}`;
  const title = `${formatTime(c.ns.median)} per call (quartiles ${formatTime(c.ns.q1)}–${formatTime(c.ns.q3)})${checked}`;
  const figure = esc(time ? formatTime(c.ns.median) : formatRate(c.mbps!.median));
  if (c === fourfold || fourfold?.ns === undefined || (!time && isFourfold(c.library))) return td(figure, title);
  return td(`${figure}<span class="ratio">${(c.ns.median / fourfold.ns.median).toFixed(2)}×</span>`, title);
}

/** The header of a column: fourfold's tiers by name. */
const columnName = (name: string) => (name === 'fourfold' ? 'fourfold (simd)' : name === 'fourfold-js' ? 'fourfold (js)' : name);

/** One table: a row per op and size, a column per library, and fourfold against its fastest peer. */
export function tableHtml(engine: EngineReport): string {
  const cases = sizesCases(engine).filter((c) => SIZES.includes(c.size) && !REFERENCE_OPS.includes(c.op));
  const ops = [...new Set(cases.map((c) => c.op))];
  const names = engine.libraries.map((l) => l.name).filter((name) => cases.some((c) => c.library === name));
  const header = names.map(columnName);
  const rows: string[] = [];
  for (const op of ops) {
    const sizes = SIZES.filter((size) => cases.some((c) => c.op === op && c.size === size));
    for (const [i, size] of sizes.entries()) {
      const find = (library: string) => cases.find((c) => c.op === op && c.size === size && c.library === library);
      const ours = find('fourfold') ?? find('fourfold-js');
      const best = bestPeer(cases, op, size);
      const vs = best === undefined ? '—' : `${best.ratio.toFixed(2)}× (${best.peer})`;
      const cells = names.map((name) => cell(find(name), ours));
      rows.push(
        `<tr${i === 0 ? ' class="first"' : ''}><th scope="row">${i === 0 ? esc(op) : ''}</th><td class="size">${esc(formatSize(size))}</td>${cells.join('')}<td class="vs">${esc(vs)}</td></tr>`,
      );
    }
  }
  return (
    `<div class="scroll"><table class="results"><thead><tr><th>operation</th><th>size</th>${header.map((h) => `<th>${esc(h)}</th>`).join('')}<th>vs fastest peer</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** scrypt's ops, and every size the page times them at. */
const SCRYPT_OPS = Object.keys(SCRYPT_SIZES.full);
const SCRYPT_SIZES_ALL = [...new Set(Object.values(SCRYPT_SIZES.full).flat())].sort((a, b) => a - b);

/** 'scrypt-p4' as the table says it: 'scrypt, p = 4'. */
const scryptRow = (op: string) => `scrypt, p = ${/-p(\d+)$/.exec(op)?.[1] ?? '1'}`;

/** A table of the large calls' part: which ops and sizes, and how its rows, sizes and cells read. */
interface LargeTable {
  readonly ops: readonly string[];
  readonly sizes: readonly number[];
  /** The table's class beside 'results', and its size column's header. */
  readonly kind: string;
  readonly sizeHeader: string;
  readonly opLabel: (op: string) => string;
  readonly sizeLabel: (size: number) => string;
  /** Time per call (else MB/s) in the cells. */
  readonly time: boolean;
}

/** A row per op and size, a column per library, each peer against fourfold's simd tier, and the fastest peer. */
function largeTableHtml(engine: EngineReport, t: LargeTable): string {
  const cases = sizesCases(engine).filter((c) => t.ops.includes(c.op) && t.sizes.includes(c.size));
  if (cases.length === 0) return '';
  const names = engine.libraries.map((l) => l.name).filter((name) => cases.some((c) => c.library === name));
  const rows = t.ops.flatMap((op) =>
    t.sizes
      .filter((size) => cases.some((c) => c.op === op && c.size === size))
      .map((size, i) => {
        const find = (library: string) => cases.find((c) => c.op === op && c.size === size && c.library === library);
        const ours = find('fourfold') ?? find('fourfold-js');
        const best = bestPeer(cases, op, size);
        const vs = best === undefined ? '—' : `${best.ratio.toFixed(2)}× (${best.peer})`;
        return (
          `<tr${i === 0 ? ' class="first"' : ''}><th scope="row">${i === 0 ? esc(t.opLabel(op)) : ''}</th><td class="size">${esc(t.sizeLabel(size))}</td>` +
          `${names.map((name) => cell(find(name), ours, t.time)).join('')}<td class="vs">${esc(vs)}</td></tr>`
        );
      }),
  );
  return (
    `<div class="scroll"><table class="results ${t.kind}"><thead><tr><th>operation</th><th>${esc(t.sizeHeader)}</th>${names.map((n) => `<th>${esc(columnName(n))}</th>`).join('')}<th>vs fastest peer</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** scrypt's table: a row per op and lane size (its N), the time per call and its ratio to fourfold's simd tier's. */
export const scryptTableHtml = (engine: EngineReport): string =>
  largeTableHtml(engine, {
    ops: SCRYPT_OPS,
    sizes: SCRYPT_SIZES_ALL,
    kind: 'scrypt',
    sizeHeader: 'memory a lane',
    opLabel: scryptRow,
    sizeLabel: (size) => `${formatSize(size)}, N = 2^${Math.log2(size / 1024)}`,
    time: true,
  });

/** Argon2id's ops, and every memory the page times them at. */
const ARGON2_OPS = Object.keys(ARGON2_SIZES.full);
const ARGON2_SIZES_ALL = [...new Set(Object.values(ARGON2_SIZES.full).flat())].sort((a, b) => a - b);

/** 'argon2id-t3-p4' as the table says it: 'argon2id, t = 3, p = 4'. */
const argon2Row = (op: string) => `argon2id, t = ${/-t(\d+)/.exec(op)?.[1] ?? '?'}, p = ${/-p(\d+)$/.exec(op)?.[1] ?? '1'}`;

/** Argon2id's table: a row per op and memory (its m in KiB), the time per call and its ratio to fourfold's simd tier's. */
export const argon2TableHtml = (engine: EngineReport): string =>
  largeTableHtml(engine, {
    ops: ARGON2_OPS,
    sizes: ARGON2_SIZES_ALL,
    kind: 'argon2',
    sizeHeader: 'memory',
    opLabel: argon2Row,
    sizeLabel: (size) => `${formatSize(size)}, m = ${size / 1024}`,
    time: true,
  });

/** Only Argon2id's cases: its chart's sizes (64 MiB) are the all-cores part's too, whose ops are no password hashes. */
const argon2Only = (engine: EngineReport): EngineReport => ({ ...engine, cases: engine.cases.filter((c) => ARGON2_OPS.includes(c.op)) });

const AGE_SIZES_ALL = [...new Set(Object.values(AGE_SIZES).flat())].sort((a, b) => a - b);

/** age's table: a row per op and file size, MB/s of plaintext and each peer's time over fourfold's simd tier's. */
export const ageTableHtml = (engine: EngineReport): string =>
  largeTableHtml(engine, { ops: AGE_OPS, sizes: AGE_SIZES_ALL, kind: 'age', sizeHeader: 'file', opLabel: (op) => op, sizeLabel: formatSize, time: false });

/** The platform's own cryptography, for scale: other algorithms, so never compared with fourfold. */
export function referenceHtml(engine: EngineReport): string {
  const cases = sizesCases(engine).filter((c) => REFERENCE_OPS.includes(c.op));
  if (cases.length === 0) return '';
  const names = engine.libraries.map((l) => l.name).filter((name) => cases.some((c) => c.library === name));
  const rows = REFERENCE_OPS.flatMap((op) =>
    SIZES.filter((size) => cases.some((c) => c.op === op && c.size === size)).map((size, i) => {
      const cells = names.map((name) =>
        cell(
          cases.find((c) => c.op === op && c.size === size && c.library === name),
          undefined,
        ),
      );
      return `<tr${i === 0 ? ' class="first"' : ''}><th scope="row">${i === 0 ? esc(op) : ''}</th><td class="size">${esc(formatSize(size))}</td>${cells.join('')}</tr>`;
    }),
  );
  return (
    `<div class="scroll"><table class="results reference"><thead><tr><th>operation</th><th>size</th>${names.map((n) => `<th>${esc(n === 'webcrypto' ? 'WebCrypto' : n)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** The all-cores curve, a table of its points, and what could not be measured. */
export function scalingHtml(report: Report, engine: EngineReport | undefined, width: number): string {
  const parts: string[] = [];
  const scaling = report.page?.scaling;
  if (scaling?.error !== undefined) parts.push(`<p class="notice warn">${esc(`No all-cores figures: ${scaling.error}.`)}</p>`);
  if (engine === undefined) return parts.join('');
  const points = reportScalingPoints(report, engine);
  const chart = scalingChart(points, { title: 'fourfold/parallel: speedup against threads', width });
  if (chart === undefined) return parts.join('');
  parts.push(`<div class="chart">${chart}</div>`);
  const threads = [...new Set(points.map((p) => p.threads))].sort((a, b) => a - b);
  const missing = (scaling?.threads ?? []).filter((n) => !threads.includes(n));
  if (missing.length > 0)
    parts.push(`<p class="notice warn">${esc(`Not measured: ${missing.join(', ')} threads (the run stopped first, or the workers did not start).`)}</p>`);
  const lines = [...new Set(points.map((p) => `${p.op} ${p.shared}`))];
  const rows = lines.map((line) => {
    const own = points.filter((p) => `${p.op} ${p.shared}` === line);
    return `<tr><th scope="row">${esc(own[0]!.op)}</th><td>${own[0]!.shared ? 'shared' : 'plain'}</td>${threads
      .map((n) => {
        const p = own.find((q) => q.threads === n);
        return p === undefined ? '<td>—</td>' : `<td title="${esc(formatTime(p.ns))}">${p.speedup.toFixed(2)}×</td>`;
      })
      .join('')}</tr>`;
  });
  const size = points[0]!.size;
  parts.push(
    `<div class="scroll"><table class="results"><caption>${esc(`Speedup over the synchronous function, ${formatSize(size)}, by threads`)}</caption>` +
      `<thead><tr><th>operation</th><th>memory</th>${threads.map((n) => `<th>${n}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
  );
  return parts.join('');
}

/** The whole result section; `shared`: a result from a link, drawn as someone else's. */
export function resultHtml(report: Report, width: number, shared: boolean): string {
  const engine = report.engines[0];
  const parts: string[] = [];
  if (shared) {
    const env = report.page?.environment;
    parts.push(
      `<p class="notice shared">${esc(
        `Someone else's result, from a shared link: ${env === undefined ? '' : `${env.browser} on ${env.os}, ${env.cores} logical cores, `}` +
          `${report.date.slice(0, 16).replace('T', ' ')} UTC, ${report.page?.mode ?? ''} run${report.status === 'complete' ? '' : ', stopped before the end'}. ` +
          'Nothing was run on this device; medians only (the samples are in the results file its owner can download).',
      )}</p>`,
    );
  } else if (report.status !== 'complete') {
    parts.push(`<p class="notice warn">Stopped before the end: only what finished is shown.</p>`);
  }
  if (engine === undefined) return parts.join('');
  const name = engineLabel(engine);
  parts.push(`<h2>fourfold against its fastest peer</h2>`, `<div class="chart">${summaryHtml(engine, name, width)}</div>`);
  parts.push(
    `<h2>Every column</h2>`,
    `<p class="note">Median MB/s (10<sup>6</sup> bytes per second). Under a peer's, its time per call divided by fourfold's simd tier's ` +
      `(above 1×, fourfold is faster); the last column is fourfold against the fastest peer. Hover or tap a cell for the time per call ` +
      `and what its bytes were checked against. Peers: ${esc(
        Object.entries(PEER_PACKAGES)
          .filter(([k]) => k !== 'webcrypto')
          .map(([k, v]) => (k === v ? k : `${k} = ${v}`))
          .join(', '),
      )}.</p>`,
    tableHtml(engine),
  );
  const scrypt = scryptTableHtml(engine);
  if (scrypt !== '') {
    parts.push(
      `<h2>Keys from passwords: scrypt</h2>`,
      `<div class="chart">${summaryHtml(engine, name, width, {
        title: 'scrypt: fourfold against its fastest peer',
        sizes: SCRYPT_SIZES_ALL,
        subtitle:
          "Per lane's memory: the fastest peer's median time per call divided by fourfold's (its simd tier, one thread). Right of the dashed line, fourfold is faster.",
      })}</div>`,
      `<p class="note">Median time per call to derive a 32-byte key with scrypt (r = 8). A lane works in 128 · r · N bytes; p = 4 is four lanes, ` +
        `which fourfold/parallel runs at once on the measuring thread and the pool's workers (on as many cores as there are, up to four), ` +
        `and every other column one after another. Under each column but fourfold's simd tier, its time per call divided by that tier's ` +
        `(above 1×, fourfold is faster). The bytes are checked against @noble/hashes'.</p>`,
      scrypt,
    );
  }
  const argon2 = argon2TableHtml(engine);
  if (argon2 !== '') {
    parts.push(
      `<h2>Keys from passwords: Argon2id</h2>`,
      `<div class="chart">${summaryHtml(argon2Only(engine), name, width, {
        title: 'Argon2id: fourfold against its fastest peer',
        sizes: ARGON2_SIZES_ALL,
        subtitle:
          "Per memory: the fastest peer's median time per call divided by fourfold's (its simd tier, one thread). Right of the dashed line, fourfold is faster.",
      })}</div>`,
      `<p class="note">Median time per call to derive a 32-byte tag with Argon2id (RFC 9106, version 0x13): OWASP's m = 19 MiB, t = 2, p = 1, and ` +
        `RFC 9106's m = 64 MiB, t = 3 on one lane and on four. A call fills m KiB and passes over them t times; p = 4 splits them into four lanes, ` +
        `which fourfold/parallel shares among the measuring thread and the pool's workers (as many cores as there are, up to four), ` +
        `and every other column works through on one thread. libsodium has no lanes parameter (its p is always 1), so it is timed at p = 1 only. ` +
        `Under each column but fourfold's simd tier, its time per call divided by that tier's (above 1×, fourfold is faster). ` +
        `The bytes are checked against @noble/hashes'.</p>`,
      argon2,
    );
  }
  const age = ageTableHtml(engine);
  if (age !== '') {
    parts.push(
      `<h2>Files: age</h2>`,
      `<p class="note">Median MB/s of plaintext through age files (C2SP age v1) to one X25519 recipient: one-shot (bytes to bytes) and streamed ` +
        `(64 KiB pieces in, as a file's stream comes). fourfold (parallel) seals and opens the chunks on the measuring thread and the pool's workers. ` +
        `Under each peer, its time per call divided by fourfold's simd tier's (above 1×, fourfold is faster). The plaintexts are checked against typage's ` +
        `(npm age-encryption); an encryption's file is checked by decrypting it.</p>`,
      age,
    );
  }
  const reference = referenceHtml(engine);
  if (reference !== '') {
    parts.push(
      `<h2>The platform, for scale</h2>`,
      `<p class="note">WebCrypto's AES-256-GCM and SHA-256: <strong>other algorithms</strong> than fourfold's, built into the browser ` +
        `(often on the CPU's AES and SHA instructions), asynchronous, each call awaited. @noble's implementations check their bytes and are timed beside them. Not compared with fourfold.</p>`,
      reference,
    );
  }
  parts.push(`<h2>All cores</h2>`, scalingHtml(report, engine, width));
  const warnings = report.warnings.filter((w) => !/its columns are skipped|cannot (load|import)/.test(w));
  if (warnings.length > 0) {
    parts.push(
      `<details><summary>${warnings.length} note${warnings.length === 1 ? '' : 's'} from the run</summary><ul>${warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></details>`,
    );
  }
  return parts.join('');
}
