/**
 * The docs for contributors against the tree. docs/contributing/architecture.md, the
 * map a new maintainer reads first, cannot drift from the code: its two
 * maps (the fenced blocks under "The source tree" and "Around the
 * library") name every file of src/ and every part of bench/, scripts/,
 * page/ and test/, and nothing that is not there; a family's files are
 * roles of the table of "A primitive's folder" or are named as
 * `<family>/<file>` in the text; and every path the page cites exists.
 * And docs/, bench/, the README, CONTRIBUTING.md and CHANGELOG.md speak to readers, not
 * to the project's tracker: no "issue 17", no "the bound", no
 * "earlier sessions". And the Node the contributing commands name (`npm
 * ci  # install (Node >= 20.19)`, in the README and CONTRIBUTING.md) is
 * one every locked package accepts, so `npm ci` prints no EBADENGINE
 * warning. Every doc cited by path in the code, the benchmarks and the
 * docs (`docs/performance.md#code-size`) exists, with that heading. Node
 * only (it reads the tree).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { anchors } from '../../scripts/package-check/links.js';
import { NOT_NODE, ROOT } from './files.js';

const DOC = 'docs/contributing/architecture.md';

/** The fenced block that follows the heading `heading` (its first one). */
function blockAfter(text: string, heading: string): string {
  const at = text.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `${DOC} has the heading "${heading}"`);
  const open = text.indexOf('\n```', at);
  const close = text.indexOf('\n```', open + 4);
  return text.slice(text.indexOf('\n', open + 1) + 1, close);
}

/**
 * A map's paths: a line names one or more entries (`a.ts, b.ts`) before
 * its description, which is set off by two spaces; an entry ending in `/`
 * is a folder, and the lines indented two spaces more under it name its
 * contents. A line indented deeper than that continues a description.
 */
function mapPaths(block: string): { listed: Set<string>; expanded: Set<string> } {
  const listed = new Set<string>();
  const expanded = new Set<string>();
  const folders: string[] = [];
  for (const line of block.split('\n')) {
    if (line.trim() === '') continue;
    const depth = (line.length - line.trimStart().length) / 2;
    if (!Number.isInteger(depth) || depth > folders.length) continue;
    folders.length = depth;
    const names = line.trim().split(/ {2,}/)[0]!.split(/,\s*/);
    for (const name of names) {
      assert.match(name, /^[\w.@-]+(\/[\w.@-]+)*\/?$/, `${DOC}: "${name}" in "${line.trim()}" is a path`);
      const path = [...folders, name].join('');
      listed.add(path.replace(/\/$/, ''));
      if (depth > 0) expanded.add(folders.join('').replace(/\/$/, ''));
      if (name.endsWith('/') && names.length === 1) folders.push(name);
    }
  }
  return { listed, expanded };
}

