/**
 * The page: shows the browser's environment, runs the measurement in a
 * Worker on request (or by itself with ?run=quick / ?run=full; the Worker
 * is started by measuring-worker.ts), draws the results as they come, and
 * keeps or shares them (keeping.ts).
 *
 * The contract tests rely on: `document.documentElement.dataset.state` is
 * 'idle', 'running', then 'done' (or 'stopped', or 'failed' with the reason
 * in #status and `dataset.message`); 'shared' when showing a link's
 * result. `window.benchResults` holds the results object once a run ends.
 */
import type { EngineResult, PoolState } from '../../bench/core/types.js';
import { EngineCollector } from '../../bench/report/collector.js';
import type { Report, RunStatus } from '../../bench/report/json.js';
import type { ScalingPoint } from '../../bench/report/json.js';
import { detectEnvironment, notices, refineEnvironment, type Environment, type Notice } from './environment.js';
import type { MeasureMessage, MeasureRequest, Phase } from './measure.js';
import { oneCoreConfig, largeConfig, scalingConfig, threadCounts, type Mode } from './plan.js';
import { browserId, joinRuns, pageReport, runNotices } from './results.js';
import { decodeHash, expand } from './share.js';
import { environmentHtml, noticesHtml, resultHtml } from './view.js';
import { copyLink, download } from './keeping.js';
import { type MeasuringWorker, QUIET_MS, STUCK_MS, startWorker } from './measuring-worker.js';

/** Package versions, written in by page/build.ts. */
declare const FOURFOLD_PAGE_VERSIONS: Record<string, string>;

