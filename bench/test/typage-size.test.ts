/**
 * The typage API's page weight against typage's (bench/node/esbuild-pages.ts):
 * typage's README page for X25519 files, bundled by esbuild with code
 * splitting and run, loads no more gzip bytes on fourfold/age/typage than
 * on age-encryption; what it leaves to its calls' late imports (the pool,
 * the armor, the stream coders, the js tier, other key types) stays out.
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
