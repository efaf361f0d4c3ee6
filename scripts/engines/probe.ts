/**
 * tsx scripts/engines/probe.ts [engine...]: starts each engine once and
 * prints what it reports about itself (version, WebAssembly, SIMD). A smoke
 * test of the installation, and the smallest use of the generic API:
 * bundleEntry + runInEngine.
 */
import { join } from 'node:path';
import { bundleEntry } from './bundle.js';
import { CACHE, ENGINE_IDS, ENGINES, ROOT, type EngineId } from './engines.js';
import { runInEngine } from './run.js';

const ids = (process.argv.length > 2 ? process.argv.slice(2) : ENGINE_IDS) as EngineId[];
const entry = join(ROOT, 'scripts/engines/harness/probe-entry.ts');
const bundles = {
  script: await bundleEntry({ entry, target: 'script', outfile: join(CACHE, 'build/probe/script/probe.js') }),
  browser: await bundleEntry({ entry, target: 'browser', outfile: join(CACHE, 'build/probe/browser/probe.js') }),
  shell: await bundleEntry({ entry, target: 'shell', outfile: join(CACHE, 'build/probe/shell/probe.js') }),
  worker: await bundleEntry({ entry, target: 'worker', outfile: join(CACHE, 'build/probe/worker/probe.js') }),
};
let failed = 0;
for (const id of ids) {
  const engine = ENGINES[id];
  if (!engine) throw new Error(`unknown engine '${id}'; known: ${ENGINE_IDS.join(', ')}`);
  const r = await runInEngine(id, { entry: bundles[engine.kind], timeoutMs: 60_000 });
  if (!r.ok) failed++;
  console.log(
    `${id.padEnd(13)} ${(r.ms / 1000).toFixed(1).padStart(5)} s  ${r.ok ? JSON.stringify(r.value) : `FAILED: ${r.error}\n  ${r.log.slice(-5).join('\n  ')}`}`,
  );
}
process.exit(failed ? 1 : 0);
