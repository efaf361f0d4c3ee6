/**
 * npm run build, last step: dist/cli/fourfold.js (the `fourfold` command)
 * as one module of fourfold's own code. A process that runs a command
 * loads its modules before it does anything: fourfold age's ~90 modules
 * cost a fresh Node some 65 ms, one bundle about 40. The dependencies
 * (@noble, @scure) stay imports of the installed packages.
 *
 * The bundle's modules see one import.meta.url, dist/parallel/workers.js's,
 * at the depth of dist/cli/: the pool starts ./worker.js beside it, and
 * the command reads ../../package.json for its version, as unbundled.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const entry = fileURLToPath(new URL('../dist/cli/fourfold.js', import.meta.url));
const source = readFileSync(entry, 'utf8');
// A bundle bundled again would define its own first line's import.meta.url away: tsc writes the entry anew first.
if (source.includes('__fourfoldModuleUrl')) throw new Error('dist/cli/fourfold.js is already bundled: run tsc -p tsconfig.build.json first');

const result = await esbuild.build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__fourfoldModuleUrl' },
  banner: { js: "const __fourfoldModuleUrl = new URL('../parallel/workers.js', import.meta.url).href;" },
  write: false,
  logLevel: 'warning',
});
const code = result.outputFiles[0]!.text;
if (!code.startsWith('#!/usr/bin/env node\n')) throw new Error('the bundled command lost its #! line');
writeFileSync(entry, code);
console.log(`dist/cli/fourfold.js: one module, ${code.length} bytes (its entry alone: ${source.length})`);
