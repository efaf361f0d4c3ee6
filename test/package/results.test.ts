/**
 * docs/results/: the raw output of the latest run of each measurement,
 * and its index, docs/results/README.md (an entry per file: what it
 * measures, when, the trees, the command). The index and the folder
 * agree: every file has an entry and every entry a file. Every command an
 * entry, docs/performance.md, the README, bench/README.md or
 * docs/contributing/benchmarks.md gives is
 * still there: the script it runs exists, an `npm run` script is in
 * package.json, a `--profile=` is one `npm run bench` knows. Every link
 * or path into docs/results/ from the repository's Markdown and code
 * names a file that is there; an older run is cited by a commit that
 * holds it (`git show COMMIT:docs/results/FILE`), which is no path
 * into the tree. Node only.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { links } from '../../scripts/package-check/links.js';
import { NOT_NODE, ROOT } from './files.js';

const DIR = 'docs/results';
const INDEX = `${DIR}/README.md`;

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** An index entry: its heading (the file's name) and the lines under it, to the next heading. */
interface Entry {
  readonly name: string;
  readonly body: string;
}

function entriesOf(index: string): Entry[] {
  const parts = index.split(/^### /m).slice(1);
  return parts.map((part) => {
    const end = part.search(/^#{1,3} /m);
    const text = end === -1 ? part : part.slice(0, end);
    const newline = text.indexOf('\n');
    return { name: text.slice(0, newline).trim(), body: text.slice(newline + 1) };
  });
}

/** An entry's field: `- **Name:** text`, with the lines indented under it. */
function field(body: string, name: string): string | undefined {
  const match = new RegExp(`^- \\*\\*${name}:\\*\\* ((?:.*)(?:\\n  +.*)*)`, 'm').exec(body);
  return match?.[1]?.replace(/\n\s+/g, ' ');
}

/** The profiles `npm run bench` knows, from bench/node/profiles.ts's `profiles` object (its source, not an import of the bench). */
function benchProfiles(): Set<string> {
  const source = read('bench/node/profiles.ts');
  const object = /export const profiles = \{([^}]*)\}/.exec(source)?.[1];
  assert.ok(object !== undefined, "bench/node/profiles.ts's profiles object is found");
  return new Set(object.split(',').map((p) => p.split(':')[0]!.trim()));
}

const SCRIPTS = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts));

/** A command as the docs write one: `npm run NAME ...`, or a runner and a script of the repository. */
const NPM_RUN = /\bnpm run ([\w-]+(?::[\w-]+)*)/g;
const RUN_SCRIPT = /\b(?:node --import tsx|npx tsx|tsx|node) ((?:bench|scripts|page)\/[\w/.-]+\.(?:ts|mjs|js))\b/g;
/** A profile's name; `--profile=NAME`, in capitals, is a placeholder. */
const PROFILE = /--profile=([a-z][\w-]*)/g;

/** What in `text` names a command that is not there: an npm script, a script file, a profile. */
function missingCommands(text: string, profiles: Set<string>): string[] {
  const missing: string[] = [];
  for (const [, name] of text.matchAll(NPM_RUN)) if (!SCRIPTS.has(name!)) missing.push(`npm run ${name}: no such script in package.json`);
  for (const [, path] of text.matchAll(RUN_SCRIPT)) if (!existsSync(join(ROOT, path!))) missing.push(`${path}: no such file`);
  for (const [, name] of text.matchAll(PROFILE)) if (!profiles.has(name!)) missing.push(`--profile=${name}: no such profile`);
  return missing;
}

/** Whether a backticked span is a command (not an option of the one before it, such as `--tier=simd`). */
const isCommand = (span: string): boolean => !span.startsWith('--');

it('docs/results/README.md has an entry for every file of docs/results/, and every entry names a file there', { skip: NOT_NODE }, () => {
  const files = readdirSync(join(ROOT, DIR))
    .filter((name) => name !== 'README.md')
    .sort();
  const entries = entriesOf(read(INDEX));
  const names = entries.map((e) => e.name);
  assert.ok(files.length >= 10, `${files.length} files`);
  assert.deepEqual(
    names.filter((name, i) => names.indexOf(name) !== i),
    [],
    'no file has two entries',
  );
  assert.deepEqual(
    files.filter((f) => !names.includes(f)),
    [],
    'files without an entry in docs/results/README.md',
  );
  assert.deepEqual(
    names.filter((n) => !files.includes(n)),
    [],
    'entries without a file in docs/results/',
  );
});

it('each entry says what its file measures, when (the date its name carries), the trees and the command', { skip: NOT_NODE }, () => {
  const incomplete: string[] = [];
  for (const { name, body } of entriesOf(read(INDEX))) {
    for (const f of ['Measures', 'When', 'Tree', 'Command']) if (field(body, f) === undefined) incomplete.push(`${name}: no ${f}`);
    const date = /\d{4}-\d{2}-\d{2}/.exec(name)?.[0];
    const when = field(body, 'When') ?? '';
    if (!/\d{4}-\d{2}-\d{2}/.test(when)) incomplete.push(`${name}: When gives no date`);
    if (date !== undefined && !when.includes(date)) incomplete.push(`${name}: When does not give ${date}`);
  }
  assert.deepEqual(incomplete, []);
});

