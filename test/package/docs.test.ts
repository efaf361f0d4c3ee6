/**
 * The documentation. What the package ships is what users read: the
 * README, the changelog and the top level of docs/, and nothing for contributors
 * (CONTRIBUTING.md, docs/contributing/, the raw results of docs/results/,
 * the screenshots); every relative link in the Markdown files `npm pack`
 * would put in the tarball names a file of the package, and a `#fragment`
 * a heading of it; the docs users read cite no source file, which the
 * package does not ship, and no commit, which users have no use for;
 * the README stays a user's first read (under 28,000 bytes, the depth in
 * docs/) and docs/performance.md short (its history is for
 * contributors). In the repository, every Markdown file's links
 * resolve in the tree: relative ones, and those to this repository's
 * files on GitHub, which is how the shipped docs link what only the
 * repository has. The package check runs the same link check on the
 * packed tarball itself. Node only (it runs npm and git).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { brokenLinks, links } from '../../scripts/package-check/links.js';
import { inDocs, snippetsOf, writeSnippetProject } from '../../scripts/package-check/snippets.js';
import { NOT_NODE, packedFiles, ROOT } from './files.js';

/** What users read: the docs the package ships, and no other. */
const USER_DOCS = [
  'README.md',
  'CHANGELOG.md',
  'docs/api.md',
  'docs/parallel.md',
  'docs/performance.md',
  'docs/secretstream.md',
  'docs/b3sum.md',
  'docs/age.md',
  'docs/edge.md',
];

/** A source file or path, as a reader would have to open it: src/..., or a TypeScript file's name. */
const SOURCE = /\bsrc\/[\w/.-]*|\b[\w-]+\.ts\b/g;

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

it('the package ships the docs users read and no other, and every relative link in its Markdown resolves inside it', { skip: NOT_NODE }, () => {
  const files = packedFiles();
  // Besides the code (dist/), package.json and LICENSE: the docs, and only these.
  const docs = files.filter((f) => !f.startsWith('dist/') && f !== 'package.json' && f !== 'LICENSE');
  assert.deepEqual(docs.sort(), [...USER_DOCS].sort(), 'the documentation in the tarball');
  // Guards the check itself: it finds the README's links to docs/.
  assert.ok(links(read('README.md')).includes('docs/api.md'), "the README's link to docs/api.md is found");
  assert.deepEqual(brokenLinks(files, read), []);
});

it('the docs users read cite no source file', { skip: NOT_NODE }, () => {
  const cited = USER_DOCS.flatMap((doc) => [...read(doc).matchAll(SOURCE)].map((m) => `${doc}: ${m[0]}`));
  assert.deepEqual(cited, []);
});

/** Fenced code blocks and inline code: their hex is data (test values, digests), never a citation. */
const FENCED = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;
const INLINE_CODE = /`[^`\n]*`/g;
/**
 * A commit as a doc would cite one ("tree 2e9449f", "at 2e9449f", "commit abc1234", "(abc1234)"): a word of 7 to
 * 40 lowercase hex digits, with a digit and a letter among them. A longer run (a SHA-256 digest, 64) is no word of it.
 */
const COMMIT = /(?<![\w-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/g;
/** Words that are hex by chance. */
const HEX_WORDS = new Set(['ed25519']);

/** The commits `markdown` cites outside code. */
const commitsIn = (markdown: string): string[] =>
  [...markdown.replace(FENCED, '').replace(INLINE_CODE, '').matchAll(COMMIT)].map((m) => m[0]).filter((hex) => !HEX_WORDS.has(hex));

it('the docs users read cite no commit: they say what was measured instead (a date, the same build)', { skip: NOT_NODE }, () => {
  // Guards the check itself: the ways a doc cites a commit are found, and hex that is no commit is not.
  assert.deepEqual(commitsIn('measured (tree 2e9449f), again at d79d592; commit abc1234 (abc1234).'), ['2e9449f', 'd79d592', 'abc1234', 'abc1234']);
  const digest = createHash('sha256').update('a kernel').digest('hex');
  const notCommits = `ssh-ed25519, ed25519 keys, ${digest}, 0x1b873593, 2026-11-23, \`00112233445566778899aabbccddeeff\`\n\`\`\`js\nconst tree = '2e9449f';\n\`\`\`\n`;
  assert.deepEqual(commitsIn(notCommits), []);
  const cited = USER_DOCS.flatMap((doc) => commitsIn(read(doc)).map((hex) => `${doc}: ${hex}`));
  assert.deepEqual(cited, []);
});

/** A doc's block with the mistake of a first hour: identityToRecipient of a key file's line is a string or a Promise of one. */
const MISTAKE = [
  '# A mistake',
  '',
  '```js',
  "import { readFileSync } from 'node:fs';",
  "import { encrypt, identityToRecipient } from 'fourfold/age';",
  '',
  "const line = readFileSync('key.txt', 'utf8').split('\\n')[2];",
  'await encrypt(new Uint8Array(1), { recipients: [identityToRecipient(line)] });',
  '```',
  '',
].join('\n');

