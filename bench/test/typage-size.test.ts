/**
 * typage's X25519 README page (bench/node/esbuild-pages.ts) loads no more
 * gzip bytes on fourfold/age/typage than on age-encryption, what it imports
 * late (pool, armor, stream coders, js tier, other key types) left out.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { measureTypagePages } from '../node/esbuild-pages.js';

it("a page writing and reading an X25519 file with typage's API loads at most typage's gzip bytes", async (t) => {
  const { ours, typage } = await measureTypagePages();
  for (const p of [ours, typage]) t.diagnostic(`${p.name}: ${p.gzipBytes} bytes gzip, ${p.scripts.length} of ${p.emitted} scripts loaded`);
  // Both ran to the end: the identity made, the file written and read back.
  assert.equal(ours.title, 'done:hello, age');
  assert.equal(typage.title, 'done:hello, age');
  assert.ok(
    typage.modules.some((m) => m.startsWith('node_modules/age-encryption/')),
    "the peer's page carries age-encryption",
  );
  assert.ok(
    ours.modules.some((m) => m === 'dist/typage/index.js'),
    "fourfold's page carries fourfold/age/typage",
  );
  assert.ok(
    ours.gzipBytes <= typage.gzipBytes,
    `fourfold/age/typage's page: ${ours.gzipBytes} bytes gzip, age-encryption's ${typage.gzipBytes}; its scripts: ${ours.scripts.map((s) => `${s.file} ${s.gzipBytes}`).join(', ')}`,
  );
});
