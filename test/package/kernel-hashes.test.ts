/**
 * The kernels' hashes that docs/api.md prints ("The kernels' hashes") are
 * those of the bytes the build made, so the page cannot go stale: a
 * change to a generator fails here until the table is written again (the
 * failure prints the rows to paste, as scripts/build-kernels.ts prints
 * each kernel's size and SHA-256). Every module of dist/generated/ has a
 * row and the tarball takes it, and the page's command for users, run in
 * dist/generated/ as they run it in node_modules/fourfold/dist/generated/,
 * prints the same. Node only (it reads dist/ and runs node and npm).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NOT_NODE, packedFiles, ROOT } from './files.js';

const DOC = 'docs/api.md';
const HEADING = "## The kernels' hashes";
const GENERATED = join(ROOT, 'dist', 'generated');

/** The doc's section: from its heading to the next. */
function section(): string {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const at = text.indexOf(`\n${HEADING}\n`);
  assert.ok(at >= 0, `${DOC} has the heading "${HEADING}"`);
  const end = text.indexOf('\n## ', at + 1);
  return text.slice(at, end < 0 ? undefined : end);
}

/** "name bytes sha256", a line per module, sorted by name: the form the page's command prints. */
type Lines = string[];

/** The table's rows: | `chacha` | what runs it | 25,625 | `<sha256>` |. */
function documented(text: string): Lines {
  return [...text.matchAll(/^\| `([\w-]+)` \|[^|\n]*\| ([\d,]+) \| `([0-9a-f]{64})` \|$/gm)].map((m) => `${m[1]} ${m[2]!.replaceAll(',', '')} ${m[3]}`).sort();
}

/** The modules the build made: each dist/generated/<name>.js's hex, decoded as the tiers decode it. */
async function built(): Promise<Lines> {
  const names = readdirSync(GENERATED)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -'.js'.length));
  const lines: Lines = [];
  for (const name of names) {
    const { hex } = (await import(pathToFileURL(join(GENERATED, `${name}.js`)).href)) as { hex: string };
    const bytes = Buffer.from(hex, 'hex');
    assert.equal(bytes.toString('hex'), hex, `dist/generated/${name}.js holds hex`);
    lines.push(`${name} ${bytes.length} ${createHash('sha256').update(bytes).digest('hex')}`);
  }
  return lines.sort();
}

/** What the rows would be: to paste into the table (its "runs" column is written by hand). */
const rows = (lines: Lines): string =>
  lines
    .map((l) => l.split(' '))
    .map(([name, size, hash]) => `| \`${name}\` | ... | ${Number(size).toLocaleString('en-US')} | \`${hash}\` |`)
    .join('\n');

it(`${DOC}: the kernels' sizes and SHA-256 are those of the modules the build made, each of them in the tarball`, { skip: NOT_NODE }, async () => {
  const made = await built();
  assert.ok(made.length >= 5, `the kernels are found in dist/generated/: ${made.length}`);
  assert.deepEqual(documented(section()), made, `${DOC}'s table is stale; its rows are now:\n${rows(made)}\n`);
  const packed = new Set(packedFiles());
  const missing = made.map((l) => `dist/generated/${l.split(' ')[0]}.js`).filter((f) => !packed.has(f));
  assert.deepEqual(missing, [], 'the tarball takes every module');
});

it(`${DOC}: the command it gives users prints the table's sizes and hashes`, { skip: NOT_NODE }, async () => {
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section());
  assert.ok(block, 'the section has a sh block');
  const [cd, ...command] = block[1]!.split('\n');
  assert.equal(cd, 'cd node_modules/fourfold/dist/generated', 'the command starts in the installed package');
  const out = execFileSync('sh', ['-c', command.join('\n')], { cwd: GENERATED, encoding: 'utf8' });
  assert.deepEqual(out.trim().split('\n').sort(), documented(section()));
});
