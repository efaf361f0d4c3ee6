/**
 * What another engine runs: `bench.js` (the core, fourfold's dist, @noble
 * and libsodium in one module; only `node:*` imports outside), `entry.js`
 * (one run's config, scripts/engines/run.ts's entry contract, resolving to
 * an EngineResult), and beside them the pool's `worker.js` and
 * `worker-js.js`, which it loads from its own module's directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from '../core/types.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Builds dir/bench.js and dir/entry.js; returns the entry's path. */
export async function buildEngineEntry(dir: string, config: BenchConfig): Promise<string> {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const options: import('esbuild').BuildOptions = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['node:*'],
    logLevel: 'warning',
  };
  await esbuild.build({ ...options, entryPoints: [join(root, 'bench/core/run.ts')], outfile: join(dir, 'bench.js') });
  // fourfold/parallel's worker, beside bench.js; the engine runner's bundler
  // builds it (imported here, as engines.ts imports the runner: only when
  // another engine runs).
  const { bundleWorkers } = await import('../../scripts/engines/bundle.js');
  await bundleWorkers(dir, 'browser');
  const entry = join(dir, 'entry.js');
  writeFileSync(
    entry,
    [
      `// One benchmark run (npm run bench), for scripts/engines/run.ts.`,
      `import { runBenchmark } from './bench.js';`,
      `const config = ${JSON.stringify(config)};`,
      `export default (context) => runBenchmark(config, (progress) => context.progress(JSON.stringify(progress)));`,
      '',
    ].join('\n'),
  );
  return entry;
}
