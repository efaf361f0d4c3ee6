/**
 * fourfold/sodium's page weight against libsodium-wrappers-sumo's, each
 * bundled by esbuild (minified, browser platform): a page using the
 * XChaCha20-Poly1305 AEAD, secretbox, secretstream, generichash and
 * pwhash through fourfold/sodium's named exports loads at most half of the
 * gzip bytes of the same page on libsodium-wrappers-sumo; and a page
 * importing one call by name keeps that call's modules only, not the
 * default export's object of every call (bench/node/sodium-size.ts).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { measureSodiumPages, namedCallSize } from '../node/sodium-size.js';

it("the AEAD, secretbox, secretstream, generichash and pwhash through named imports: at most half of libsodium-wrappers-sumo's gzip bytes", async (t) => {
  const { peer, changedImport, named } = await measureSodiumPages();
  for (const page of [peer, changedImport, named]) t.diagnostic(`${page.name}: ${page.bytes} bytes, gzip ${page.gzipBytes}`);
  assert.ok(
    peer.modules.some((m) => m.path.startsWith('node_modules/libsodium-sumo/')),
    "the peer's page carries libsodium's WebAssembly build",
  );
  assert.ok(
    named.gzipBytes * 2 <= peer.gzipBytes,
    `fourfold/sodium's page: ${named.gzipBytes} bytes gzip, over half of libsodium-wrappers-sumo's ${peer.gzipBytes}; its largest modules: ${named.modules
      .slice(0, 10)
      .map((m) => `${m.path} ${m.bytes}`)
      .join(', ')}`,
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
