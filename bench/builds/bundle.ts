/**
 * The bundle of an engine side of this folder (entry.ts)
 * for runInEngine: `alias` names each build (a checkout with dist/ built)
 * as the side imports it, `define` fills the side's declared constants.
 */
import * as esbuild from 'esbuild';
import { resolve } from 'node:path';

export async function bundleSide(
  side: string,
  outfile: string,
  builds: Record<string, string>,
  define: Record<string, string>,
  minify = false,
): Promise<string> {
  await esbuild.build({
    entryPoints: [new URL(side, import.meta.url).pathname],
    bundle: true,
    minify,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile,
    external: ['node:*'],
    logLevel: 'error',
    mainFields: ['module', 'main'],
    alias: Object.fromEntries(Object.entries(builds).map(([name, dir]) => [name, resolve(dir, 'dist')])),
    define,
  });
  return outfile;
}
