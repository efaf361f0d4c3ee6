/**
 * `npm run test:page`: builds the benchmark page, serves it from a
 * sub-path, opens `index.html?run=quick` in Chromium, Firefox and WebKit,
 * once served plain and once cross-origin isolated, waits for
 * `document.documentElement.dataset.state` to say 'done' (or 'failed'),
 * and checks `window.benchResults` (check.ts). Exits 1 on any problem.
 *
 *   npm run test:page -- [--browsers=chromium,firefox,webkit] [--serving=plain,isolated,...] [--mode=quick|full] [--save=DIR]
 *
 * Servings: 'plain' (no isolation headers), 'isolated' (COOP and COEP),
 * and two bad situations made with a Content-Security-Policy on the
 * isolated page: 'no-workers' (worker-src 'none': the page measures by
 * itself) and 'no-wasm' (script-src 'self' without 'wasm-unsafe-eval':
 * no WebAssembly compiles, so fourfold runs its js tier and libsodium and
 * hash-wasm do not load). By default each browser is served plain and
 * isolated, and Chromium also in the two bad situations.
 *
 * --save writes each run's results (the JSON "Download results" gives) to
 * DIR/<browser>[-<serving>].json (no suffix when isolated); `--mode=full --serving=isolated --save=docs/results`
 * takes the figures of docs/contributing/performance-history.md.
 *
 * The browsers are the engine matrix's, launched by its runner
 * (scripts/engines/run.ts runInEngine): its page server serves a folder
 * holding the built site under fourfold/bench/ and a small entry module,
 * which opens the site's page in a full-window frame (same origin) and
 * reads the contract from it. The runner's server sends COOP and COEP on
 * every response; the plain runs override both with 'unsafe-none'.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EngineId } from '../../scripts/engines/engines.js';
import { runInEngine } from '../../scripts/engines/run.js';
import type { Report } from '../../bench/report/json.js';
import { buildPage } from '../build.js';
import { checkResults, type Situation } from './check.js';
import type { Mode } from '../app/plan.js';

const SUB_PATH = 'fourfold/bench';
/** The contract: a quick run takes at most this long in this machine's headless Chromium. */
const QUICK_LIMIT_S = 180;

interface Outcome {
  state: string;
  message?: string;
  status?: string;
  notices: string[];
  results?: Report;
}

/** The entry module the runner's page imports: opens the site in a frame and returns what the contract promises. */
function probe(mode: Mode): string {
  return `// Opens the benchmark page (a sub-path, same origin) in a full-window frame; resolves once it is done or failed.
export default async ({ progress }) => {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position:fixed;left:0;top:0;width:100vw;height:100vh;border:0';
  frame.src = ${JSON.stringify(`./${SUB_PATH}/index.html?run=${mode}`)};
  document.body.append(frame);
  let said = '';
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const doc = frame.contentDocument;
    if (!doc || !doc.documentElement) continue;
    const label = doc.getElementById('label')?.textContent ?? '';
    if (label !== said) progress((said = label));
    const state = doc.documentElement.dataset.state;
    if (state === 'done' || state === 'failed' || state === 'stopped') {
      return {
        state,
        message: doc.documentElement.dataset.message,
        status: doc.getElementById('status')?.textContent ?? undefined,
        notices: [...doc.querySelectorAll('#notices .notice')].map((n) => n.textContent),
        results: frame.contentWindow.benchResults,
      };
    }
  }
};
`;
}

/** Response headers of each serving, besides the runner's COOP and COEP; what check.ts expects of it. */
const SERVINGS: Record<string, { headers?: Record<string, string>; isolated: boolean; situation: Situation }> = {
  plain: { headers: { 'cross-origin-opener-policy': 'unsafe-none', 'cross-origin-embedder-policy': 'unsafe-none' }, isolated: false, situation: 'normal' },
  isolated: { isolated: true, situation: 'normal' },
  'no-workers': { headers: { 'content-security-policy': "worker-src 'none'" }, isolated: true, situation: 'no-workers' },
  'no-wasm': { headers: { 'content-security-policy': "script-src 'self'" }, isolated: true, situation: 'no-wasm' },
};

function option(name: string, fallback: string): string {
  return (
    process.argv
      .slice(2)
      .find((a) => a.startsWith(`--${name}=`))
      ?.slice(name.length + 3) ?? fallback
  );
}

