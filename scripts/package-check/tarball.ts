/**
 * check.ts's tarball: npm pack (which builds the package first) and what
 * it holds: LICENSE, README, every export's files and types (the CommonJS
 * declarations too), the bin; nothing but those, dist/ (less the tests'
 * dist/testing.js), the user docs (docs/*.md) and the changelog; and every
 * relative link in its Markdown resolves inside it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from '../engines/engines.js';
import { output, pkg, record, sh } from './common.js';
import { brokenLinks } from './links.js';

/** A subpath pattern's files, as a regular expression over the package's paths ("dist/kernels/*.wasm"). */
const patternOf = (target: string): RegExp => new RegExp(`^${target.replace(/^\.\//, '').replace(/[.]/g, '\\.').replace('*', '[^/]+')}$`);

/** Packs the package into `into` and checks its files: the tarball's path, or undefined if npm pack failed. */
export function pack(into: string): string | undefined {
  const r = sh('npm', ['pack', '--json', '--pack-destination', into], ROOT);
  if (r.status !== 0) return void record('npm pack (builds the package first)', false, output(r));
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = new Set(info!.files.map((f) => f.path));
  const needed = ['LICENSE', 'README.md', 'package.json', pkg.types, ...Object.values(pkg.bin)];
  for (const target of Object.values(pkg.exports)) {
    if (typeof target === 'string') needed.push(target);
    else {
      // Every condition's file: default, types, require's, and the edge hosts' (workerd, edge-light).
      needed.push(...Object.values(target).flatMap((t) => (typeof t === 'string' ? [t] : [t.types, t.default])));
    }
  }
  for (const paths of Object.values(pkg.typesVersions?.['*'] ?? {})) needed.push(...paths);
  // A subpath pattern ("./kernels/*.wasm") needs a file it matches.
  const has = (p: string): boolean => (p.includes('*') ? [...files].some((f) => patternOf(p).test(f)) : files.has(p));
  const missing = [...new Set(needed.map((p) => p.replace(/^\.\//, '')))].filter((p) => !has(p));
  // dist/ but the test hooks (dist/testing.js, which only the tests import), the user docs and the changelog, and npm's own files.
  const shipped = (p: string): boolean =>
    (p.startsWith('dist/') && !/^dist\/(?:cjs\/)?testing\./.test(p)) ||
    /^docs\/[\w-]+\.md$/.test(p) ||
    ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json'].includes(p);
  const stray = [...files].filter((p) => !shipped(p));
  record(
    `npm pack: ${info!.filename}, ${files.size} files, with LICENSE, README, docs/, every export's code and types, the bin`,
    missing.length === 0 && stray.length === 0,
    [missing.length ? `missing: ${missing.join(', ')}` : '', stray.length ? `not expected in the package: ${stray.join(', ')}` : ''].join('\n'),
  );
  return join(into, info!.filename);
}

/** Every relative link in the tarball's Markdown (README, docs/) names a file in the tarball, and a fragment a heading of it. */
export function checkLinks(tarball: string, dir: string): void {
  const unpacked = join(dir, 'unpacked');
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked);
  const r = sh('tar', ['-xzf', tarball, '-C', unpacked], dir);
  if (r.status !== 0) return void record('the tarball unpacks', false, output(r));
  const root = join(unpacked, 'package');
  const files = (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
  const markdown = files.filter((f) => f.endsWith('.md'));
  const broken = brokenLinks(files, (path) => readFileSync(join(root, path), 'utf8'));
  record(
    `the tarball's Markdown (${markdown.join(', ')}): every relative link resolves inside it`,
    broken.length === 0 && markdown.includes('README.md'),
    broken.join('\n'),
  );
}
