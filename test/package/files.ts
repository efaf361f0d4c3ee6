/**
 * What the tests of the package as a user gets it share: the repository's
 * root, whether this engine runs them, the packed file list and the
 * source files (sourceFiles: src/'s imports and sizes). They read files (the emitted declarations, the README, the packed file list)
 * and start processes:
 * the same files in every engine, so they run in Node only, and are
 * reported as skipped elsewhere with this reason.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const g = globalThis as { Deno?: unknown; Bun?: unknown; process?: { versions?: { node?: string } } };

/** The `skip` option of tests that read the package's files: false in Node, else why they do not run. */
export const NOT_NODE: false | string =
  g.Deno === undefined && g.Bun === undefined && typeof g.process?.versions?.node === 'string'
    ? false
    : "not applicable: reads the package's own files with Node's tools (the same files in every engine; Node checks them)";

/** The repository's root (package.json, README.md, dist/). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The files `npm pack` puts in the tarball, from its dry run (without running the build: `npm test` has built dist/). */
export function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [info] = JSON.parse(out.slice(out.indexOf('['))) as { files: { path: string }[] }[];
  return info!.files.map((f) => f.path);
}

/** Every .ts file under `folder` (src/ by default), as a path from the root ("src/age/keys.ts"), sorted. */
export function sourceFiles(folder = 'src'): string[] {
  return (readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((p) => p.endsWith('.ts') && !p.includes('node_modules'))
    .map((p) => `${folder}/${p.split('\\').join('/')}`)
    .sort();
}
