/**
 * check.ts's edge hosts, in the fresh project with the tarball installed:
 *
 * - Cloudflare Workers: fixture/edge/worker.js built by wrangler's own
 *   bundler (`wrangler deploy --dry-run`, the `workerd` condition) and run
 *   in workerd through Miniflare, the engine of `wrangler dev`: one call of
 *   every family (fixture/edge/calls.js), each on the simd tier with the
 *   bytes Node gives, the kernels uploaded as modules; and argon2idHash at
 *   OWASP's settings timed inside the Worker and in Node, in turns, each
 *   string checked by Node's argon2Verify (the times printed, not checked:
 *   speed is the benchmark's business);
 * - Vercel's edge: the same calls bundled with the `edge-light` condition
 *   (esbuild, each `.wasm?module` import bound to a module compiled by the
 *   host, as Vercel's runtime binds them) and run in the edge-runtime
 *   package's context with WebAssembly code generation off, as Vercel runs
 *   an edge function: the simd tier, Node's bytes.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { Checker } from './common.js';

interface CallsReport {
  results: Record<string, string>;
  tiers: Record<string, string>;
  ready: string;
  why: string | null;
}

/** The little of Miniflare (the fixture's, wrangler's dependency) this file uses. */
type MiniflareClass = new (options: {
  modules: boolean;
  modulesRoot: string;
  scriptPath: string;
  modulesRules: { type: string; include: string[] }[];
  compatibilityDate: string;
}) => { dispatchFetch(url: string): Promise<Response>; dispose(): Promise<void> };
/** The little of the edge-runtime package's EdgeRuntime (an EdgeVM) this file uses. */
type EdgeRuntimeClass = new (options: {
  codeGeneration: { strings: boolean; wasm: boolean };
  extend: (context: Record<string, unknown>) => Record<string, unknown>;
}) => { evaluate(code: string): unknown };

const FILES = ['calls.js', 'worker.js', 'wrangler.toml', 'node-calls.js', 'edge-light.js'];
/** Rounds of the timing, each a Node call and a Worker call in turn. */
const ROUNDS = 7;

