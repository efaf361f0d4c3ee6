/**
 * "Copy link": a compact summary of a result in the page's URL hash, and
 * back. The summary keeps what the page shows (the environment, and each
 * column's median per op and size, capped columns as their estimate) and
 * drops the samples, so that a link stays a few kilobytes; opening one
 * draws that result, marked as someone else's, and runs nothing.
 *
 * The hash is `#r=` then 'z' and the summary's JSON compressed with
 * deflate-raw (CompressionStream), or 'j' and the JSON as it is where the
 * browser has no CompressionStream; either in base64url.
 */
import { megabytesPerSecond } from '../../bench/core/stats.js';
import type { CaseSummary } from '../../bench/report/summary.js';
import type { Environment, EngineReport, Report } from '../../bench/report/json.js';
import { pageMachine } from './results.js';
import type { Mode } from './plan.js';

/** Version 1 of the summary. Short keys: it travels in a URL. */
export interface Summary {
  readonly v: 1;
  /** Date of the run (ISO, to the minute), its duration in s, its mode, and 'i' if it was stopped before the end. */
  readonly d: string;
  readonly t: number;
  readonly m: Mode;
  readonly i?: 1;
  readonly e: Environment;
  /** fourfold's version as the run reported it ('0.1.0 (simd)'). */
  readonly f: string;
  /** Library names, op names and sizes the cells index. */
  readonly l: readonly string[];
  readonly o: readonly string[];
  readonly z: readonly number[];
  /** Per op and size: [op, size, library, ns, library, ns, ...]; a negative ns is a capped column's estimate. */
  readonly c: readonly (readonly number[])[];
  /** Thread counts the all-cores part asked for. */
  readonly h: readonly number[];
  /** Its points: [op, size, shared (1) or not (0), threads, speedup, ns]. */
  readonly p?: readonly (readonly number[])[];
  /** Why the all-cores part has no points, if it has none. */
  readonly x?: string;
}

/** Three significant digits: enough for a chart, short in a URL. */
const rounded = (ns: number) => Number(ns.toPrecision(3));

export function summarize(report: Report): Summary {
  const engine = report.engines[0];
  const cases = (engine?.cases ?? []).filter((c) => c.part === 'sizes' && c.offset === 0 && c.keys === 1 && (c.ns !== undefined || c.capped !== undefined));
  const l = [...new Set(cases.map((c) => c.library))];
  const o = [...new Set(cases.map((c) => c.op))];
  const z = [...new Set(cases.map((c) => c.size))].sort((a, b) => a - b);
  const cells = new Map<string, number[]>();
  for (const c of cases) {
    const key = `${o.indexOf(c.op)} ${z.indexOf(c.size)}`;
    if (!cells.has(key)) cells.set(key, [o.indexOf(c.op), z.indexOf(c.size)]);
    cells.get(key)!.push(l.indexOf(c.library), c.ns !== undefined ? rounded(c.ns.median) : -rounded(c.capped!.nsPerCall));
  }
  const fourfold = engine?.libraries.find((lib) => lib.name === 'fourfold' || lib.name === 'fourfold-js')?.version ?? '';
  const points = report.page?.scaling.points ?? [];
  const index = (list: (string | number)[], item: string | number) => (list.includes(item) ? list.indexOf(item) : list.push(item) - 1);
  return {
    v: 1,
    d: report.date.slice(0, 16),
    t: Math.round(report.durationSeconds),
    m: report.page?.mode ?? 'quick',
    ...(report.status === 'complete' ? {} : { i: 1 as const }),
    e: report.page!.environment,
    f: fourfold,
    l,
    o,
    z,
    c: [...cells.values()],
    h: report.page?.scaling.threads ?? [],
    ...(points.length === 0
      ? {}
      : { p: points.map((p) => [index(o, p.op), index(z, p.size), p.shared ? 1 : 0, p.threads, rounded(p.speedup), rounded(p.ns)]) }),
    ...(report.page?.scaling.error === undefined ? {} : { x: report.page.scaling.error }),
  };
}

