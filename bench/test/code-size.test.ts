/**
 * The bench's code-size part against the package as it is: a row for every
 * module entry of package.json's exports (and none for ./package.json),
 * each with its files, bytes and minified size. It read every export as
 * { default } and stopped the default run when ./package.json was added.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { measureCodeSize } from '../node/code-size.js';

it('measures every module entry of package.json', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
  const modules = Object.keys(pkg.exports)
    .filter((k) => k !== './package.json')
    .map((k) => (k === '.' ? 'fourfold' : `fourfold/${k.slice(2)}`));
  const result = await measureCodeSize();
  assert.deepEqual(
    result.entries.map((e) => e.entry),
    modules,
  );
  for (const e of result.entries) {
    assert.ok((e.files ?? 0) > 0 && (e.jsBytes ?? 0) > 0, `${e.entry}: files and bytes`);
    assert.ok((e.minifiedBytes ?? 0) > 0, `${e.entry}: minified`);
  }
  assert.ok(result.kernels.length >= 4, 'the four kernels');
});
