/**
 * fourfold/sodium's page weight against libsodium-wrappers-sumo's, bundled
 * by esbuild (bench/node/esbuild-pages.ts): the same page through the named
 * exports and through the default export (49.6% on 2026-11-28) loads at most
 * half the peer's gzip bytes, and one call imported by name keeps only that
 * call's modules.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { type BundleSize, measureSodiumPages, namedCallSize } from '../node/esbuild-pages.js';

/** A page's ten largest modules, for a failure's message. */
const largest = (page: BundleSize): string =>
  page.modules
    .slice(0, 10)
    .map((m) => `${m.path} ${m.bytes}`)
    .join(', ');

it("the AEAD, secretbox, secretstream, generichash and pwhash through named imports (import * as sodium): at most half of libsodium-wrappers-sumo's gzip bytes", async (t) => {
  const { peer, changedImport, named } = await measureSodiumPages();
  for (const page of [peer, changedImport, named]) t.diagnostic(`${page.name}: ${page.bytes} bytes, gzip ${page.gzipBytes}`);
  assert.ok(
    peer.modules.some((m) => m.path.startsWith('node_modules/libsodium-sumo/')),
    "the peer's page carries libsodium's WebAssembly build",
  );
  assert.ok(
    named.gzipBytes * 2 <= peer.gzipBytes,
    `fourfold/sodium's page: ${named.gzipBytes} bytes gzip, over half of libsodium-wrappers-sumo's ${peer.gzipBytes}; its largest modules: ${largest(named)}`,
  );
});

it("the same page through the default export (import sodium from 'fourfold/sodium'): at most half of libsodium-wrappers-sumo's gzip bytes", async () => {
  const { peer, changedImport } = await measureSodiumPages();
  const share = (100 * changedImport.gzipBytes) / peer.gzipBytes;
  assert.ok(
    changedImport.gzipBytes * 2 <= peer.gzipBytes,
    `the default export's page: ${changedImport.gzipBytes} bytes gzip, ${share.toFixed(1)}% of libsodium-wrappers-sumo's ${peer.gzipBytes}; its largest modules: ${largest(changedImport)}`,
  );
});

it("import { crypto_secretbox_easy } from 'fourfold/sodium' keeps secretbox's modules only", async () => {
  const page = await namedCallSize('crypto_secretbox_easy', 'new Uint8Array(100), new Uint8Array(24), new Uint8Array(32)');
  const sodiumModules = page.modules.filter((m) => m.path.startsWith('dist/sodium/')).map((m) => m.path);
  assert.deepEqual(sodiumModules.sort(), ['dist/sodium/codecs.js', 'dist/sodium/secretbox.js']);
  // XSalsa20-Poly1305's kernel, no other, and no dependency (the curves, SHA-2, ML-KEM are other calls').
  assert.deepEqual(
    page.modules.filter((m) => m.path.startsWith('dist/generated/')).map((m) => m.path),
    ['dist/generated/salsa.js'],
  );
  assert.deepEqual(
    page.modules.filter((m) => m.path.startsWith('node_modules/')).map((m) => m.path),
    [],
  );
});