async function main(): Promise<void> {
  const known = /^--(browsers|serving|mode|save)=/;
  const unknown = process.argv.slice(2).filter((a) => !known.test(a));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(' ')}`);
  const browsers = option('browsers', 'chromium,firefox,webkit').split(',') as EngineId[];
  const chosen = process.argv
    .slice(2)
    .find((a) => a.startsWith('--serving='))
    ?.slice(10)
    .split(',');
  const servingsOf = (browser: EngineId) => chosen ?? (browser === 'chromium' ? ['plain', 'isolated', 'no-workers', 'no-wasm'] : ['plain', 'isolated']);
  const unknownServing = (chosen ?? []).filter((s) => SERVINGS[s] === undefined);
  if (unknownServing.length > 0) throw new Error(`unknown serving ${unknownServing.join(', ')} (servings: ${Object.keys(SERVINGS).join(', ')})`);
  const mode = option('mode', 'quick') as Mode;
  const save = process.argv.slice(2).some((a) => a.startsWith('--save=')) ? resolve(option('save', '')) : undefined;
  if (mode !== 'quick' && mode !== 'full') throw new Error(`--mode is quick or full, got ${mode}`);

  const dir = mkdtempSync(join(tmpdir(), 'fourfold-page-'));
  let failed = false;
  try {
    const t = performance.now();
    await buildPage(join(dir, SUB_PATH));
    writeFileSync(join(dir, 'probe.js'), probe(mode));
    console.log(`built the page in ${((performance.now() - t) / 1000).toFixed(1)} s; served from /${SUB_PATH}/`);
    for (const browser of browsers) {
      for (const serving of servingsOf(browser)) {
        const { headers, isolated, situation } = SERVINGS[serving]!;
        let lastNote = 0;
        let started = false;
        const attempt = () =>
          runInEngine(browser, {
            entry: join(dir, 'probe.js'),
            timeoutMs: (mode === 'quick' ? 10 : 45) * 60_000,
            ...(headers === undefined ? {} : { headers }),
            onProgress: (label) => {
              started = true;
              if (performance.now() - lastNote < 15_000) return;
              lastNote = performance.now();
              process.stderr.write(`  ${browser} ${serving}: ${label}\n`);
            },
          });
        let run = await attempt();
        // A browser that never started the page (WebKitGTK's MiniBrowser once sat idle for the whole
        // limit on a loaded machine, and passed when launched again) gets one more launch, as in the engine matrix.
        if (!run.ok && !started) {
          console.log(`  ${browser} ${serving}: the page never started (${run.error}); launched once more`);
          run = await attempt();
        }
        const name = `${browser}, ${serving}`;
        if (!run.ok) {
          failed = true;
          console.log(`FAIL ${name}: ${run.error}\n  ${run.log.slice(-15).join('\n  ')}`);
          continue;
        }
        const outcome = run.value as Outcome;
        const problems =
          outcome.state === 'done'
            ? checkResults(outcome.results, { mode, isolated, situation })
            : [`state ${outcome.state}: ${outcome.message ?? outcome.status ?? ''}`];
        const seconds = outcome.results?.durationSeconds ?? NaN;
        if (browser === 'chromium' && mode === 'quick' && situation === 'normal' && seconds > QUICK_LIMIT_S)
          problems.push(`a quick run took ${seconds} s in Chromium, over the ${QUICK_LIMIT_S} s it may take`);
        const engine = outcome.results?.engines[0];
        const timed = engine?.cases.filter((c) => c.ns !== undefined).length ?? 0;
        const pool = outcome.results?.page?.scaling.pool;
        const summary = `${seconds.toFixed(0)} s of measuring (${(run.ms / 1000).toFixed(0)} s with the browser), ${timed} columns timed, threads ${outcome.results?.page?.scaling.threads.join(',') ?? '?'}, pool ${pool === undefined ? '-' : `${pool.ready} ready${pool.shared ? ', shared' : ''}`}`;
        if (problems.length > 0) {
          failed = true;
          console.log(`FAIL ${name}: ${summary}\n  ${problems.slice(0, 30).join('\n  ')}${problems.length > 30 ? `\n  ... ${problems.length - 30} more` : ''}`);
        } else {
          console.log(`pass ${name}: ${summary}`);
        }
        for (const notice of outcome.notices) console.log(`  notice: ${notice}`);
        if (save !== undefined && outcome.results !== undefined) {
          mkdirSync(save, { recursive: true });
          const file = join(save, `${browser}${serving === 'isolated' ? '' : `-${serving}`}.json`);
          writeFileSync(file, JSON.stringify(outcome.results, null, 1) + '\n');
          console.log(`  saved ${file}`);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
