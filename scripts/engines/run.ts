/**
 * runInEngine: the one generic operation every engine supports. Runs an ES
 * module in an engine and returns the JSON its default export resolves to.
 *
 *   const r = await runInEngine('firefox', { entry: '/abs/path/bundle.js', timeoutMs: 60_000 });
 *   if (r.ok) use(r.value); else console.error(r.error, r.log);
 *
 * The entry contract: an ES module whose default export is
 * `(context: { progress(message: string): void }) => unknown | Promise<unknown>`,
 * resolving to something JSON can carry. For browsers (and, in practice, for
 * Deno and Bun) the entry must be self-contained: see bundle.ts; shells
 * (Hermes) take the script bundle.ts makes for target 'shell'. Browser
 * runs serve the entry's directory, so files beside it are reachable with
 * `new URL('./x', import.meta.url)`.
 */
import { dirname, basename } from 'node:path';
import { ENGINES, requireInstalled, type EngineId } from './engines.js';
import { servePage, type PageOutcome } from './serve.js';
import { runScript } from './drivers/script.js';
import { runShell } from './drivers/shell.js';
import { runWorker } from './drivers/workerd.js';
import { openChromium } from './drivers/chromium.js';
import { openFirefox } from './drivers/firefox.js';
import { openWebkit } from './drivers/webkit.js';
import { openWpe } from './drivers/wpe.js';
import type { OpenPage } from './drivers/types.js';
import { threadReport } from './threads.js';

export interface RunOptions {
  /** Path of the entry module (see the contract above). */
  entry: string;
  /** Whole-run limit, browser launch included. Default 120 s. */
  timeoutMs?: number;
  /** Extra environment variables (script engines only). */
  env?: Record<string, string>;
  /** Receives each `context.progress(message)` of the entry. */
  onProgress?: (message: string) => void;
  /** Browsers only: the run is given up if the entry has reported no progress this long after the launch (launches.ts). */
  startMs?: number;
  /** Headers on every response of the page server (browsers only), e.g. a Content-Security-Policy. */
  headers?: Record<string, string>;
}

export interface RunResult {
  engine: EngineId;
  ok: boolean;
  /** What the entry's default export resolved to (ok). */
  value?: unknown;
  /** Why there is no value: the entry threw, the engine died or timed out (not ok). */
  error?: string;
  ms: number;
  /** Engine output: stderr of script engines, console and driver messages of browsers. */
  log: string[];
}

const BROWSERS: Partial<Record<EngineId, OpenPage>> = { chromium: openChromium, firefox: openFirefox, webkit: openWebkit, wpe: openWpe };

export async function runInEngine(id: EngineId, options: RunOptions): Promise<RunResult> {
  const engine = ENGINES[id];
  const t0 = Date.now();
  const log: string[] = [];
  const timeoutMs = options.timeoutMs ?? 120_000;
  const finish = (o: PageOutcome): RunResult => ({ engine: id, ...o, ms: Date.now() - t0, log });
  try {
    requireInstalled(engine);
  } catch (e) {
    return finish({ ok: false, error: (e as Error).message });
  }
  if (engine.kind === 'script') {
    return finish(await runScript(engine, options.entry, { timeoutMs, env: options.env, onProgress: options.onProgress, log: (l) => log.push(l) }));
  }
  if (engine.kind === 'shell') {
    return finish(await runShell(engine, options.entry, { timeoutMs, onProgress: options.onProgress, log: (l) => log.push(l) }));
  }
  if (engine.kind === 'worker') {
    return finish(await runWorker(engine, options.entry, { timeoutMs, onProgress: options.onProgress, log: (l) => log.push(l) }));
  }

  let lastProgress = '';
  let lastProgressAt = 0;
  const server = await servePage({
    dir: dirname(options.entry),
    entry: basename(options.entry),
    headers: options.headers,
    onProgress: (m) => {
      lastProgress = m;
      lastProgressAt = Date.now();
      options.onProgress?.(m);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  let startTimer: NodeJS.Timeout | undefined;
  const notStarted = new Promise<PageOutcome>((resolve) => {
    if (options.startMs === undefined) return;
    const startMs = options.startMs;
    startTimer = setTimeout(() => {
      if (lastProgressAt === 0) resolve({ ok: false, error: `no progress from the page ${Math.round(startMs / 1000)} s after the launch` });
    }, startMs);
  });
  const timeout = new Promise<PageOutcome>((resolve) => {
    timer = setTimeout(async () => {
      // How long ago tells a page whose thread stopped (nothing for minutes) from one still reporting a wait.
      const last = lastProgress ? ` (last progress ${Math.round((Date.now() - lastProgressAt) / 1000)} s before: ${lastProgress})` : '';
      // And what the browser's threads do: one spinning, or all asleep.
      for (const line of await threadReport()) log.push(`at the timeout: ${line}`);
      resolve({ ok: false, error: `timed out after ${timeoutMs} ms${last}` });
    }, timeoutMs);
  });
  // Resolves once the browser is up. Every driver bounds its own launch (at most about 30 s).
  const opening = BROWSERS[id]!(engine, server.url, (l) => log.push(l));
  opening.catch(() => {});
  try {
    const outcome = await Promise.race([opening.then((s) => Promise.race([server.result, s.died])), timeout, notStarted]).catch(
      (e: Error): PageOutcome => ({ ok: false, error: `${id}: ${e.message}` }),
    );
    return finish(outcome);
  } finally {
    clearTimeout(timer);
    clearTimeout(startTimer);
    // Also when the launch outlived the timeout: close what it opens, once it has.
    await opening.then(
      (s) => s.close(),
      () => {},
    );
    await server.close();
  }
}
