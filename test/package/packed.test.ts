/**
 * What the tarball holds besides the docs (docs.test.ts) and the exports
 * (the package check): not the module of test hooks. dist/testing.js is
 * built with the rest, since the tests must share dist/'s module instances
 * (the pool, the kernels' memories), but nothing exports it and no user
 * needs it: package.json's "files" leaves it out. Node only (it runs npm).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NOT_NODE, packedFiles, ROOT } from './files.js';

/** The test hooks' module as the build emits it: its code and declarations, ES module and CommonJS. */
const TESTING = /^dist\/(?:cjs\/)?testing\.(?:js|d\.ts)$/;

it('the tarball leaves out dist/testing.js, the test hooks, which nothing exports', { skip: NOT_NODE }, () => {
  // Guards the check itself: the build emits it, so leaving it out is the package's doing.
  for (const file of ['dist/testing.js', 'dist/testing.d.ts', 'dist/cjs/testing.d.ts']) assert.ok(existsSync(join(ROOT, file)), `${file} is built`);
  const exported = JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports);
  assert.doesNotMatch(exported, /testing/, 'package.json exports no testing module');
  assert.deepEqual(
    packedFiles().filter((f) => TESTING.test(f)),
    [],
  );
});
