/**
 * check.ts's Next.js app (fixture/nextjs/), made in a project of its own
 * with the tarball installed: Next.js 16, React and TypeScript at pinned
 * versions. Three route handlers: app/edge (`runtime = 'edge'`: each
 * family's calls), app/edge-parallel (edge: fourfold/parallel's calls, on
 * the calling thread) and app/node (the Node runtime: both, with
 * fourfold/parallel's workers). The app is built with `next build`
 * (Turbopack, Next.js 16's default) and `next build --webpack`, each
 * started with `next start` on a free loopback port; each route is
 * requested twice, and each answer must come within REQUEST_MS (a call
 * that never settles fails there, or inside the route after calls.js's
 * CALL_MS), with every call's result the same as plain Node's from the
 * tarball (node-calls.js), on the simd tier, ready() 'simd'; in the Node
 * route the pool's workers started and no call fell back. Neither the
 * builds nor the server may print a warning (Next's own notices of
 * the edge runtime and its build cache aside, WARNING_ALLOWED): no "A Node.js API is used",
 * no "Dynamic Code Evaluation", nothing from fourfold.
 *
 * Both builds have every route: fourfold/parallel's edge entry (the
 * edge-light condition) has no Web Worker form, whose
 * `new Worker(new URL(..., import.meta.url))` webpack's runtime resolves
 * with `document.baseURI` when the edge route loads: webpack's build
 * failed there ("document is not defined").
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Checker } from './common.js';

/** The most one request may take: every call of a route is milliseconds of work, a few seconds on a busy 2-core machine. */
const REQUEST_MS = 60_000;
/** How long `next start` may take to listen. */
const START_MS = 30_000;
/** Next's own notices about an edge route, printed whatever it imports: not fourfold's doing. */
const WARNING_ALLOWED = [
  /^⚠ The Edge Runtime is deprecated\. /,
  /^⚠ Using edge runtime on a page currently disables static generation for that page$/,
  // Next's advice where CI is set and .next/cache is empty (a fresh project always is): about Next's own cache.
  /^⚠ No build cache found\. Please configure build caching for faster rebuilds\. /,
];
/** A line of `next build` that warns or fails. */
const WARNING = /⚠|⨯|warn|error|A Node\.js API is used|Dynamic Code Evaluation|fourfold/i;
/** What `next start` prints when all is well: anything else (a warning, an unhandled rejection, fourfold's notices) fails. */
const SERVER_LINES = [/^▲ Next\.js \d/, /^- (Local|Network):\s+http:\/\/127\.0\.0\.1:\d+$/, /^✓ Ready in /, /^✓ Running next\.config took /, /^\s*$/];
const ROUTES = ['edge', 'edge-parallel', 'node'] as const;
type Route = (typeof ROUTES)[number];

interface Report {
  results: Record<string, string>;
  failed: string | null;
  tier: string;
  ready: string;
  why: string | null;
  more: { workers: number; ready: number; jobs: number; failure: string | null } | null;
}

/** `from`'s files and folders, copied into `to` over what is there. */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (statSync(join(from, name)).isDirectory()) copyTree(join(from, name), join(to, name));
    else copyFileSync(join(from, name), join(to, name));
  }
}

/** A port no one listens on now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `text` as a route's report, or undefined. */
function reportOf(text: string): Report | undefined {
  try {
    return JSON.parse(text) as Report;
  } catch {
    return undefined;
  }
}

/** One GET of `url`: its status and text, or why none came within REQUEST_MS. */
async function get(url: string): Promise<{ status: number; text: string; ms: number } | { error: string }> {
  const sent = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_MS) });
    return { status: response.status, text: await response.text(), ms: performance.now() - sent };
  } catch (e) {
    const error = e as Error;
    return {
      error: error.name === 'TimeoutError' ? `no answer within ${REQUEST_MS / 1000} s (a call that never settles?)` : `${error.name}: ${error.message}`,
    };
  }
}

/** `next start` in `dir` on a free loopback port: its address, its output so far, and a way to stop it; or why it did not listen. */
async function start(dir: string): Promise<{ url: string; output: () => string; stop: () => Promise<void> } | { error: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  for (const until = performance.now() + START_MS; performance.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null) return { error: `next start exited (code ${child.exitCode})\n${out}` };
    if (/✓ Ready in /.test(out)) return { url, output: () => out, stop };
  }
  await stop();
  return { error: `next start did not listen within ${START_MS / 1000} s\n${out}` };
}

