/**
 * Two builds of fourfold, cold: how long a one-import page takes from its
 * time origin to the first result on the simd tier, in each browser. Each
 * run launches the browser afresh (a new profile: nothing cached, no
 * compiled code kept) and loads one page built with one build and one
 * family; the builds take turns.
 *
 *   node --import tsx bench/builds/first-call.ts --before=../old --after=. [--engines=chromium,firefox,webkit]
 *        [--families=blake3,xchacha20poly1305] [--modes=ready,none] [--runs=5]
 *
 * Prints per browser, family and mode the median over runs of: the first
 * call's time and tier, and the first simd-tier result's time (ms since the
 * page's time origin, and after the script started; 'never' when 10 s of
 * calls every 2 ms never got there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runInEngine } from '../../scripts/engines/run.js';
import { median } from '../core/stats.js';
import { bundleSide } from './bundle.js';
import type { EngineId } from '../../scripts/engines/engines.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    engines: { type: 'string', default: 'chromium,firefox,webkit' },
    families: { type: 'string', default: 'blake3,xchacha20poly1305' },
    modes: { type: 'string', default: 'ready,none' },
    runs: { type: 'string', default: '5' },
  },
});
if (values.before === undefined) throw new Error('--before=<a checkout with dist/ built> is required');

interface Outcome {
  started: number;
  first: number;
  firstTier: string;
  simd: number | null;
}

const dir = mkdtempSync(join(tmpdir(), 'fourfold-first-call-'));
const bundle = (name: string, build: string, family: string, mode: string): Promise<string> =>
  bundleSide('./first-call-entry.ts', join(dir, name, 'entry.js'), { F: build }, { FAMILY: JSON.stringify(family), MODE: JSON.stringify(mode) }, true);

const ms = (xs: (number | null)[]): string =>
  xs.includes(null) ? `never in ${xs.filter((x) => x === null).length} of ${xs.length}` : `${median(xs as number[]).toFixed(0)} ms`;

try {
  for (const engine of values.engines.split(',') as EngineId[]) {
    for (const family of values.families.split(',')) {
      for (const mode of values.modes.split(',')) {
        const got: Record<'before' | 'after', Outcome[]> = { before: [], after: [] };
        for (let run = 0; run < Number(values.runs); run++) {
          // The builds take turns, the first of each pair swapped every run.
          const order = run % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
          for (const which of order) {
            const entry = await bundle(`${engine}-${family}-${mode}-${which}-${run}`, values[which]!, family, mode);
            const r = await runInEngine(engine, { entry, timeoutMs: 120_000 });
            if (!r.ok) throw new Error(`${engine} ${which}: ${r.error}\n${r.log.slice(-5).join('\n')}`);
            got[which].push(r.value as Outcome);
          }
        }
        for (const which of ['before', 'after'] as const) {
          const o = got[which];
          const tiers = [...new Set(o.map((x) => x.firstTier))].join('/');
          console.log(
            `${engine.padEnd(8)} ${family.padEnd(17)} ${mode === 'ready' ? 'ready() ' : 'no ready'} ${which.padEnd(6)} ` +
              `script ${ms(o.map((x) => x.started))}, first call ${ms(o.map((x) => x.first))} (${tiers}), first simd result ${ms(o.map((x) => x.simd))} (${ms(o.map((x) => (x.simd === null ? null : x.simd - x.started)))} after the script started)` +
              `  [simd: ${o.map((x) => (x.simd === null ? '-' : x.simd.toFixed(0))).join(' ')}]`,
          );
        }
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