/** The report a summary stands for: one sample per column (its median), enough for the page's charts and table. */
export function expand(s: Summary): Report {
  const cases: CaseSummary[] = [];
  for (const [op, size, ...pairs] of s.c) {
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const library = s.l[pairs[i]!]!;
      const ns = pairs[i + 1]!;
      const base = { part: 'sizes' as const, op: s.o[op!]!, library, size: s.z[size!]!, offset: 0, keys: 1, callsPerSample: 0 };
      if (ns < 0) {
        cases.push({ ...base, nsPerCall: [], capped: { nsPerCall: -ns, how: 'measured', neededMs: 0, capMs: 0 } });
      } else {
        const mbps = megabytesPerSecond(base.size, ns);
        cases.push({ ...base, nsPerCall: [ns], ns: { q1: ns, median: ns, q3: ns }, mbps: { q1: mbps, median: mbps, q3: mbps } });
      }
    }
  }
  const engine: EngineReport = {
    engine: { id: s.e.browser.replace(/ [\d.]+$/, '').toLowerCase(), runtime: 'browser', version: s.e.browser, userAgent: s.e.userAgent, details: {} },
    timer: { granularityNs: 0, crossOriginIsolated: s.e.crossOriginIsolated },
    libraries: s.l.map((name) => ({ name, version: name.startsWith('fourfold') ? `fourfold ${s.f}` : '' })),
    started: `${s.d}:00.000Z`,
    sweepStep: 1,
    warnings: [],
    seconds: s.t,
    cases,
    sweeps: [],
  };
  const none = { warmupMs: 0, sampleMs: 0, samples: 0, minSamples: 0, budgetMs: 0 };
  return {
    schema: 'fourfold-bench/3',
    date: `${s.d}:00.000Z`,
    durationSeconds: s.t,
    status: s.i === 1 ? 'interrupted' : 'complete',
    machine: pageMachine(s.e),
    runner: { page: 'a shared link', argv: [] },
    profile: `page-${s.m}`,
    settings: {
      parts: ['sizes'],
      sizes: s.z.filter((size) => size <= 1 << 20),
      sweep: { from: 0, to: 0, step: 1 },
      timing: { sizes: none, sweep: { warmupMs: 0, passes: 0, minSampleUs: 0 } },
      capMs: 0,
      parallel: { workerCounts: s.h.map((n) => n - 1), chartSize: Math.max(0, ...s.z), taskSize: 0, taskCalls: 0 },
      versions: {},
      megabyte: 1e6,
    },
    engines: [engine],
    warnings: [],
    page: {
      mode: s.m,
      environment: s.e,
      scaling: {
        threads: s.h,
        ...(s.p === undefined
          ? {}
          : {
              points: s.p.map(([op, size, shared, threads, speedup, ns]) => ({
                op: s.o[op!]!,
                size: s.z[size!]!,
                shared: shared === 1,
                threads: threads!,
                speedup: speedup!,
                ns: ns!,
              })),
            }),
        ...(s.x === undefined ? {} : { error: s.x }),
      },
      notices: [],
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

async function through(bytes: Uint8Array, stream: TransformStream<Uint8Array, Uint8Array>): Promise<Uint8Array> {
  const out = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream)).arrayBuffer();
  return new Uint8Array(out);
}

/** The hash for a summary: '#r=z…' (deflated) or '#r=j…'. */
export async function encodeHash(summary: Summary): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(summary));
  if (typeof CompressionStream === 'function') {
    try {
      return `#r=z${toBase64Url(await through(json, new CompressionStream('deflate-raw') as TransformStream<Uint8Array, Uint8Array>))}`;
    } catch {
      // An engine without deflate-raw: the plain form.
    }
  }
  return `#r=j${toBase64Url(json)}`;
}

/** The summary in a hash, undefined when the hash holds none; throws on a damaged one. */
export async function decodeHash(hash: string): Promise<Summary | undefined> {
  const match = /^#?r=([zj])([A-Za-z0-9_-]+)$/.exec(hash);
  if (match === null) return undefined;
  let bytes = fromBase64Url(match[2]!);
  if (match[1] === 'z') {
    if (typeof DecompressionStream !== 'function') throw new Error('this browser cannot decompress the link (no DecompressionStream)');
    bytes = await through(bytes, new DecompressionStream('deflate-raw') as TransformStream<Uint8Array, Uint8Array>);
  }
  const summary = JSON.parse(new TextDecoder().decode(bytes)) as Summary;
  if (summary.v !== 1 || !Array.isArray(summary.c) || !Array.isArray(summary.l)) throw new Error('not a result this page knows (unknown version)');
  return summary;
}
