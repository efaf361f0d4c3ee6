/**
 * check.ts's TypeScript, in the fresh project with the tarball installed:
 *
 * - TypeScript 5.0 (the oldest supported), 5.9 and 7.0 (the newest):
 *   `tsc --strict` on fixture/types.ts, which imports every subpath, and
 *   fixture/platform.ts, the lines a user writes next (Blob, Response,
 *   crypto.subtle taking the results; outputs keeping their type), with
 *   lib ES2022 and DOM, under moduleResolution node16, nodenext, bundler
 *   and node10 (which TypeScript 7 no longer has), no skipLibCheck, no
 *   @types/node;
 * - the shipped docs' code: every ```js and ```ts block of README.md and
 *   docs/*.md compiles under tsc --strict (snippets.ts), with @types/node;
 * - fixture/cjs/, a CommonJS project (module node16) importing every
 *   subpath, compiled by each TypeScript and run by Node.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { xchacha20poly1305 as nobleXchacha } from '@noble/ciphers/chacha.js';
import { ABC, FIXTURE, hex, output, record, sh, specifier, subpaths } from './common.js';
import { inDocs, snippetsOf, writeSnippetProject } from './snippets.js';

const RESOLUTIONS = [
  { moduleResolution: 'node16', module: 'node16' },
  { moduleResolution: 'nodenext', module: 'nodenext' },
  { moduleResolution: 'bundler', module: 'esnext' },
  { moduleResolution: 'node10', module: 'esnext' },
] as const;
/**
 * The TypeScripts the fixture installs (package.json: typescript and two
 * aliases): the oldest the README promises, the newest 5.x, the newest.
 * TypeScript 7 has no moduleResolution node10.
 */
const COMPILERS = [
  { version: '5.0', dir: 'typescript-5.0', node10: true },
  { version: '5.9', dir: 'typescript', node10: true },
  { version: '7.0', dir: 'typescript-7.0', node10: false },
] as const;

export function checkTypes(dir: string): void {
  for (const program of ['types.ts', 'cjs/main.ts']) {
    const imported = new Set([...readFileSync(join(FIXTURE, program), 'utf8').matchAll(/from '(fourfold[^']*)'/g)].map((m) => m[1]));
    const uncovered = subpaths.map(specifier).filter((s) => !imported.has(s));
    record(`fixture/${program} imports every subpath export`, uncovered.length === 0, uncovered.length ? `not imported: ${uncovered.join(', ')}` : '');
  }
  for (const { version, dir: pkgDir, node10 } of COMPILERS) {
    const tsc = join(dir, 'node_modules', pkgDir, 'bin/tsc');
    const actual = sh(process.execPath, [tsc, '--version'], dir).stdout.trim();
    for (const { moduleResolution, module } of RESOLUTIONS) {
      if (moduleResolution === 'node10' && !node10) continue;
      const config = `tsconfig.${moduleResolution}.json`;
      writeFileSync(join(dir, config), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module, moduleResolution } }, null, 2));
      const r = sh(process.execPath, [tsc, '-p', config], dir);
      record(
        `TypeScript ${version} (${actual}): tsc --strict on types.ts and platform.ts, moduleResolution ${moduleResolution} (module ${module})`,
        r.status === 0 && actual.includes(version),
        output(r),
      );
    }
  }
}

/**
 * The docs the tarball ships (README.md, docs/*.md): every ```js and
 * ```ts block compiles under tsc --strict (TypeScript 5.9, snippets.ts)
 * against the installed package's declarations, as a user copies it.
 */
export function checkSnippets(dir: string): void {
  const installed = join(dir, 'node_modules/fourfold');
  const docs = ['README.md', ...readdirSync(join(installed, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))];
  const snippets = docs.flatMap((doc) => snippetsOf(doc, readFileSync(join(installed, doc), 'utf8')));
  const project = join(dir, 'snippets');
  const tsc = join(dir, 'node_modules/typescript/bin/tsc');
  const runs = writeSnippetProject(project, snippets).map((config) => sh(process.execPath, [tsc, '-p', config], project));
  record(
    `TypeScript 5.9: the ${snippets.length} code blocks of the shipped docs (${docs.join(', ')}) compile under tsc --strict`,
    runs.length > 0 && runs.every((r) => r.status === 0),
    runs.map((r) => inDocs(output(r), snippets)).join('\n'),
  );
}

/** How many checks fixture/cjs/main.ts prints: its calls of every subpath (BLAKE2b, fourfold/sodium's generichash and the typage API's round trip the last three). */
const CJS_CHECKS = 13;

/** The CommonJS project: each TypeScript compiles it (module node16: require() calls), and Node runs what the 5.9 one emitted. */
export function checkCommonJs(dir: string): void {
  const project = join(dir, 'cjs');
  for (const { version, dir: pkgDir } of COMPILERS) {
    rmSync(join(project, 'out'), { recursive: true, force: true });
    const r = sh(process.execPath, [join(dir, 'node_modules', pkgDir, 'bin/tsc'), '-p', 'tsconfig.json'], project);
    record(`TypeScript ${version}: a CommonJS project (module node16) compiles its imports of every subpath to require()`, r.status === 0, output(r));
    if (r.status !== 0) continue;
    const run = sh(process.execPath, ['out/main.js'], project);
    let got: { abc?: string; sealed?: string; checks?: boolean[] } = {};
    try {
      got = JSON.parse(run.stdout) as typeof got;
    } catch {
      // reported below with the output
    }
    const key = new Uint8Array(32).fill(7);
    const sealed = hex(nobleXchacha(key, new Uint8Array(24).fill(9)).encrypt(new TextEncoder().encode('abc')));
    const ok = run.status === 0 && got.abc === ABC && got.sealed === sealed && got.checks?.length === CJS_CHECKS && got.checks.every((c) => c);
    record(
      `  Node ${process.version} runs it: require() of the package gives @noble's bytes`,
      ok,
      ok ? '' : `${output(run)}\nexpected abc ${ABC}, sealed ${sealed}`,
    );
  }
}