declare global {
  interface Window {
    benchResults?: Report;
  }
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const root = document.documentElement;

type State = 'idle' | 'running' | 'done' | 'stopped' | 'failed' | 'shared';
function setState(state: State, message?: string): void {
  root.dataset.state = state;
  if (message === undefined) delete root.dataset.message;
  else root.dataset.message = message;
}

let environment: Environment = detectEnvironment();
/** The result on screen, redrawn when the width changes. */
let shown: { report: Report; shared: boolean } | undefined;

function status(text: string): void {
  $('status').textContent = text;
}

function showNotices(extra: readonly Notice[] = []): void {
  $('notices').innerHTML = noticesHtml([...notices(environment), ...extra]);
}

/** The width charts are drawn at: the result section's. */
const chartWidth = () => Math.max(300, Math.min(1200, Math.floor($('results').clientWidth || window.innerWidth - 24)));

function show(report: Report, shared: boolean): void {
  shown = { report, shared };
  $('results').innerHTML = resultHtml(report, chartWidth(), shared);
  $('env').innerHTML = environmentHtml(shared && report.page !== undefined ? report.page.environment : environment, report.engines[0]);
  $('env-title').textContent = shared ? 'Their browser and device' : 'This browser and device';
}

let lastWidth = 0;
window.addEventListener('resize', () => {
  const width = chartWidth();
  if (shown === undefined || Math.abs(width - lastWidth) < 40) return;
  lastWidth = width;
  show(shown.report, shown.shared);
});

// ------------------------------------------------------------------ one run

interface Run {
  readonly mode: Mode;
  readonly started: Date;
  readonly t0: number;
  /** The all-cores part's thread counts; none when the page measures without a Worker. */
  threads: number[];
  /** What the run found about the page (a Worker that could not start). */
  readonly notices: Notice[];
  /** Each part's results as they come (the all-cores and large ones made anew when those parts start again). */
  collectors: Record<Phase, EngineCollector>;
  readonly finals: Partial<Record<Phase, EngineResult>>;
  allCoresSkipped?: string;
  pool?: PoolState;
  /** The all-cores speedups, each thread count's from its own case. */
  readonly points: ScalingPoint[];
  stop: () => void;
  ended: boolean;
  /** When the measuring Worker's last message came, and its last answer to 'where' (performance.now()). */
  heard: number;
  answered: number;
  /** What the progress label said last, or the last step the measurement announced, whichever came later. */
  last: string;
  /** Whether the measurement's latest message said it is starting fourfold/parallel's workers. */
  startingPool: boolean;
  /** Whether the all-cores part was started again in a second measuring Worker (measureInWorker). */
  restarted: boolean;
}

let run: Run | undefined;

/** The results so far (each part: its final result, else what it sent). */
function reportOf(r: Run, state: RunStatus): Report {
  const oneCore = r.finals['one-core'] ?? r.collectors['one-core'].partial();
  // A stopped run's all-cores part: the thread counts' cases so far, the synchronous function's pooled (joinRuns).
  const partial = r.collectors['all-cores'].partial();
  const allCores = r.finals['all-cores'] ?? (partial === undefined ? undefined : joinRuns([partial]));
  const large = r.finals.large ?? r.collectors.large.partial();
  const versions = FOURFOLD_PAGE_VERSIONS;
  const shared = environment.sharedMemory;
  return pageReport({
    started: r.started,
    seconds: (performance.now() - r.t0) / 1000,
    status: state,
    mode: r.mode,
    environment,
    address: location.origin + location.pathname,
    oneCore: { result: oneCore, config: oneCoreConfig(r.mode, versions) },
    allCores: {
      // The settings of the largest thread count's case (the others differ in their worker count only).
      ...(allCores === undefined ? {} : { result: allCores, config: scalingConfig(r.mode, Math.max(...r.threads), shared, versions) }),
      threads: r.threads,
      ...(r.pool === undefined ? {} : { pool: r.pool }),
      ...(r.points.length === 0 ? {} : { points: r.points }),
      ...(r.allCoresSkipped === undefined ? {} : { error: r.allCoresSkipped }),
    },
    // With fourfold/parallel's column where the all-cores part ran (measure.ts).
    large: { result: large, config: largeConfig(r.mode, r.finals['all-cores'] !== undefined, versions) },
    notices: [...notices(environment), ...r.notices, ...runNotices(oneCore, environment)],
  });
}

/** Share of the progress bar each part takes. */
const WEIGHT: Record<Phase, { from: number; share: number }> = {
  'one-core': { from: 0, share: 0.62 },
  'all-cores': { from: 0.62, share: 0.24 },
  large: { from: 0.86, share: 0.14 },
};

const PHASE_LABEL: Record<Phase, string> = { 'one-core': 'one core', 'all-cores': 'all cores', large: 'scrypt, Argon2id and age' };

let drawTimer: ReturnType<typeof setTimeout> | undefined;
function drawSoon(r: Run): void {
  if (drawTimer !== undefined) return;
  drawTimer = setTimeout(() => {
    drawTimer = undefined;
    if (run === r && !r.ended) show(reportOf(r, 'running'), false);
  }, 1500);
}

function finish(r: Run, state: RunStatus, failure?: string): void {
  if (r.ended) return;
  r.ended = true;
  clearTimeout(drawTimer);
  drawTimer = undefined;
  const report = reportOf(r, state);
  window.benchResults = report;
  show(report, false);
  showNotices([...r.notices, ...runNotices(report.engines[0], environment)]);
  $('progress').hidden = state === 'complete';
  $('stop').hidden = true;
  for (const id of ['run-quick', 'run-full']) $<HTMLButtonElement>(id).disabled = false;
  $('share').hidden = report.engines.length === 0;
  const seconds = Math.round(report.durationSeconds);
  if (failure !== undefined) {
    status(`The run failed: ${failure}`);
    setState('failed', failure);
  } else if (state === 'complete') {
    status(`Done in ${seconds} s.`);
    setState('done');
  } else {
    status(`Stopped after ${seconds} s.`);
    setState('stopped');
  }
}

function onMessage(r: Run, m: MeasureMessage): void {
  if (r.ended) return;
  if (m.type !== 'where') r.startingPool = m.type === 'step' && m.pool;
  switch (m.type) {
    case 'progress': {
      const w = WEIGHT[m.phase];
      $<HTMLProgressElement>('bar').value = w.from + w.share * m.progress.fraction;
      $('label').textContent = r.last = `${PHASE_LABEL[m.phase]}: ${m.progress.label}`;
      if (m.progress.results !== undefined) {
        r.collectors[m.phase].add(m.progress.results);
        drawSoon(r);
      }
      break;
    }
    case 'phase-done':
      r.finals[m.phase] = m.result;
      show(reportOf(r, 'running'), false);
      break;
    case 'points':
      r.points.push(...m.points);
      break;
    case 'all-cores-skipped':
      r.allCoresSkipped = m.reason;
      if (m.pool !== undefined) r.pool = m.pool;
      break;
    case 'done':
      if (m.pool !== undefined) r.pool = m.pool;
      finish(r, 'complete');
      break;
    case 'failed':
      finish(r, 'interrupted', m.error);
      break;
    case 'step':
      r.last = m.step;
      break;
    case 'where':
      r.answered = performance.now();
      // Said in the progress label, where a visitor (and the page test's log) reads it.
      $('label').textContent =
        `${silence(r)}; the measurement is at: ${m.step} (fourfold/parallel: ${m.pool.workers} workers, ${m.pool.ready} ready, ${m.pool.jobs} jobs done${m.pool.failure === undefined ? '' : `, ${m.pool.failure}`})`;
      return;
  }
  r.heard = performance.now();
}

/** How long the measuring Worker has said nothing, as the progress label puts it. */
const silence = (r: Run): string => `no progress for ${Math.round((performance.now() - r.heard) / 1000)} s since "${r.last}"`;

/**
 * Measures in a Worker, watching it: a measurement silent for QUIET_MS is
 * asked where it is (once per QUIET_MS), and no answer means its thread is
 * busy. One stuck while it starts fourfold/parallel's workers (STUCK_MS)
 * is ended, and the all-cores part starts again in a new Worker, once.
 */
async function measureInWorker(r: Run, request: MeasureRequest): Promise<void> {
  const worker = await startWorker(
    request,
    (m) => onMessage(r, m),
    (why) => finish(r, 'interrupted', why),
  );
  r.stop = worker.stop;
  r.heard = performance.now();
  let asked = 0;
  const watch = setInterval(() => {
    if (r.ended) return clearInterval(watch);
    const t = performance.now();
    const unanswered = asked > Math.max(r.heard, r.answered);
    if (unanswered && r.startingPool && t - asked >= STUCK_MS && !r.restarted && r.finals['one-core'] !== undefined) {
      clearInterval(watch);
      restartAllCores(r, request, worker);
      return;
    }
    if (t - Math.max(r.heard, asked) < (r.startingPool ? STUCK_MS : QUIET_MS)) return;
    if (unanswered) $('label').textContent = `${silence(r)}; the measuring worker does not answer (busy)`;
    asked = t;
    worker.ask();
  }, 5000);
}

/** Ends a measuring Worker stuck starting fourfold/parallel's workers and measures the all-cores part again in a new one. */
function restartAllCores(r: Run, request: MeasureRequest, stuck: MeasuringWorker): void {
  stuck.stop();
  r.restarted = true;
  r.notices.push({
    level: 'warn',
    text:
      `The measuring Worker stopped answering at "${r.last}" (${silence(r)}): it was ended, and the all-cores, scrypt, Argon2id and age parts ran again in a new one. ` +
      "Firefox has been seen to block a worker's thread for good while it starts a worker of its own.",
  });
  showNotices(r.notices);
  r.collectors['all-cores'] = new EngineCollector(browserId(environment));
  r.collectors.large = new EngineCollector(browserId(environment));
  delete r.finals['all-cores'];
  delete r.finals.large;
  r.points.length = 0;
  r.startingPool = false;
  measureInWorker(r, { ...request, allCoresOnly: true }).catch((cause: unknown) =>
    finish(r, 'interrupted', `the measuring worker could not start again (${cause instanceof Error ? cause.message : String(cause)})`),
  );
}

async function start(mode: Mode): Promise<void> {
  if (run !== undefined && !run.ended) return;
  const r: Run = {
    mode,
    started: new Date(),
    t0: performance.now(),
    threads: threadCounts(environment.cores),
    collectors: {
      'one-core': new EngineCollector(browserId(environment)),
      'all-cores': new EngineCollector(browserId(environment)),
      large: new EngineCollector(browserId(environment)),
    },
    notices: [],
    points: [],
    finals: {},
    stop: () => {},
    ended: false,
    heard: performance.now(),
    answered: 0,
    last: 'loading the libraries',
    startingPool: false,
    restarted: false,
  };
  run = r;
  window.benchResults = undefined;
  shown = undefined;
  setState('running');
  $('results').innerHTML = '';
  $('share').hidden = true;
  $('link').hidden = true;
  $('progress').hidden = false;
  $<HTMLProgressElement>('bar').value = 0;
  $('label').textContent = 'loading the libraries';
  for (const id of ['run-quick', 'run-full']) $<HTMLButtonElement>(id).disabled = true;
  status(`Measuring (${mode})…`);
  const request: MeasureRequest = { mode, threads: r.threads, versions: FOURFOLD_PAGE_VERSIONS };
  if (environment.workers) {
    try {
      await measureInWorker(r, request);
      $('stop').hidden = false;
      return;
    } catch (cause) {
      r.notices.push({
        level: 'warn',
        text:
          `The measuring Worker could not start (${cause instanceof Error ? cause.message : String(cause)}; a Content-Security-Policy without worker-src?): ` +
          'the page measures by itself, answers slowly while it does, and has no all-cores part.',
      });
      showNotices(r.notices);
    }
  }
  r.threads = [];
  // No Worker: the page measures on its own thread, yielding between cases (the core does every 250 ms).
  // A URL, not a module name, so that the page's own bundle stays small: measure.js is built beside it.
  const { measure } = (await import(/* @vite-ignore */ new URL('./measure.js', import.meta.url).href)) as typeof import('./measure.js');
  await measure({ ...request, threads: [] }, (m) => onMessage(r, m));
}

// ------------------------------------------------------------------ start

async function main(): Promise<void> {
  $('env').innerHTML = environmentHtml(environment);
  showNotices();
  $('run-quick').addEventListener('click', () => void start('quick'));
  $('run-full').addEventListener('click', () => void start('full'));
  $('stop').addEventListener('click', () => {
    if (run === undefined || run.ended) return;
    run.stop();
    finish(run, 'interrupted');
  });
  $('download').addEventListener('click', () => {
    if (window.benchResults !== undefined) download(window.benchResults, environment);
  });
  $('copy').addEventListener('click', () => {
    if (window.benchResults !== undefined) void copyLink(window.benchResults, $<HTMLInputElement>('link'), status);
  });
  for (const id of ['run-quick', 'run-full']) $<HTMLButtonElement>(id).disabled = false;

  environment = await refineEnvironment(environment);
  $('env').innerHTML = environmentHtml(environment);

  if (location.hash.startsWith('#r=')) {
    try {
      const summary = await decodeHash(location.hash);
      if (summary !== undefined) {
        show(expand(summary), true);
        status('Showing a shared result. Run it here to compare with this device.');
        setState('shared');
        return;
      }
    } catch (cause) {
      status(`This link's result cannot be read: ${cause instanceof Error ? cause.message : String(cause)}.`);
    }
  }
  const asked = new URLSearchParams(location.search).get('run');
  if (asked === 'quick' || asked === 'full') {
    void start(asked);
    return;
  }
  setState('idle');
}

main().catch((cause) => {
  const message = cause instanceof Error ? cause.message : String(cause);
  status(`The page failed: ${message}`);
  setState('failed', message);
});