/** A route's report against Node's: every call answered with Node's bytes, the simd tier, and (the Node route) workers that did the work. */
function judge(route: Route, got: Report, node: Report): string[] {
  const wrong: string[] = [];
  const expected = Object.keys(node.results).filter((name) =>
    route === 'edge' ? !name.startsWith('parallel ') : route === 'node' || name.startsWith('parallel '),
  );
  if (got.failed !== null) wrong.push(`failed: ${got.failed}`);
  const differ = expected.filter((name) => got.results[name] !== node.results[name]);
  if (differ.length)
    wrong.push(`not Node's result: ${differ.map((n) => `${n} ${got.results[n] === undefined ? '(not run)' : JSON.stringify(got.results[n])}`).join('; ')}`);
  if (got.tier !== 'simd' || got.ready !== 'simd' || got.why !== null) wrong.push(`tier ${got.tier}, ready() ${got.ready}, simdUnavailable() ${got.why}`);
  // The Node route's pool: workers started and ready, none failed (a failure sends every call to the calling thread, with a warning).
  if (route === 'node' && !(got.more && got.more.ready >= 1 && got.more.failure === null)) wrong.push(`pool: ${JSON.stringify(got.more)}`);
  return wrong;
}

/** One build (Turbopack's or webpack's), started and asked each route twice. */
async function buildAndServe(c: Checker, dir: string, bundler: 'Turbopack' | 'webpack', node: Report): Promise<void> {
  rmSync(join(dir, '.next'), { recursive: true, force: true });
  const args = bundler === 'webpack' ? ['build', '--webpack'] : ['build'];
  const t = performance.now();
  const built = c.sh(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), ...args], dir, { NEXT_TELEMETRY_DISABLED: '1' });
  const buildS = ((performance.now() - t) / 1000).toFixed(0);
  const output = c.output(built);
  const warnings = output.split('\n').filter((l) => WARNING.test(l) && !WARNING_ALLOWED.some((allowed) => allowed.test(l.trim())));
  const where = `Next.js, next build${bundler === 'webpack' ? ' --webpack' : ''} (${bundler})`;
  if (
    !c.record(
      `${where}: the app's ${ROUTES.length} route handlers (${ROUTES.join(', ')}) build in ${buildS} s, with no warning but Next's own (the edge runtime, its build cache)`,
      built.status === 0 && warnings.length === 0 && ROUTES.every((r) => new RegExp(`[├└┌] ƒ /${r}$`, 'm').test(output)),
      built.status === 0 ? `${warnings.join('\n')}\n${output}` : output,
    )
  )
    return;

  const server = await start(dir);
  if ('error' in server) return void c.record(`${where}: next start listens on 127.0.0.1`, false, server.error);
  try {
    for (const route of ROUTES) {
      const answers = [await get(`${server.url}/${route}`), await get(`${server.url}/${route}`)];
      const wrong = answers.flatMap((a, i) => {
        const which = `request ${i + 1}`;
        if ('error' in a) return [`${which}: ${a.error}`];
        const report = a.status === 200 ? reportOf(a.text) : undefined;
        if (report === undefined) return [`${which}: ${a.status} ${a.text.slice(0, 500)}`];
        return judge(route, report, node).map((w) => `${which}: ${w}`);
      });
      const first = answers[0]!;
      const ok = reportOf('text' in first ? first.text : '');
      const calls = ok ? Object.keys(ok.results).length : 0;
      const times = answers.map((a) => ('ms' in a ? `${(a.ms / 1000).toFixed(1)} s` : 'none')).join(', ');
      const pool = ok?.more ? `; pool: ${ok.more.workers} workers, ${ok.more.jobs} jobs${ok.more.failure ? `, ${ok.more.failure}` : ''}` : '';
      c.record(
        `${where}, next start: GET /${route} (${route === 'node' ? 'Node' : 'edge'} runtime) twice, each 200 within ${REQUEST_MS / 1000} s, every call with Node's bytes on the simd tier (${calls} calls; ${times}${pool})`,
        wrong.length === 0,
        wrong.join('\n'),
      );
    }
  } finally {
    await server.stop();
  }
  const printed = server
    .output()
    .split('\n')
    .filter((l) => !SERVER_LINES.some((fine) => fine.test(l.trim())));
  c.record(`${where}, next start: the server printed nothing but its start (no warning, no unhandled rejection)`, printed.length === 0, printed.join('\n'));
}

/** The Next.js app in `dir`, made from the fixture (or a kept one, remade), with the tarball installed, built and served by each bundler. */
export async function checkNextjs(c: Checker, dir: string, fixture: string, tarball: string): Promise<void> {
  const t = performance.now();
  rmSync(join(dir, 'app'), { recursive: true, force: true });
  copyTree(join(fixture, 'nextjs'), dir);
  const install = c.sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', tarball], dir);
  if (!c.record('Next.js app: npm install of Next.js, React and TypeScript (fixture/nextjs) and the tarball', install.status === 0, c.output(install))) return;
  const r = c.sh(process.execPath, ['node-calls.js'], dir);
  const node = reportOf(r.stdout);
  if (
    !c.record(
      'Next.js app: Node runs its calls (fixture/nextjs/node-calls.js: the bytes its routes must give)',
      r.status === 0 && node?.failed === null,
      c.output(r),
    )
  )
    return;
  for (const bundler of ['Turbopack', 'webpack'] as const) await buildAndServe(c, dir, bundler, node!);
  console.log(`     the Next.js checks took ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