it('every ```js and ```ts block of the docs users read compiles under tsc --strict against this build, as a user copies it', { skip: NOT_NODE }, () => {
  const snippets = [...USER_DOCS.flatMap((doc) => snippetsOf(doc, read(doc))), ...snippetsOf('mistake.md', MISTAKE)];
  assert.ok(snippets.length >= 30, `${snippets.length} blocks`);
  // A project that resolves 'fourfold' (this build) and @types/node as a user's does.
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-snippets-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules/fourfold'));
    symlinkSync(join(ROOT, 'node_modules/@types'), join(dir, 'node_modules/@types'));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const output = writeSnippetProject(dir, snippets)
      .map((config) => spawnSync(process.execPath, [tsc, '-p', config], { cwd: dir, encoding: 'utf8' }).stdout)
      .join('');
    const errors = inDocs(output, snippets)
      .split('\n')
      .filter((l) => /^\S+:\d+:\d+: error/.test(l));
    // Guards the check itself: the mistake is found, at its line of its doc.
    assert.ok(
      errors.some((e) => /^mistake\.md:8:\d+: error TS2322: Type 'string \| Promise<string>' is not assignable to type 'string( \| ObjectRecipient)?'/.test(e)),
      output,
    );
    assert.deepEqual(
      errors.filter((e) => !e.startsWith('mistake.md:')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A Markdown file's section under the heading `heading`, to the next heading of its level or above. */
function section(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `no heading ${heading}`);
  const level = heading.indexOf(' ');
  const end = markdown.slice(at + heading.length + 2).search(new RegExp(`\n#{1,${level}} `));
  return markdown.slice(at, end === -1 ? undefined : at + heading.length + 2 + end);
}

it('docs/parallel.md tells what the pool does by itself: the file calls need no cross-origin isolation, and use one worker more than the size', {
  skip: NOT_NODE,
}, () => {
  const doc = read('docs/parallel.md');
  assert.match(section(doc, '## Cross-origin isolation'), /The file calls need none: `age\.encryptFile`, `age\.decryptFile` and\s+`age\.decryptRange`/);
  // test/parallel/age.test.ts holds the pool to it.
  assert.match(
    section(doc, '## The pool'),
    /A file call \(age's `encryptFile`, `decryptFile`,\s+`decryptRange`\)[^.]*uses one worker more than the size, at most the logical\s+cores/,
  );
});

it("docs/results' headers say what was measured, naming no issue (a number readers of the repository cannot look up)", { skip: NOT_NODE }, () => {
  const dir = join(ROOT, 'docs/results');
  const cited = readdirSync(dir).flatMap((name) => {
    const header = readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('#'));
    return header.flatMap((l) => (/\bissues? #?\d+|(?<![\w&])#\d+\b/i.test(l) ? [`${name}: ${l}`] : []));
  });
  assert.deepEqual(cited, []);
});

it('the README is a first read: under 28,000 bytes (the depth goes to docs/, linked from a summary)', { skip: NOT_NODE }, () => {
  const size = Buffer.byteLength(read('README.md'));
  assert.ok(size < 28_000, `README.md is ${size} bytes: move the depth to docs/ and link it from a summary`);
});

it('docs/performance.md holds the current figures only: under 15 KB (dated runs and what was tried go to docs/contributing/)', { skip: NOT_NODE }, () => {
  const size = Buffer.byteLength(read('docs/performance.md'));
  assert.ok(size < 15_000, `docs/performance.md is ${size} bytes: move history to docs/contributing/performance-history.md`);
});

/** This repository on GitHub, from package.json: https://github.com/OWNER/NAME. */
const REPOSITORY = (JSON.parse(read('package.json')) as { repository: { url: string } }).repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const escaped = REPOSITORY.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A link to one of its files or folders on main (as a page, a folder or the raw file): the path in the tree, and the fragment. */
const ON_GITHUB = new RegExp(
  `(?:${escaped}/(?:blob|tree)/main|${escaped.replace('https://github\\.com', 'https://raw\\.githubusercontent\\.com')}/main)/([^)\\s#>"]*)(#[^)\\s>"]*)?`,
  'g',
);

it("every link in the repository's Markdown resolves in the tree: relative ones, and those to this repository on GitHub", { skip: NOT_NODE }, () => {
  const tree = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('.engines'));
  const markdown = tree.filter((f) => f.endsWith('.md'));
  for (const doc of ['CONTRIBUTING.md', 'docs/contributing/architecture.md', 'bench/README.md']) assert.ok(markdown.includes(doc), `${doc} is read`);
  // A link to this repository's own file becomes the relative link it names, and is checked as one.
  const asRelative = (path: string): string =>
    read(path).replace(ON_GITHUB, (_, target: string, fragment = '') => `${posix.relative(posix.dirname(path), target) || posix.basename(target)}${fragment}`);
  // Guards the check itself: the README's link to CONTRIBUTING.md on GitHub is read as one.
  assert.ok(
    links(asRelative('README.md')).some((l) => l.startsWith('CONTRIBUTING.md')),
    "the README's link to CONTRIBUTING.md on GitHub is found",
  );
  assert.deepEqual(brokenLinks(tree, asRelative), []);
});
