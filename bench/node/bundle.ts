/**
 * What another engine runs: `bench.js`, one ES module with the benchmark
 * core, fourfold's dist, @noble/ciphers and libsodium inside (only `node:*`
 * imports stay outside; the core imports node:crypto lazily and does
 * without it), and `entry.js`, which carries one run's config and follows
 * the entry contract of scripts/engines/run.ts: its default export takes
 * `{ progress(message) }` and resolves to the JSON result (an EngineResult).
 * Progress messages are Progress objects as JSON. Beside them, `worker.js`
 * and `worker-js.js`: the workers of fourfold/parallel's pool, which the
 * pool loads from its own module's directory (in the bundle, bench.js's).
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
