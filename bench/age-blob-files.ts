/**
 * age's file calls on a File in browsers (core/age-blob-files.ts measures):
 * a File encrypted to a Blob and back, one thread (fourfold/age), every
 * core (fourfold/parallel) and typage's streams, the calls interleaved,
 * with the page thread's longest block during each:
 *
 *   node --import tsx bench/age-blob-files.ts [--mib=64] [--rounds=5] [--engines=chromium,firefox]
 *
 * Runs each engine through scripts/engines' runner (npm run
 * engines:install first; npm run build before, as it imports fourfold's
 * dist/). Prints per engine each function's median time, range and
 * longest block, every core's speed over one thread's, and the Blob
 * work alone on two workers over one (the ceiling); exits 1 when
 * a call's output is wrong or a fourfold call's median block reaches 50 ms,
 * the browsers' long-task mark, or a call fails. 64 MiB by default: the
 * Chromium of scripts/engines cannot read back a File of 256 MiB or more
 * made in memory (NotReadableError on its own arrayBuffer(), fourfold
 * aside), nor, at times, a smaller one once the page has made a few
 * hundred MiB of Blobs (the call and its round are then reported as
 * failed); --mib=32 --rounds=3 measures the ceiling most often.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type BlobFilesResult, COPIER, describeBlobCalls } from './core/age-blob-files.js';
import { median } from './core/stats.js';
import { runCoreInEngine } from './node/in-engine.js';

const LONG_TASK_MS = 50;

const { values } = parseArgs({
  options: {
    mib: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '5' },
    engines: { type: 'string', default: 'chromium' },
  },
});
const options = { mib: Number(values.mib), rounds: Number(values.rounds) };
const core = fileURLToPath(new URL('./core/age-blob-files.ts', import.meta.url));

let status = 0;
for (const engine of values.engines.split(',').filter((e) => e !== '')) {
  // The calls, then the ceiling beside the encryptions, each in a page of its own.
  for (const ceiling of [false, true]) {
    let result: BlobFilesResult;
    try {
      result = await runCoreInEngine<BlobFilesResult>(engine, core, 'measureBlobFiles', { ...options, ceiling }, 30 * 60_000, { [COPIER.file]: COPIER.text });
    } catch (cause) {
      console.log(`${engine}: not measured (${cause instanceof Error ? cause.message : String(cause)})`);
      status = 1;
      continue;
    }
    status = Math.max(status, report(engine, result, ceiling));
  }
}

/** Prints an engine's result; 1 where a call failed or blocked the page's thread too long. */
function report(engine: string, result: BlobFilesResult, ceiling: boolean): number {
  let failed = 0;
  const what = ceiling ? 'the Blob work alone beside encryption' : 'a File to a Blob';
  console.log(`${engine}, ${what}, ${result.mib} MiB (${result.tier} tier; pool: ${result.pool.workers} workers, ${result.pool.ready} ready):`);
  for (const c of result.results) {
    console.log(`  ${describeBlobCalls(c)}`);
    if (c.error !== undefined) failed = 1;
    else if (c.name.startsWith('fourfold') && median(c.longestMs) >= LONG_TASK_MS) {
      console.log(`  ${c.name} blocked the page's thread for ${LONG_TASK_MS} ms or more`);
      failed = 1;
    }
  }
  const timeOf = (name: string) => {
    const c = result.results.find((r) => r.name === name);
    return c === undefined || c.error !== undefined ? undefined : median(c.callMs);
  };
  for (const way of ['encryptFile', 'decryptFile']) {
    const one = timeOf(`fourfold/age ${way}`);
    const every = timeOf(`fourfold/parallel ${way}`);
    const typage = timeOf(`typage ${way === 'encryptFile' ? 'Encrypter' : 'Decrypter'} (stream)`);
    if (one === undefined || every === undefined) continue;
    const vsTypage = typage === undefined ? '' : `; every core ${(typage / every).toFixed(2)}x typage, one thread ${(typage / one).toFixed(2)}x`;
    console.log(`  ${way}: every core ${(one / every).toFixed(2)}x one thread${vsTypage}`);
  }
  const alone = timeOf('Blob pieces alone, this thread');
  const [oneWorker, twoWorkers] = [timeOf('Blob pieces alone, 1 worker'), timeOf('Blob pieces alone, 2 workers')];
  if (alone !== undefined && oneWorker !== undefined && twoWorkers !== undefined) {
    console.log(
      `  the Blob work alone (no cryptography): 2 workers ${(oneWorker / twoWorkers).toFixed(2)}x one worker, ${(alone / twoWorkers).toFixed(2)}x this thread`,
    );
  }
  return failed;
}
process.exit(status);
