/**
 * The README's two benchmark tables from one or more results.json files:
 *
 *   node --import tsx bench/readme-tables.ts run1/results.json run2/results.json
 *
 * With several runs, a case's samples are pooled across them and each cell
 * is the median of the pool: on a shared machine one run can catch a slow
 * period for one library and not another, and a pool of two runs moves
 * less than either. Ratios are the peer's median time over fourfold's.
 */
import { readFileSync } from 'node:fs';
import type { EngineResult } from './core/types.js';

interface Results {
  engines: EngineResult[];
}

const files = process.argv.slice(2);
const runs: Results[] = (files.length > 0 ? files : ['bench-report/results.json']).map((f) => JSON.parse(readFileSync(f, 'utf8')));

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Median ns per call of one library on one aligned, one-key case of the 'sizes' part, over every run; undefined if never timed. */
function nsPerCall(engine: string, op: string, size: number, library: string): number | undefined {
  const samples = runs.flatMap((run) =>
    run.engines
      .filter((e) => e.engine.id === engine)
      .flatMap((e) => e.cases.filter((c) => c.part === 'sizes' && c.op === op && c.size === size && c.library === library && c.offset === 0 && c.keys === 1 && !c.error))
      .flatMap((c) => c.nsPerCall),
  );
  return samples.length > 0 ? median(samples) : undefined;
}

const mbps = (size: number, ns: number): number => (size / ns) * 1000;
const rate = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const sizeName = (s: number): string => (s >= 1 << 20 ? `${s >> 20} MiB` : s >= 1024 ? `${s >> 10} KiB` : `${s} B`);
const timeName = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(ns >= 1e4 ? 1 : 2)} µs`);

const ENGINE_NAMES: Record<string, string> = {
  node: 'Node 20', 'node-current': 'Node 26', deno: 'Deno 2.9', bun: 'Bun 1.4', chromium: 'Chromium 156', firefox: 'Firefox 153', webkit: 'WebKitGTK',
};

// [op, size, peer]: 64-byte cells show time per call, the others MB/s.
const COLUMNS: [string, number, string][] = [
  ['chacha20', 65536, 'sodium'], ['chacha20', 64, 'sodium'], ['xchacha20poly1305-encrypt', 65536, 'sodium'], ['poly1305', 65536, 'sodium'],
  ['salsa20', 65536, 'sodium'], ['xsalsa20poly1305-encrypt', 65536, 'sodium'], ['secretstream-push', 65536, 'sodium'],
  ['blake3', 1 << 20, 'hash-wasm'], ['blake3', 64, 'hash-wasm'], ['serpent-ctr-encrypt', 65536, 'mipher'], ['serpent-cbc-encrypt', 65536, 'mipher'],
];

const engineIds = runs[0].engines.map((e) => e.engine.id ?? e.engine.runtime);
console.log(`| engine | ${COLUMNS.map(([op, size]) => `${op} ${sizeName(size)}`).join(' | ')} | ready() |`);
console.log(`|---|${COLUMNS.map(() => '---:').join('|')}|---:|`);
for (const id of engineIds) {
  const cells = COLUMNS.map(([op, size, peer]) => {
    const mine = nsPerCall(id, op, size, 'fourfold');
    if (mine === undefined) return '';
    const theirs = nsPerCall(id, op, size, peer);
    const ratio = theirs === undefined ? '' : ` · ${(theirs / mine).toFixed(2)}×`;
    return size === 64 ? `${mine.toFixed(0)} ns${ratio}` : `${rate(mbps(size, mine))}${ratio}`;
  });
  const ready = median(runs.flatMap((run) => run.engines.filter((e) => e.engine.id === id && e.readyMs !== undefined).map((e) => e.readyMs!)));
  console.log(`| ${ENGINE_NAMES[id] ?? id} | ${cells.join(' | ')} | ${ready.toFixed(1)} ms |`);
}

// The issues' targets, in Node 20.
const TARGETS: [string, number, string | undefined, string][] = [
  ['chacha20', 64, 'sodium', '1.5×'], ['chacha20', 65536, 'sodium', '3×'],
  ['xchacha20poly1305-encrypt', 64, 'sodium', '1.5×'], ['xchacha20poly1305-encrypt', 65536, 'sodium', '2.5×'],
  ['chacha20poly1305-encrypt', 1 << 20, 'sodium', '2.5×'], ['poly1305', 65536, 'sodium', '1.6×'],
  ['blake3', 64, 'hash-wasm', '1.3×'], ['blake3', 1 << 20, 'hash-wasm', '2.5×'],
  ['salsa20', 65536, 'sodium', '4.5×'], ['xsalsa20poly1305-encrypt', 65536, 'sodium', '3×'], ['secretstream-push', 65536, 'sodium', '2.5×'],
  ['serpent-ctr-encrypt', 65536, undefined, '250 MB/s'], ['serpent-cbc-decrypt', 65536, undefined, '250 MB/s'],
  ['serpent-cbc-encrypt', 65536, undefined, '80 MB/s'], ['serpent-ecb-encrypt', 64, undefined, '60 MB/s'], ['serpent-ctr-encrypt', 64, undefined, '60 MB/s'],
];
console.log('\n| operation | size | fourfold | peer | ratio | target |\n|---|---:|---:|---:|---:|---:|');
for (const [op, size, peer, target] of TARGETS) {
  const mine = nsPerCall('node', op, size, 'fourfold');
  if (mine === undefined) continue;
  const theirs = peer === undefined ? undefined : nsPerCall('node', op, size, peer);
  const peerCells = theirs === undefined ? ' | ' : `${rate(mbps(size, theirs))} MB/s (${peer}) | ${(theirs / mine).toFixed(2)}×`;
  const timed = peer === undefined ? '' : ` (${timeName(mine)})`;
  console.log(`| ${op} | ${sizeName(size)} | ${rate(mbps(size, mine))} MB/s${timed} | ${peerCells} | ${target} |`);
}
