/**
 * The documentation as the package ships it: every relative link in the
 * Markdown files `npm pack` would put in the tarball (the README and
 * docs/) names a file of the package, and a `#fragment` a heading of it;
 * the docs users read cite no source file, which the package does not
 * ship. The package check runs the same link check on the packed tarball
 * itself. Node only (it runs npm).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brokenLinks, links } from '../../scripts/package-check/links.js';
import { NOT_NODE, packedFiles, ROOT } from './files.js';

/** What users read; the rest of docs/ (architecture.md, engines.md, performance.md) is for contributors and may name sources. */
const USER_DOCS = ['README.md', 'docs/api.md', 'docs/parallel.md', 'docs/secretstream.md', 'docs/b3sum.md'];

/** A source file or path, as a reader would have to open it: src/..., or a TypeScript file's name. */
const SOURCE = /\bsrc\/[\w/.-]*|\b[\w-]+\.ts\b/g;

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

it('the package ships the docs the README links, and every relative link in its Markdown resolves inside it', { skip: NOT_NODE }, () => {
  const files = packedFiles();
  for (const doc of USER_DOCS) assert.ok(files.includes(doc), `${doc} is in the package`);
  // Guards the check itself: it finds the README's links to docs/.
  assert.ok(links(read('README.md')).includes('docs/api.md'), "the README's link to docs/api.md is found");
  assert.deepEqual(brokenLinks(files, read), []);
});

it('the docs users read cite no source file', { skip: NOT_NODE }, () => {
  const cited = USER_DOCS.flatMap((doc) => [...read(doc).matchAll(SOURCE)].map((m) => `${doc}: ${m[0]}`));
  assert.deepEqual(cited, []);
});
