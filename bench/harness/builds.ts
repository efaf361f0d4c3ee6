/**
 * Two builds of fourfold against each other, kernel throughput through the
 * public API: the commit before (a worktree, built) and the one after.
 *
 *   node --import tsx bench/harness/builds.ts --before=../old --after=. [--engines=node,firefox]
 *        [--ops=blake3,xchacha20poly1305,chacha20,secretbox] [--sizes=64,65536,1048576]
 *        [--variants=0,1] [--samples=41] [--processes=3]
 *
 * Per engine and rotation variant (builds-entry.ts), --processes processes
 * in each load order: one of two builds sometimes runs 7-17% slower for a
 * whole Node 20 process, even byte-identical kernels, so one process proves
 * nothing. Prints each process's after/before ratio and their median.
 */
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runInEngine } from '../../scripts/engines/run.js';
import { median } from '../core/stats.js';
import { options } from './options.js';
import type { EngineId } from '../../scripts/engines/engines.js';

const values = options({
  after: '.',
  engines: 'node,firefox',
  ops: 'blake3,xchacha20poly1305,chacha20,secretbox',
  sizes: '64,65536,1048576',
  variants: '0,1',
  samples: '41',
  processes: '3',
});
const { after, engines, ops, sizes, variants, samples, processes } = values as Record<string, string>;
if (values.before === undefined) throw new Error('--before=<a checkout with dist/ built> is required');

interface Row {
  a: number;
  b: number;
  ratio: number;
}

const dir = mkdtempSync(join(tmpdir(), 'fourfold-builds-'));
/** Bundles builds-entry.ts for runInEngine with `first`'s dist/ as A and `second`'s as B (the aliases it imports them by). */
async function bundle(name: string, first: string, second: string, variant: string): Promise<string> {
  const outfile = join(dir, name, 'entry.js');
  await esbuild.build({
    entryPoints: [new URL('./builds-entry.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile,
    external: ['node:*'],
    logLevel: 'error',
    mainFields: ['module', 'main'],
    alias: { A: resolve(first, 'dist'), B: resolve(second, 'dist') },
    define: { OPS: JSON.stringify(ops), SIZES: JSON.stringify(sizes), VARIANT: variant, SAMPLES: samples },
  });
  return outfile;
}

try {
  for (const engine of engines.split(',') as EngineId[]) {
    for (const variant of variants.split(',')) {
      // Per run: whether the after build was A (loaded first), and what the entry measured.
      const runs: { afterFirst: boolean; rows: Record<string, Row> }[] = [];
      for (let p = 0; p < Number(processes); p++) {
        for (const afterFirst of [false, true]) {
          const [first, second] = afterFirst ? [after, values.before] : [values.before, after];
          const entry = await bundle(`${engine}-${variant}-${p}-${afterFirst}`, first, second, variant);
          const r = await runInEngine(engine, { entry, timeoutMs: 1_500_000 });
          if (!r.ok) throw new Error(`${engine}: ${r.error}\n${r.log.slice(-5).join('\n')}`);
          runs.push({ afterFirst, rows: r.value as Record<string, Row> });
        }
      }
      for (const key of Object.keys(runs[0]!.rows)) {
        const first = runs[0]!.rows[key]!;
        // Where the after build was A, a run's ratio B/A is before/after.
        const ratios = runs.map(({ afterFirst, rows }) => (afterFirst ? 1 / rows[key]!.ratio : rows[key]!.ratio));
        console.log(
          `${engine.padEnd(8)} variant ${variant}  ${key.padEnd(26)} before ${first.a.toFixed(0).padStart(5)} after ${first.b.toFixed(0).padStart(5)} MB/s  ` +
            `after/before per run ${ratios.map((x) => x.toFixed(3)).join(' ')}; median ${median(ratios).toFixed(3)}`,
        );
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
