/**
 * The benchmark tables of docs/performance.md and the README, and the native tier's target table, from one or more results.json files:
 *
 *   node --import tsx bench/readme-tables.ts run1/results.json run2/results.json
 *
 * With several runs, a case's samples are pooled across them and each cell
 * is the median of the pool: on a shared machine one run can catch a slow
 * period for one library and not another, and a pool of two runs moves
 * less than either. Ratios are the peer's median time over fourfold's.
 */
import { readFileSync } from 'node:fs';
import { median, megabytesPerSecond } from './core/stats.js';
import { engineLabel, parseReport, type Report } from './report/json.js';
import { formatRate, formatSize, formatTime } from './report/summary.js';

const files = process.argv.slice(2);
const runs: Report[] = (files.length > 0 ? files : ['bench-report/results.json']).map((f) => parseReport(readFileSync(f, 'utf8')));

/** Median ns per call of one library on one aligned, one-key case of the 'sizes' part, over every run; undefined if never timed. */
function nsPerCall(engine: string, op: string, size: number, library: string): number | undefined {
  const samples = runs.flatMap((run) =>
    run.engines
      .filter((e) => e.engine.id === engine)
      .flatMap((e) =>
        e.cases.filter((c) => c.part === 'sizes' && c.op === op && c.size === size && c.library === library && c.offset === 0 && c.keys === 1 && !c.error),
      )
      .flatMap((c) => c.nsPerCall),
  );
  return samples.length > 0 ? median(samples) : undefined;
}

/** `theirs` over `mine` as a table's ratio, or nothing where `theirs` was not timed. */
const over = (theirs: number | undefined, mine: number) => (theirs === undefined ? '' : `${(theirs / mine).toFixed(2)}×`);

// [op, size, peer]: 64-byte cells show time per call, the others MB/s.
const COLUMNS: [string, number, string][] = [
  ['chacha20', 65536, 'sodium'],
  ['chacha20', 64, 'sodium'],
  ['xchacha20poly1305-encrypt', 65536, 'sodium'],
  ['poly1305', 65536, 'sodium'],
  ['salsa20', 65536, 'sodium'],
  ['xsalsa20poly1305-encrypt', 65536, 'sodium'],
  ['secretstream-push', 65536, 'sodium'],
  ['blake3', 1 << 20, 'hash-wasm'],
  ['blake3', 64, 'hash-wasm'],
  ['serpent-ctr-encrypt', 65536, 'mipher'],
  ['serpent-cbc-encrypt', 65536, 'mipher'],
];

// Every engine of any run, in order, labelled as the first run with it reports it.
const engines = new Map<string, string>();
for (const e of runs.flatMap((run) => run.engines)) if (!engines.has(e.engine.id!)) engines.set(e.engine.id!, engineLabel(e));
console.log(`| engine | ${COLUMNS.map(([op, size]) => `${op} ${formatSize(size)}`).join(' | ')} | ready() |`);
console.log(`|---|${COLUMNS.map(() => '---:').join('|')}|---:|`);
for (const [id, label] of engines) {
  const cells = COLUMNS.map(([op, size, peer]) => {
    const mine = nsPerCall(id, op, size, 'fourfold');
    if (mine === undefined) return '';
    const theirs = nsPerCall(id, op, size, peer);
    const ratio = theirs === undefined ? '' : ` · ${over(theirs, mine)}`;
    return size === 64 ? `${formatTime(mine)}${ratio}` : `${formatRate(megabytesPerSecond(size, mine))}${ratio}`;
  });
  const readyMs = runs.flatMap((run) => run.engines.filter((e) => e.engine.id === id && e.readyMs !== undefined).map((e) => e.readyMs!));
  const ready = readyMs.length > 0 ? `${median(readyMs).toFixed(1)} ms` : '';
  console.log(`| ${label} | ${cells.join(' | ')} | ${ready} |`);
}

// The README's table, from Node's runs: fourfold as a Node user gets it by default ('fourfold (native)',
// where the run timed it: past the crossovers, node:crypto), its fastest JavaScript peer, and node:crypto.
const README_ROWS: { peer: string; label: string; cases: [string, number][] }[] = [
  {
    peer: 'sodium',
    label: 'libsodium-wrappers',
    cases: [
      ['chacha20', 65536],
      ['chacha20', 64],
      ['chacha20poly1305-encrypt', 65536],
      ['xchacha20poly1305-encrypt', 65536],
      ['poly1305', 65536],
      ['xsalsa20poly1305-encrypt', 65536],
      ['secretstream-push', 65536],
    ],
  },
  { peer: 'hash-wasm', label: 'hash-wasm', cases: [['blake3', 1 << 20]] },
  { peer: 'mipher', label: 'mipher (pure JS)', cases: [['serpent-ctr-encrypt', 65536]] },
];
console.log('\n| operation | size | fourfold | peer | ratio | node:crypto |\n|---|---:|---:|---|---:|---:|');
for (const { peer, label, cases } of README_ROWS) {
  for (const [op, size] of cases) {
    const mine = nsPerCall('node', op, size, 'fourfold (native)') ?? nsPerCall('node', op, size, 'fourfold');
    if (mine === undefined) continue;
    const cell = size === 64 ? `${formatTime(mine)} a call` : `${formatRate(megabytesPerSecond(size, mine))} MB/s`;
    const row = [
      op.replaceAll('-', ' '),
      formatSize(size),
      cell,
      label,
      over(nsPerCall('node', op, size, peer), mine),
      over(nsPerCall('node', op, size, 'node'), mine),
    ];
    console.log(`| ${row.join(' | ')} |`);
  }
}

