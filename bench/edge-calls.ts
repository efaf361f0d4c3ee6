/**
 * What a call costs in Cloudflare Workers' runtime: bench/edge/calls.ts
 * in workerd (the engine of npm run engines:install, bundled as wrangler
 * bundles a Worker, so fourfold's kernels come as modules: docs/edge.md)
 * and in this Node on the simd tier, in turns, each host's median by its
 * own clock. docs/edge.md's table comes from it.
 *
 *   node --import tsx bench/edge-calls.ts [--runs=2]
 *
 * --runs: workerd then Node, this many times (B A on odd runs), each run
 * 9 timed calls per call. Reported: per call, the median of the runs'
 * medians in each host, and workerd over Node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleEntry } from '../scripts/engines/bundle.js';
import { runWorker } from '../scripts/engines/drivers/workerd.js';
import { ENGINES, ROOT, versionOf } from '../scripts/engines/engines.js';
import run from './edge/calls.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => [...a.replace(/^--/, '').split('='), 'true'].slice(0, 2) as [string, string]));
const runs = Number(args.runs ?? 2);

type Report = Awaited<ReturnType<typeof run>>;

const dir = mkdtempSync(join(tmpdir(), 'fourfold-edge-calls-'));
const worker = await bundleEntry({ entry: join(ROOT, 'bench/edge/calls.ts'), target: 'worker', outfile: join(dir, 'worker.js') });

async function inWorkerd(): Promise<Report> {
  const outcome = await runWorker(ENGINES.workerd, worker, { timeoutMs: 600_000, log: (line) => console.error(line) });
  if (!outcome.ok) throw new Error(`workerd: ${outcome.error}`);
  return outcome.value as Report;
}

const reports: Record<'workerd' | 'node', Report[]> = { workerd: [], node: [] };
for (let r = 0; r < runs; r++) {
  const order: ('workerd' | 'node')[] = r % 2 === 0 ? ['workerd', 'node'] : ['node', 'workerd'];
  for (const host of order) reports[host].push(host === 'workerd' ? await inWorkerd() : await run());
}
rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const tiers = [...reports.workerd, ...reports.node].map((rep) => rep.tier);
console.log(
  `# ${runs} runs, ${versionOf(ENGINES.workerd)} and Node ${process.version}; tiers ${[...new Set(tiers)].join(', ')}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('| call | workerd | Node | workerd / Node |');
console.log('|---|---:|---:|---:|');
for (const name of Object.keys(reports.node[0]!.ms)) {
  const w = median(reports.workerd.map((rep) => rep.ms[name]!));
  const n = median(reports.node.map((rep) => rep.ms[name]!));
  console.log(`| ${name} | ${w.toFixed(1)} ms | ${n.toFixed(1)} ms | ${(w / n).toFixed(2)} |`);
}