/** calls.js's report against Node's: every result the same, every call and ready() on the simd tier, no reason to say. */
function sameAsNode(c: Checker, where: string, got: Partial<CallsReport>, node: CallsReport): void {
  const names = Object.keys(node.results);
  const wrong = names.filter((n) => got.results?.[n] !== node.results[n]);
  const slow = names.filter((n) => got.tiers?.[n] !== 'simd');
  c.record(
    `${where}: ${names.length} calls (${names.join(', ')}) give Node's bytes, each on the simd tier from the first request, ready() 'simd'`,
    wrong.length === 0 && slow.length === 0 && got.ready === 'simd' && got.why === null,
    `different bytes: ${wrong.join(', ') || 'none'}; not on simd: ${slow.map((n) => `${n} ${got.tiers?.[n]}`).join(', ') || 'none'}; ready ${got.ready}; why ${got.why}`,
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The kernels the Worker's calls reach (fixture/edge/calls.js): chacha, salsa, blake3, serpent, scrypt, argon2, and fourfold/sodium's blake2 (generichash) and siphash (shorthash, imported with the module). */
const WORKER_KERNELS = 8;

/** The Worker, built by wrangler and run in workerd. */
async function checkWorker(c: Checker, dir: string, node: CallsReport): Promise<void> {
  const wrangler = c.sh(join(dir, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', 'out'], join(dir, 'edge'), {
    WRANGLER_SEND_METRICS: 'false',
    CI: 'true',
  });
  const modules = wrangler.status === 0 ? readdirSync(join(dir, 'edge/out')).filter((f) => f.endsWith('.wasm')) : [];
  if (
    !c.record(
      `wrangler (its own bundler, the workerd condition) builds a Worker from the tarball, the kernels as ${modules.length} .wasm modules`,
      wrangler.status === 0 && modules.length === WORKER_KERNELS,
      c.output(wrangler),
    )
  )
    return;

  const { Miniflare } = (await import(pathToFileURL(join(dir, 'node_modules/miniflare/dist/src/index.js')).href)) as { Miniflare: MiniflareClass };
  const mf = new Miniflare({
    modules: true,
    modulesRoot: join(dir, 'edge/out'),
    scriptPath: join(dir, 'edge/out/worker.js'),
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-09-01',
  });
  try {
    const got = (await (await mf.dispatchFetch('http://worker/calls')).json()) as Partial<CallsReport>;
    sameAsNode(c, 'workerd (Miniflare, as wrangler dev runs it)', got, node);
    // The Worker's clock: local workerd's advances while code runs (Cloudflare's, in production, only between I/O).
    const argon2 = (await import(pathToFileURL(join(dir, 'node_modules/fourfold/dist/argon2/index.js')).href)) as {
      argon2idHash(password: string): Promise<string>;
      argon2Verify(stored: string, password: string): Promise<boolean>;
    };
    const inNode: number[] = [];
    const inWorker: number[] = [];
    const wrong: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const t = performance.now();
      await argon2.argon2idHash('correct horse battery staple');
      inNode.push(performance.now() - t);
      const answer = await mf.dispatchFetch('http://worker/argon2');
      const text = await answer.text();
      const { ms, stored } = (answer.ok ? JSON.parse(text) : {}) as { ms?: unknown; stored?: unknown };
      const fine = typeof ms === 'number' && ms > 0 && typeof stored === 'string' && (await argon2.argon2Verify(stored, 'correct horse battery staple'));
      if (!fine) wrong.push(`round ${round}: ${answer.status} ${text.slice(0, 200)}`);
      inWorker.push(Number(ms));
    }
    // A Worker that stops answering (workerd drops a request's timers once it has answered one) fails here, not as "NaN ms".
    c.record(`workerd: argon2idHash ${ROUNDS} times in turns, each string verifying in Node, each with its time`, wrong.length === 0, wrong.join('; '));
    console.log(
      `     argon2idHash (19 MiB, t = 2), median of ${ROUNDS} in turns, each by its own clock: Node ${process.version} ${median(inNode).toFixed(0)} ms, workerd ${median(inWorker).toFixed(0)} ms, ${(median(inWorker) / median(inNode)).toFixed(2)}x`,
    );
  } finally {
    await mf.dispose();
  }
}

/** `.wasm?module` imports as Vercel's runtime binds them: modules the host compiled, here the context's `kernels`, by file name (test/runtime/edge.test.ts too). */
export const kernelModules: Plugin = {
  name: 'kernel-modules',
  setup(b) {
    b.onResolve({ filter: /\.wasm\?module$/ }, (args) => ({ path: join(args.resolveDir, args.path.replace(/\?module$/, '')), namespace: 'kernel-module' }));
    b.onLoad({ filter: /.*/, namespace: 'kernel-module' }, (args) => ({
      contents: `export default globalThis.kernels[${JSON.stringify(
        args.path
          .split('/')
          .pop()!
          .replace(/\.wasm$/, ''),
      )}];`,
    }));
  },
};

/** The edge-light build in the edge-runtime package's context, WebAssembly code generation off. */
async function checkEdgeLight(c: Checker, dir: string, node: CallsReport): Promise<void> {
  const bundle = await build({
    entryPoints: [join(dir, 'edge/edge-light.js')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    conditions: ['edge-light', 'worker', 'browser'],
    plugins: [kernelModules],
    logLevel: 'silent',
  });
  const kernelDir = join(dir, 'node_modules/fourfold/dist/kernels');
  const kernels = Object.fromEntries(readdirSync(kernelDir).map((f) => [f.replace(/\.wasm$/, ''), new WebAssembly.Module(readFileSync(join(kernelDir, f)))]));
  const { EdgeRuntime } = (await import(pathToFileURL(join(dir, 'node_modules/edge-runtime/dist/index.js')).href)) as { EdgeRuntime: EdgeRuntimeClass };
  const runtime = new EdgeRuntime({
    codeGeneration: { strings: false, wasm: false },
    extend: (context) => Object.assign(context, { kernels }),
  });
  runtime.evaluate(bundle.outputFiles[0]!.text);
  let got: Partial<CallsReport> = {};
  try {
    got = (await runtime.evaluate('runCalls()')) as CallsReport;
  } catch (e) {
    got = { why: String(e) };
  }
  sameAsNode(c, 'edge-runtime (the edge-light condition, WebAssembly code generation off)', got, node);
}

export async function checkEdge(c: Checker, dir: string, fixture: string): Promise<void> {
  mkdirSync(join(dir, 'edge'), { recursive: true });
  for (const f of FILES) copyFileSync(join(fixture, 'edge', f), join(dir, 'edge', f));
  const r = c.sh(process.execPath, ['node-calls.js'], join(dir, 'edge'));
  let node: CallsReport;
  try {
    node = JSON.parse(r.stdout) as CallsReport;
  } catch {
    return void c.record('Node runs fixture/edge/calls.js (the bytes the edge hosts must give)', false, c.output(r));
  }
  await checkWorker(c, dir, node);
  await checkEdgeLight(c, dir, node);
}