// fourfold's speed targets in Node 20: the peer's time over fourfold's it aims for, or a rate where no peer is as fast.
const TARGETS: [string, number, string | undefined, string][] = [
  ['chacha20', 64, 'sodium', '1.5×'],
  ['chacha20', 65536, 'sodium', '3×'],
  ['xchacha20poly1305-encrypt', 64, 'sodium', '1.5×'],
  ['xchacha20poly1305-encrypt', 65536, 'sodium', '2.5×'],
  ['chacha20poly1305-encrypt', 1 << 20, 'sodium', '2.5×'],
  ['poly1305', 65536, 'sodium', '1.6×'],
  ['blake3', 64, 'hash-wasm', '1.3×'],
  ['blake3', 1 << 20, 'hash-wasm', '2.5×'],
  ['salsa20', 65536, 'sodium', '4.5×'],
  ['xsalsa20poly1305-encrypt', 65536, 'sodium', '3×'],
  ['secretstream-push', 65536, 'sodium', '2.5×'],
  ['serpent-ctr-encrypt', 65536, undefined, '250 MB/s'],
  ['serpent-cbc-decrypt', 65536, undefined, '250 MB/s'],
  ['serpent-cbc-encrypt', 65536, undefined, '80 MB/s'],
  ['serpent-ecb-encrypt', 64, undefined, '60 MB/s'],
  ['serpent-ctr-encrypt', 64, undefined, '60 MB/s'],
];
console.log('\n| operation | size | fourfold | peer | ratio | target |\n|---|---:|---:|---:|---:|---:|');
for (const [op, size, peer, target] of TARGETS) {
  const mine = nsPerCall('node', op, size, 'fourfold');
  if (mine === undefined) continue;
  const theirs = peer === undefined ? undefined : nsPerCall('node', op, size, peer);
  const peerCells = theirs === undefined ? ' | ' : `${formatRate(megabytesPerSecond(size, theirs))} MB/s (${peer}) | ${over(theirs, mine)}`;
  const timed = peer === undefined ? '' : ` (${formatTime(mine)})`;
  console.log(`| ${op} | ${formatSize(size)} | ${formatRate(megabytesPerSecond(size, mine))} MB/s${timed} | ${peerCells} | ${target} |`);
}

// The native tier's target (where node:crypto has ChaCha20: Node, Deno): at every size, fourfold as it
// runs by default ('fourfold (native)') at least 0.95× the speed of the faster of node:crypto and the kernels.
// An encrypt cell also gives the ratio against node:crypto returning one array as fourfold does ('node (joined)').
const NATIVE_OPS = ['chacha20poly1305-encrypt', 'chacha20poly1305-decrypt', 'xchacha20poly1305-encrypt', 'xchacha20poly1305-decrypt', 'chacha20', 'xchacha20'];
const NATIVE_TARGET = 0.95;
/** fourfold (native)'s speed over the fastest of `rivals`, undefined where it or all of them were not timed. */
function nativeRatio(id: string, op: string, size: number, rivals: string[]): number | undefined {
  const mine = nsPerCall(id, op, size, 'fourfold (native)');
  const theirs = rivals.map((library) => nsPerCall(id, op, size, library)).filter((ns) => ns !== undefined);
  return mine === undefined || theirs.length === 0 ? undefined : Math.min(...theirs) / mine;
}
const shown = (ratio: number) => (ratio < NATIVE_TARGET ? `**${ratio.toFixed(2)}**` : ratio.toFixed(2));
for (const [id, label] of engines) {
  const sizes = [
    ...new Set(
      runs.flatMap((run) =>
        run.engines
          .filter((e) => e.engine.id === id)
          .flatMap((e) => e.cases.filter((c) => c.part === 'sizes' && c.library === 'fourfold (native)').map((c) => c.size)),
      ),
    ),
  ].sort((a, b) => a - b);
  if (sizes.length === 0) continue;
  let below = 0;
  let belowJoined = 0;
  console.log(
    `\n${label}: fourfold (native) against the faster of node:crypto and the kernels (its speed over theirs; target ${NATIVE_TARGET}; encrypt: against node:crypto's tag apart / joined)\n`,
  );
  console.log(`| size | ${NATIVE_OPS.join(' | ')} |\n|---:|${NATIVE_OPS.map(() => '---:').join('|')}|`);
  for (const size of sizes) {
    const cells = NATIVE_OPS.map((op) => {
      const ratio = nativeRatio(id, op, size, ['fourfold', 'node']);
      if (ratio === undefined) return '';
      const joined = nsPerCall(id, op, size, 'node (joined)') === undefined ? undefined : nativeRatio(id, op, size, ['fourfold', 'node (joined)']);
      if (ratio < NATIVE_TARGET) below++;
      if ((joined ?? ratio) < NATIVE_TARGET) belowJoined++;
      return joined === undefined ? shown(ratio) : `${shown(ratio)} / ${shown(joined)}`;
    });
    console.log(`| ${formatSize(size)} | ${cells.join(' | ')} |`);
  }
  console.log(`\ncells below ${NATIVE_TARGET}: ${below}; counting encrypt against the joined array: ${belowJoined}`);
}
