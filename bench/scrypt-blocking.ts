/**
 * The longest event-loop block on the calling thread during scrypt's
 * asynchronous calls at N = 2^20 (r = 8, p = 1: a lane of 1 GiB):
 * scryptAsync, which works on the calling thread in turns of a few ms, and
 * fourfold/parallel's scrypt, whose lane runs on a worker; the synchronous
 * scrypt beside them, one block as long as the call. The harness's cases
 * time calls, not what the thread feels meanwhile, so this is a script of
 * its own (core/scrypt-blocking.ts measures):
 *
 *   node --import tsx bench/scrypt-blocking.ts [--log2n=20] [--calls=3] [--engines=node,chromium,firefox,webkit]
 *
 * Node runs it in-process; the other engines (node-current, deno, bun,
 * chromium, firefox, webkit) through scripts/engines' runner, as
 * `npm run bench -- --engines=...` does (npm run engines:install first;
 * run `npm run build` before, as it imports fourfold's dist/). Prints per
 * engine and function the median of the calls' longest blocks, each
 * call's, and the median time a call takes; exits 1 when scryptAsync's
 * median block reaches 50 ms, the browsers' long-task mark.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeBlocking, measureScryptBlocking, type BlockingOptions, type BlockingResult } from './core/scrypt-blocking.js';
import { median } from './core/stats.js';
import { runCoreInEngine } from './node/in-engine.js';

/** The browsers' long-task mark. */
const LONG_TASK_MS = 50;

const { values } = parseArgs({
  options: {
    log2n: { type: 'string', default: '20' },
    calls: { type: 'string', default: '3' },
    engines: { type: 'string', default: 'node' },
  },
});
const options: BlockingOptions = { N: 2 ** Number(values.log2n), calls: Number(values.calls) };

/** One engine's result: in this process for node, else a bundle run by scripts/engines. */
async function inEngine(engine: string): Promise<BlockingResult> {
  if (engine === 'node') return measureScryptBlocking(options, (m) => process.stderr.write(`node: ${m}\n`));
  const core = fileURLToPath(new URL('./core/scrypt-blocking.ts', import.meta.url));
  return runCoreInEngine<BlockingResult>(engine, core, 'measureScryptBlocking', options, 20 * 60_000);
}

let status = 0;
for (const engine of values.engines.split(',').filter((e) => e !== '')) {
  let result: BlockingResult;
  try {
    result = await inEngine(engine);
  } catch (cause) {
    console.log(`${engine}: not measured (${cause instanceof Error ? cause.message : String(cause)})`);
    status = 1;
    continue;
  }
  const pool = `pool: ${result.pool.workers} workers, ${result.pool.ready} ready${result.pool.failure === undefined ? '' : `, ${result.pool.failure}`}`;
  console.log(`${engine}, N = 2^${Math.log2(result.N)}, r = 8, p = 1 (${result.tier} tier; ${pool}):`);
  for (const b of result.results) console.log(`  ${describeBlocking(b)}`);
  const async = result.results.find((b) => b.name === 'scryptAsync');
  if (async?.error === undefined && async !== undefined && median(async.longestMs) >= LONG_TASK_MS) {
    console.log(`  scryptAsync blocked the event loop for ${LONG_TASK_MS} ms or more`);
    status = 1;
  }
}
process.exit(status);
