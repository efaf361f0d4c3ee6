/**
 * The pages bundled by esbuild (bench/node/esbuild-pages.ts) against their
 * peers'. fourfold/sodium against libsodium-wrappers-sumo: the same page
 * through the named exports and through the default export (49.6% on
 * 2026-11-28) loads at most half the peer's gzip bytes, and one call
 * imported by name keeps only that call's modules. typage's X25519 README
 * page loads no more gzip bytes on fourfold/age/typage than on
 * age-encryption, what it imports late (pool, armor, stream coders, js
 * tier, other key types) left out.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { type BundleSize, measureSodiumPages, measureTypagePages, namedCallSize } from '../node/esbuild-pages.js';

/** A page's ten largest modules, for a failure's message. */
const largest = (page: BundleSize): string =>
  page.modules
    .slice(0, 10)
    .map((m) => `${m.path} ${m.bytes}`)
    .join(', ');

it("the AEAD, secretbox, secretstream, generichash and pwhash, through named imports and through the default export: at most half of libsodium-wrappers-sumo's gzip bytes", async (t) => {
  const { peer, changedImport, named } = await measureSodiumPages();
  for (const page of [peer, changedImport, named]) t.diagnostic(`${page.name}: ${page.bytes} bytes, gzip ${page.gzipBytes}`);
  const libsodium = peer.modules.filter((m) => m.path.startsWith('node_modules/libsodium-sumo/'));
  assert.ok(libsodium.length > 0, "the peer's page carries libsodium's WebAssembly build");
  for (const [way, page] of [
    ['import * as sodium', named],
    ["import sodium from 'fourfold/sodium'", changedImport],
  ] as const) {
    const share = ((100 * page.gzipBytes) / peer.gzipBytes).toFixed(1);
    const message = `${way}: ${page.gzipBytes} bytes gzip, ${share}% of libsodium-wrappers-sumo's ${peer.gzipBytes}; its largest modules: ${largest(page)}`;
    assert.ok(page.gzipBytes * 2 <= peer.gzipBytes, message);
  }
});

it("import { crypto_secretbox_easy } from 'fourfold/sodium' keeps secretbox's modules only", async () => {
  const page = await namedCallSize('crypto_secretbox_easy', 'new Uint8Array(100), new Uint8Array(24), new Uint8Array(32)');
  const under = (prefix: string) => page.modules.filter((m) => m.path.startsWith(prefix)).map((m) => m.path);
  assert.deepEqual(under('dist/sodium/').sort(), ['dist/sodium/codecs.js', 'dist/sodium/secretbox.js']);
  // XSalsa20-Poly1305's kernel, no other, and no dependency (the curves, SHA-2, ML-KEM are other calls').
  assert.deepEqual(under('dist/generated/'), ['dist/generated/salsa.js']);
  assert.deepEqual(under('node_modules/'), []);
});

it("a page writing and reading an X25519 file with typage's API loads at most typage's gzip bytes", async (t) => {
  const { ours, typage } = await measureTypagePages();
  for (const p of [ours, typage]) t.diagnostic(`${p.name}: ${p.gzipBytes} bytes gzip, ${p.scripts.length} of ${p.emitted} scripts loaded`);
  // Both ran to the end: the identity made, the file written and read back.
  assert.equal(ours.title, 'done:hello, age');
  assert.equal(typage.title, 'done:hello, age');
  const peerModules = typage.modules.filter((m) => m.startsWith('node_modules/age-encryption/'));
  assert.ok(peerModules.length > 0, "the peer's page carries age-encryption");
  assert.ok(ours.modules.includes('dist/typage/index.js'), "fourfold's page carries fourfold/age/typage");
  const scripts = ours.scripts.map((s) => `${s.file} ${s.gzipBytes}`).join(', ');
  assert.ok(
    ours.gzipBytes <= typage.gzipBytes,
    `fourfold/age/typage's page: ${ours.gzipBytes} bytes gzip, age-encryption's ${typage.gzipBytes}; its scripts: ${scripts}`,
  );
});
