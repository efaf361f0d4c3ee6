/**
 * `npm run page -- [--out=DIR] [--serve]`: builds the benchmark page into
 * DIR (default page-dist/, ignored by git), a static site that any
 * server serves from any path: every URL in it is relative.
 *
 *   DIR/index.html, style.css   the page (page/site/)
 *   DIR/_headers                cross-origin isolation for Netlify and Cloudflare Pages
 *   DIR/assets/main.js          the page's code (page/app/main.ts)
 *   DIR/assets/measure.js       the measurement: the benchmark core, fourfold and the peers (page/app/measure.ts)
 *   DIR/assets/measure-worker.js  the Worker that runs it (the page imports measure.js itself where it has no Worker)
 *   DIR/assets/worker.js        fourfold/parallel's pool worker, found beside measure.js
 *   DIR/assets/worker-js.js     its twin for engines that cannot run the kernels
 *
 * --serve then serves DIR on 127.0.0.1, cross-origin isolated, until Ctrl-C.
 * Needs fourfold built (dist/): `npm run page` builds it first.
 */
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersions } from '../bench/node/machine.js';
import { bundleWorkers } from '../scripts/engines/bundle.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_OUT = 'page-dist';

/** Builds the site into `out` (emptied first); returns the total bytes written. */
export async function buildPage(out: string): Promise<number> {
  if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error("fourfold is not built (no dist/): run 'npm run build' first, or 'npm run page'");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  const common: esbuild.BuildOptions = {
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Safari 15 and the Chromium and Firefox of the same years.
    target: 'es2022',
    // node:crypto is imported by name only where it exists (bench/core/libraries.ts): never in a browser.
    external: ['node:*'],
    define: { FOURFOLD_PAGE_VERSIONS: JSON.stringify(packageVersions()) },
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
  };
  // The measurement in one module, which the Worker imports, and the page too where it cannot start a Worker.
  await esbuild.build({ ...common, entryPoints: [join(ROOT, 'page/app/measure.ts')], outfile: join(out, 'assets/measure.js') });
  const measureBeside: esbuild.Plugin = {
    name: 'measure-beside',
    setup: (build) => build.onResolve({ filter: /^\.\/measure\.js$/ }, () => ({ path: './measure.js', external: true })),
  };
  await esbuild.build({
    ...common,
    entryPoints: [join(ROOT, 'page/app/measure.worker.ts')],
    outfile: join(out, 'assets/measure-worker.js'),
    plugins: [measureBeside],
  });
  await esbuild.build({ ...common, entryPoints: [join(ROOT, 'page/app/main.ts')], outfile: join(out, 'assets/main.js') });
  await bundleWorkers(join(out, 'assets'), 'browser');
  cpSync(join(ROOT, 'page/site'), out, { recursive: true });
  return readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !/^--out=.+$/.test(a) && a !== '--serve');
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown.join(' ')}\nusage: npm run page -- [--out=DIR] [--serve]\n`);
    process.exit(2);
  }
  const out = resolve(args.find((a) => a.startsWith('--out='))?.slice(6) ?? DEFAULT_OUT);
  const bytes = await buildPage(out);
  process.stderr.write(`wrote the benchmark page to ${out} (${(bytes / 1e6).toFixed(1)} MB); serve that folder with any static server\n`);
  if (!args.includes('--serve')) return;
  // The engine runner's page server: the folder as it is, cross-origin isolated.
  const { servePage } = await import('../scripts/engines/serve.js');
  const server = await servePage({ dir: out, entry: 'index.html' });
  process.stderr.write(`serving it, cross-origin isolated, at ${server.url.replace(/__run\.html$/, 'index.html')} (Ctrl-C ends)\n`);
  await new Promise(() => {});
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
