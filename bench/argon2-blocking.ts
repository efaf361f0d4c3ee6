/**
 * The longest event-loop block on the calling thread during Argon2id's
 * asynchronous calls at m = 256 MiB, t = 1: argon2idAsync, which works on
 * the calling thread in turns of a few ms, and fourfold/parallel's
 * argon2id with one lane (on a worker) and four (the calling thread takes
 * lanes too); the synchronous argon2id beside them, one block as long as
 * the call. scrypt-blocking.ts's measurement for Argon2
 * (core/argon2-blocking.ts measures):
 *
 *   node --import tsx bench/argon2-blocking.ts [--m=262144] [--t=1] [--calls=3] [--engines=node,chromium,firefox,webkit]
 *
 * Node runs it in-process; the other engines (node-current, deno, bun,
 * chromium, firefox, webkit) through scripts/engines' runner (npm run
 * engines:install first; run `npm run build` before, as it imports
 * fourfold's dist/). Prints per engine and function the median of the
 * calls' longest blocks, each call's, and the median time a call takes;
 * exits 1 when the median block of argon2idAsync or of fourfold/parallel's
 * argon2id reaches 50 ms, the browsers' long-task mark.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ARGON2_ASYNC, ARGON2_PARALLEL, type Argon2BlockingOptions, type Argon2BlockingResult, measureArgon2Blocking } from './core/argon2-blocking.js';
import { describeBlocking } from './core/scrypt-blocking.js';
import { median } from './core/stats.js';
import { runCoreInEngine } from './node/in-engine.js';

/** The browsers' long-task mark. */
const LONG_TASK_MS = 50;

const { values } = parseArgs({
  options: {
    m: { type: 'string', default: String(2 ** 18) },
    t: { type: 'string', default: '1' },
    calls: { type: 'string', default: '3' },
    engines: { type: 'string', default: 'node' },
  },
});
const options: Argon2BlockingOptions = { m: Number(values.m), t: Number(values.t), calls: Number(values.calls) };

/** One engine's result: in this process for node, else a bundle run by scripts/engines. */
async function inEngine(engine: string): Promise<Argon2BlockingResult> {
  if (engine === 'node') return measureArgon2Blocking(options, (m) => process.stderr.write(`node: ${m}\n`));
  const core = fileURLToPath(new URL('./core/argon2-blocking.ts', import.meta.url));
  return runCoreInEngine<Argon2BlockingResult>(engine, core, 'measureArgon2Blocking', options, 20 * 60_000);
}

const size = (kib: number): string => (kib >= 2 ** 20 ? `${kib / 2 ** 20} GiB` : `${kib / 2 ** 10} MiB`);

let status = 0;
for (const engine of values.engines.split(',').filter((e) => e !== '')) {
  let result: Argon2BlockingResult;
  try {
    result = await inEngine(engine);
  } catch (cause) {
    console.log(`${engine}: not measured (${cause instanceof Error ? cause.message : String(cause)})`);
    status = 1;
    continue;
  }
  const pool = `pool: ${result.pool.workers} workers, ${result.pool.ready} ready${result.pool.failure === undefined ? '' : `, ${result.pool.failure}`}`;
  console.log(`${engine}, argon2id at m = ${size(result.m)}, t = ${result.t} (${result.tier} tier; ${pool}):`);
  for (const b of result.results) console.log(`  ${describeBlocking(b)}`);
  for (const b of result.results) {
    const held = b.name === ARGON2_ASYNC || b.name.startsWith(ARGON2_PARALLEL);
    if (held && b.error === undefined && median(b.longestMs) >= LONG_TASK_MS) {
      console.log(`  ${b.name} blocked the event loop for ${LONG_TASK_MS} ms or more`);
      status = 1;
    }
  }
}
process.exit(status);
