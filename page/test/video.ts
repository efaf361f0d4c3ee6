/**
 * `npm run test:video`: an age-encrypted video that a page plays and
 * seeks, in Chromium, Firefox and WebKitGTK. Makes a WebM of at least
 * 256 MiB with ffmpeg (VP9 and Opus, page/video/make.ts) in a temporary folder,
 * encrypts it with Go's age, builds the example (page/video/), serves it
 * all from 127.0.0.1 with Range requests (page/video/serve.ts), and opens
 * check.html (page/video/check.ts) in each browser through the engine
 * matrix's drivers. Fails on any of:
 *
 * - the video does not play from the start (2 s of it);
 * - a seek's first frame comes more than 500 ms after the seek;
 * - a seek fetches more than the chunks of the ranges the worker answered
 *   in it, plus, for each range open in it, the read-ahead (16 chunks of
 *   64 KiB and a tag) and the one chunk of a read under way;
 * - a range the worker answered differs from the plaintext's bytes;
 * - the copy with one chunk changed plays on instead of stopping with an
 *   error, or the worker sent a byte of that chunk.
 *
 *   npm run test:video -- [--browsers=chromium,firefox,webkit] [--mib=256] [--keep]
 *
 * --mib: the WebM's size at least (a 10-second segment repeated; less
 * for a quicker run, which then says it is under 256 MiB); --keep leaves
 * the folder (its path printed).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChromium } from '../../scripts/engines/drivers/chromium.js';
import { openFirefox } from '../../scripts/engines/drivers/firefox.js';
import { openWebkit } from '../../scripts/engines/drivers/webkit.js';
import type { OpenPage } from '../../scripts/engines/drivers/types.js';
import { ENGINES, type EngineId, requireInstalled } from '../../scripts/engines/engines.js';
import { buildExample, makeVideo } from '../video/make.js';
import { serveVideo } from '../video/serve.js';
import { checkRun, type PageRun } from './video-check.js';

const DRIVERS: Partial<Record<EngineId, OpenPage>> = { chromium: openChromium, firefox: openFirefox, webkit: openWebkit };
const CHUNK = 65536;
const SEALED = CHUNK + 16;
const READ_AHEAD = 16;
const SEGMENT_S = 10;
/** A browser's whole run, launch included. */
const RUN_LIMIT_MS = 150_000;

const option = (name: string, fallback: string): string =>
  process.argv
    .slice(2)
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3) ?? fallback;

async function main(): Promise<boolean> {
  const unknown = process.argv.slice(2).filter((a) => !/^--(browsers=|mib=|keep$)/.test(a));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(' ')}`);
  const browsers = option('browsers', 'chromium,firefox,webkit').split(',') as EngineId[];
  for (const b of browsers) if (DRIVERS[b] === undefined) throw new Error(`--browsers: ${b} is not one this check drives (chromium, firefox, webkit)`);
  const target = Number(option('mib', '256'));
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-video-'));
  const keep = process.argv.includes('--keep');
  try {
    await buildExample(join(dir, 'site'));
    const made = makeVideo(dir, SEGMENT_S, target);
    const mib = made.bytes / 2 ** 20;
    console.log(
      `a WebM of ${mib.toFixed(1)} MiB, ${made.seconds} s (VP9 and Opus) made in ${(made.encodeMs / 1000).toFixed(1)} s; encrypted by Go's age in ${(made.encryptMs / 1000).toFixed(1)} s`,
    );
    if (mib < 256) console.log(`  (under 256 MiB: --mib=${target})`);
    // One chunk changed in the middle of the tampered copy; where it is, in bytes of plaintext and seconds of video.
    const chunks = Math.ceil(made.bytes / CHUNK);
    const payloadAt = statSync(made.encrypted).size - (made.bytes + 16 * chunks);
    const changed = Math.floor(chunks / 2);
    const tamperedAt = ((changed * CHUNK) / made.bytes) * made.seconds;
    const seeks = [0.37, 0.81, 0.12, 0.95, 0.55].map((f) => Math.round(f * made.seconds * 100) / 100);
    const config = {
      identity: made.identity,
      encrypted: '/media/film.webm.age',
      tampered: '/media/tampered.webm.age',
      plain: '/media/film.webm',
      seeks,
      tamperedAt,
      readAhead: READ_AHEAD,
    };
    const server = await serveVideo(join(dir, 'site'), config, {
      'film.webm.age': { file: made.encrypted },
      'tampered.webm.age': { file: made.encrypted, changeAt: payloadAt + changed * SEALED + 1000 },
      'film.webm': { file: made.plain },
    });
    let failed = false;
    try {
      for (const browser of browsers) {
        server.reset();
        const engine = ENGINES[browser];
        requireInstalled(engine);
        const lines: string[] = [];
        const t0 = performance.now();
        const session = await DRIVERS[browser]!(engine, `${server.url}check.html`, (l) => lines.push(l));
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<{ ok: false; error: string }>((resolve) => {
          timer = setTimeout(() => resolve({ ok: false, error: `no result within ${RUN_LIMIT_MS / 1000} s` }), RUN_LIMIT_MS);
        });
        const outcome: { ok: boolean; value?: unknown; error?: string } = await Promise.race([server.result(), session.died, timeout]).catch((e: Error) => ({
          ok: false,
          error: e.message,
        }));
        clearTimeout(timer);
        await session.close();
        const seconds = (performance.now() - t0) / 1000;
        if (!outcome.ok) {
          failed = true;
          console.log(`FAIL ${browser} (${seconds.toFixed(0)} s): ${outcome.error}\n  ${lines.slice(-15).join('\n  ')}`);
          continue;
        }
        const { problems, report } = checkRun(outcome.value as PageRun, server.log, { readAhead: READ_AHEAD, changedChunk: changed });
        console.log(`${problems.length === 0 ? 'pass' : 'FAIL'} ${browser} (${seconds.toFixed(0)} s with the browser)\n${report}`);
        for (const p of problems) console.log(`  problem: ${p}`);
        failed ||= problems.length > 0;
      }
    } finally {
      await server.close();
    }
    return !failed;
  } finally {
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

process.exit((await main()) ? 0 : 1);