/** .gitignore's patterns as tests on a path relative to the root (the simple forms it uses). */
function ignored(): (path: string, folder: boolean) => boolean {
  const patterns = readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const tests = patterns.map((p) => {
    const dirOnly = p.endsWith('/');
    const body = p.replace(/\/$/, '');
    const re = new RegExp(`^${body.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    const anchored = body.includes('/');
    return (path: string, folder: boolean) => (!dirOnly || folder) && (anchored ? re.test(path) : re.test(path.split('/').at(-1)!));
  });
  return (path, folder) => tests.some((t) => t(path, folder));
}

const isIgnored = ignored();

/** The entries of a folder of the tree that git would see (relative paths). */
function entries(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .map((e) => ({ path: `${folder}/${e.name}`, dir: e.isDirectory() }))
    .filter((e) => !isIgnored(e.path, e.dir))
    .map((e) => e.path)
    .sort();
}

const isDir = (path: string): boolean => statSync(join(ROOT, path)).isDirectory();

/** The first column of the role table under "A primitive's folder". */
function roles(text: string): Set<string> {
  const section = text.slice(text.indexOf("\n## A primitive's folder\n"), text.indexOf('\n## ', text.indexOf("\n## A primitive's folder\n") + 1));
  return new Set([...section.matchAll(/^\| `([\w.-]+)` \|/gm)].map((m) => m[1]!));
}

it(`${DOC}: its maps name every file of src/ and every part of bench/, scripts/, page/ and test/, and nothing else`, { skip: NOT_NODE }, () => {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const source = mapPaths(blockAfter(text, '## The source tree'));
  const around = mapPaths(blockAfter(text, '## Around the library'));
  const listed = new Set([...source.listed, ...around.listed]);
  const expanded = new Set([...source.expanded, ...around.expanded]);

  const missing: string[] = [];
  // src/generated/ is there once npm run build has run: what git ignores is not looked for.
  for (const path of listed) if (!existsSync(join(ROOT, path)) && !isIgnored(path, true)) missing.push(path);
  assert.deepEqual(missing, [], 'listed but not in the tree');

  // src/ and every folder a map opens: each entry is listed. bench/, scripts/, page/ and test/ are mapped one level down.
  const unlisted: string[] = [];
  const families = entries('src').filter((p) => isDir(p) && existsSync(join(ROOT, p, 'engine.ts')));
  for (const folder of new Set(['src', 'bench', 'scripts', 'page', 'test', ...expanded])) {
    for (const path of entries(folder)) if (!listed.has(path) && !families.includes(path)) unlisted.push(path);
  }
  for (const folder of entries('src').filter(isDir)) {
    if (families.includes(folder) || expanded.has(folder)) continue;
    unlisted.push(`${folder}/ (its files)`);
  }
  assert.deepEqual(unlisted, [], 'in the tree but not in the maps');

  // A family's files: a role of the table, or named with its folder in the text.
  const table = roles(text);
  assert.ok(table.size >= 8, 'the role table is found');
  const unexplained = families.flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((f) => !table.has(f) && !text.includes(`${folder.slice('src/'.length)}/${f}`))
      .map((f) => `${folder}/${f}`),
  );
  assert.deepEqual(unexplained, [], "a family's file that is neither a role of the table nor named in the text");
  const unused = [...table].filter((role) => !families.some((folder) => existsSync(join(ROOT, folder, role))));
  assert.deepEqual(unused, [], 'a role no family has');
});

it(`${DOC}: every path it cites exists`, { skip: NOT_NODE }, () => {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const folders = entries('src')
    .filter(isDir)
    .map((p) => p.slice('src/'.length));
  const cited = [
    ...[...text.matchAll(/\b(?:src|bench|scripts|page|test)\/[\w/.-]*[\w/]/g)].map((m) => m[0]),
    ...[...text.matchAll(new RegExp(`(?<![\\w/.-])(?:${folders.join('|')})/[\\w.-]+\\.ts\\b`, 'g'))].map((m) => `src/${m[0]}`),
  ];
  const generated = (path: string) => path.startsWith('src/generated');
  const absent = [...new Set(cited)].filter((path) => !generated(path) && !existsSync(join(ROOT, path)));
  assert.deepEqual(absent, []);
});

/**
 * Words for the project's tracker, not for a reader: an issue's number, "the issue", the project's
 * issues, work sessions ("earlier sessions", "this session"). A Linux session ("its own session") is
 * a reader's word.
 */
const WORKFLOW = /\bissues? #?\d+|\bthe issues?\b|\bissues'|\bthe project's issues\b|\b(?:earlier|previous|later|next|this|last) sessions?\b/gi;
/** Where such words mean something else: bench/harness/parallel-speedup.ts starts a process in "this session", Linux's. */
const MEANT: Record<string, RegExp> = {
  'bench/harness/parallel-speedup.ts': /\bsession\b/i,
};

/** The text files under `folder` (recursively), as git would see them. */
function filesUnder(folder: string): string[] {
  return entries(folder).flatMap((path) => (isDir(path) ? filesUnder(path) : [path]));
}

it('docs/, bench/, the README, CONTRIBUTING.md and CHANGELOG.md name no issue, no "the issue" and no work sessions: what they mean is said instead', {
  skip: NOT_NODE,
}, () => {
  const docs = filesUnder('docs').filter((p) => p.endsWith('.md'));
  assert.ok(docs.includes(DOC), `${DOC} is read`);
  const found: string[] = [];
  for (const path of ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docs, ...filesUnder('bench')]) {
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(WORKFLOW)) if (!MEANT[path]?.test(line)) found.push(`${path}:${i + 1}: ${m[0]}`);
    });
  }
  assert.deepEqual(found, []);
});

/** A doc named by its path from the root, with a heading's anchor or not: `docs/parallel.md`, `docs/performance.md#code-size`. */
const CITED_DOC = /(?<![\w/.-])docs\/[\w/.-]*?\.md(?:#[\w-]+)?/g;

it('every doc the code and the docs cite by path (docs/….md#heading) is there, and has that heading', { skip: NOT_NODE }, () => {
  const texts = [...['src', 'bench', 'scripts', 'page', 'test'].flatMap(filesUnder), '.ci/run', 'biome.jsonc', 'README.md', 'CONTRIBUTING.md', 'CHANGELOG.md']
    .concat(filesUnder('docs').filter((p) => p.endsWith('.md')))
    .filter((p) => !/\.(?:png|wasm)$/.test(p));
  const missing: string[] = [];
  let cited = 0;
  for (const path of texts) {
    for (const [ref] of readFileSync(join(ROOT, path), 'utf8').matchAll(CITED_DOC)) {
      cited++;
      const [doc, heading] = ref.split('#') as [string, string | undefined];
      if (!existsSync(join(ROOT, doc))) missing.push(`${path}: ${ref}: no such file`);
      else if (heading !== undefined && !anchors(readFileSync(join(ROOT, doc), 'utf8')).has(heading)) missing.push(`${path}: ${ref}: no such heading`);
    }
  }
  assert.ok(cited >= 20, `the citations are found: ${cited}`);
  assert.deepEqual(missing, []);
});

/** A version as [major, minor, patch]; a missing or wildcard part is 0. */
const parts = (v: string): number[] => [0, 1, 2].map((i) => Number.parseInt(v.split('.')[i] ?? '0', 10) || 0);
const compare = (a: number[], b: number[]): number => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/**
 * Whether `version` satisfies an `engines` range, in the forms npm
 * packages write (`>=18`, `>= 20.19.0`, `^8.16.0 || >=11`, `6.* || >= 10.*`,
 * `*`); any other form throws, so that a new one is taught here, not passed.
 */
function satisfies(version: string, range: string): boolean {
  const v = parts(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)
      .every((c) => {
        const m = /^(\^|~|>=|<=|>|<|=)?v?(\d+|\*|x)((?:\.(?:\d+|\*|x))*)$/.exec(c);
        if (c === '' || c === '*') return true;
        if (m === null) throw new Error(`an engines range this test does not read: "${range}"`);
        const [, op = '', major, rest] = m;
        if (major === '*' || major === 'x') return true;
        const bound = parts(`${major}${rest}`);
        const wildcard = op === '' && /[*x]/.test(rest!);
        const d = compare(v, bound);
        if (op === '^' || wildcard) return v[0] === bound[0] && d >= 0;
        if (op === '~') return v[0] === bound[0] && v[1] === bound[1] && d >= 0;
        return { '>=': d >= 0, '<=': d <= 0, '>': d > 0, '<': d < 0, '=': d === 0, '': d === 0 }[op]!;
      }),
  );
}

it('the Node the contributing commands name runs every locked package: npm ci warns of no engine (EBADENGINE)', { skip: NOT_NODE }, () => {
  const stated = ['README.md', 'CONTRIBUTING.md'].map((doc) => {
    const m = /^npm ci\s+# install \(Node >= (\d+\.\d+)\)$/m.exec(readFileSync(join(ROOT, doc), 'utf8'));
    assert.ok(m, `${doc}: its commands name the Node they need`);
    return m[1]!;
  });
  assert.equal(new Set(stated).size, 1, `the README and CONTRIBUTING.md name the same Node: ${stated.join(', ')}`);
  const minimum = `${stated[0]}.0`;
  const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  assert.ok(satisfies(minimum, engines), `the package's own engines (${engines}) accept Node ${minimum}`);
  // Guards the reader of ranges: puppeteer-core 25's range refuses Node 20.
  assert.equal(satisfies('20.19.0', '>=22.12.0'), false);
  assert.equal(satisfies('20.19.0', '^8.16.0 || ^10.6.0 || >=11.0.0'), true);
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
  const refusing = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.engines?.node !== undefined && !satisfies(minimum, p.engines.node))
    .map(([path, p]) => `${path.replace(/^node_modules\//, '')}: node ${p.engines!.node}`);
  assert.deepEqual(refusing, []);
});