it("every entry's command is still there: its script, its npm script, its profile", { skip: NOT_NODE }, () => {
  const profiles = benchProfiles();
  // Guards the check itself: what it reads, and what it refuses.
  assert.ok(profiles.has('default') && profiles.has('age'), `profiles: ${[...profiles].join(', ')}`);
  assert.deepEqual(missingCommands('`npm run bench -- --profile=age`, `node --import tsx bench/harness/parallel-speedup.ts`', profiles), []);
  assert.equal(missingCommands('`npm run benchmark`, `node --import tsx bench/gone.ts`, `npm run bench -- --profile=gone`', profiles).length, 3);
  const problems: string[] = [];
  for (const { name, body } of entriesOf(read(INDEX))) {
    const command = field(body, 'Command') ?? '';
    const spans = [...command.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter(isCommand);
    // A run made by no script of the repository says so, in words.
    if (spans.length === 0 && !command.startsWith('none')) problems.push(`${name}: names no command (or says "none in the repository")`);
    for (const span of spans) {
      const recognised = [...span.matchAll(NPM_RUN)].length + [...span.matchAll(RUN_SCRIPT)].length;
      if (recognised === 0) problems.push(`${name}: \`${span}\` is no npm script and no script of bench/, scripts/ or page/`);
      problems.push(...missingCommands(span, profiles).map((m) => `${name}: ${m}`));
    }
  }
  assert.deepEqual(problems, []);
});

it('the commands the README, docs/performance.md, bench/README.md and docs/contributing/benchmarks.md give are still there', { skip: NOT_NODE }, () => {
  const profiles = benchProfiles();
  const problems = ['README.md', 'docs/performance.md', 'bench/README.md', 'docs/contributing/benchmarks.md'].flatMap((doc) =>
    missingCommands(read(doc), profiles).map((m) => `${doc}: ${m}`),
  );
  assert.deepEqual(problems, []);
});

/** This repository on GitHub (package.json's repository), and a link to a path of it on main. */
const REPOSITORY = (JSON.parse(read('package.json')) as { repository: { url: string } }).repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const ON_GITHUB = new RegExp(`^${REPOSITORY.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:blob|tree)/main/([^#?]*)`);
/** A path into docs/results/ in prose or code: not a part of a longer path or URL, nor `COMMIT:docs/results/...` (git history). */
const RESULTS_PATH = /(?<![\w:./-])docs\/results\/([\w-]+(?:\.[\w-]+)+)/g;

/** The paths under docs/results/ that `text` (the file `path`) links or names. */
function resultsPaths(path: string, text: string): string[] {
  const found: string[] = [];
  if (path.endsWith('.md')) {
    for (const link of links(text)) {
      const target = link.split('#')[0]!;
      const github = ON_GITHUB.exec(target)?.[1];
      const resolved = github ?? (/^[a-z][a-z+.-]*:/i.test(target) || target === '' ? undefined : posix.join(posix.dirname(path), target));
      if (resolved !== undefined && (resolved === DIR || resolved.startsWith(`${DIR}/`))) found.push(resolved.replace(/\/$/, ''));
    }
  }
  for (const [, name] of text.matchAll(RESULTS_PATH)) found.push(`${DIR}/${name}`);
  return found;
}

it('every link and path into docs/results/ from the Markdown and the code names a file that is there', { skip: NOT_NODE }, () => {
  // Guards the check itself: links relative and on GitHub, and paths in prose, are found; git history is not a path.
  assert.deepEqual(resultsPaths('docs/contributing/performance-history.md', `[a](../results/a.txt) [b](${REPOSITORY}/blob/main/docs/results/b.json)`), [
    'docs/results/a.txt',
    'docs/results/b.json',
  ]);
  assert.deepEqual(resultsPaths('src/x.ts', 'see docs/results/c.txt. `git show abc1234:docs/results/d.txt`'), ['docs/results/c.txt']);
  const tree = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('.engines') && !f.startsWith(`${DIR}/`) && f !== 'test/package/results.test.ts')
    .filter((f) => /\.(?:md|ts|js|mjs|json|sh)$/.test(f) && !f.startsWith('dist/') && existsSync(join(ROOT, f)));
  assert.ok(tree.includes('README.md') && tree.includes('docs/performance.md'), 'the README and docs/ are read');
  let cited = 0;
  const missing: string[] = [];
  for (const path of tree) {
    for (const target of resultsPaths(path, read(path))) {
      cited++;
      const there = target === DIR ? statSync(join(ROOT, DIR)).isDirectory() : existsSync(join(ROOT, target)) && statSync(join(ROOT, target)).isFile();
      if (!there) missing.push(`${path}: ${target}`);
    }
  }
  assert.ok(cited >= 10, `the links and paths are found: ${cited}`);
  assert.deepEqual(missing, []);
});
