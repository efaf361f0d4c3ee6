/**
 * The longest event-loop block during the KDFs' asynchronous calls, per
 * engine (core/kdf-blocking.ts measures; the runner's cases time calls,
 * not what the thread feels meanwhile):
 *
 *   node --import tsx bench/harness/blocking.ts [--kdf=scrypt,argon2] [--calls=3] [--log2n=20] [--m=262144] [--t=1] [--engines=node,chromium,firefox,webkit]
 *
 * Node in-process, other engines through scripts/engines' runner (needs
 * npm run build). Exits 1 when an asynchronous call's median block reaches
 * 50 ms, the browsers' long-task mark.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeBlocking, type BlockingOptions, type BlockingResult, measureBlocking } from '../core/kdf-blocking.js';
import { median } from '../core/stats.js';
import { LONG_TASK_MS } from '../report/parallel.js';
import { options } from './options.js';

const args = options({ kdf: 'scrypt,argon2', calls: '3', log2n: '20', m: String(2 ** 18), t: '1', engines: 'node' });

/** The measurement bundled (fourfold/parallel's workers beside it) and run once in `engine` by scripts/engines' runner. */
async function inEngine(engine: string, config: BlockingOptions): Promise<BlockingResult> {
  const { bundleEntry, bundleWorkers } = await import('../../scripts/engines/bundle.js');
  const { runInEngine } = await import('../../scripts/engines/run.js');
  const dir = mkdtempSync(join(tmpdir(), `fourfold-blocking-${engine}-`));
  try {
    const path = fileURLToPath(new URL('../core/kdf-blocking.ts', import.meta.url));
    writeFileSync(
      join(dir, 'entry.ts'),
      `import { measureBlocking } from ${JSON.stringify(path)};\nexport default (context) => measureBlocking(${JSON.stringify(config)}, (m) => context.progress(m));\n`,
    );
    const entry = await bundleEntry({ entry: join(dir, 'entry.ts'), target: 'browser', outfile: join(dir, 'entry.js') });
    await bundleWorkers(dir, 'browser');
    const onProgress = (m: string) => process.stderr.write(`${engine}: ${m}\n`);
    const outcome = await runInEngine(engine as Parameters<typeof runInEngine>[0], { entry, timeoutMs: 20 * 60_000, onProgress });
    if (!outcome.ok) throw new Error(`${outcome.error ?? 'failed'}\n${outcome.log.slice(-10).join('\n')}`);
    return outcome.value as BlockingResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let status = 0;
for (const engine of args.engines!.split(',').filter((e) => e !== '')) {
  for (const kdf of args.kdf!.split(',') as BlockingOptions['kdf'][]) {
    const config = { kdf, calls: Number(args.calls), N: 2 ** Number(args.log2n), m: Number(args.m), t: Number(args.t) };
    let result: BlockingResult;
    try {
      result = engine === 'node' ? await measureBlocking(config, (m) => process.stderr.write(`node: ${m}\n`)) : await inEngine(engine, config);
    } catch (cause) {
      console.log(`${engine}, ${kdf}: not measured (${cause instanceof Error ? cause.message : String(cause)})`);
      status = 1;
      continue;
    }
    const { pool } = result;
    console.log(
      `${engine}, ${result.heading} (${result.tier} tier; pool: ${pool.workers} workers, ${pool.ready} ready${pool.failure === undefined ? '' : `, ${pool.failure}`}):`,
    );
    for (const b of result.results) console.log(`  ${describeBlocking(b)}`);
    for (const b of result.results.filter((x) => x.held && x.error === undefined && median(x.longestMs) >= LONG_TASK_MS)) {
      console.log(`  ${b.name} blocked the event loop for ${LONG_TASK_MS} ms or more`);
      status = 1;
    }
  }
}
process.exit(status);
