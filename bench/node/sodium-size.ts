/**
 * What fourfold/sodium costs a page against libsodium-wrappers-sumo, the
 * build libsodium.js users ship for these calls: one program using the
 * XChaCha20-Poly1305 AEAD, secretbox, secretstream, generichash and pwhash
 * through `sodium.*`, bundled by esbuild (minified, browser platform, ESM)
 * under three imports: libsodium-wrappers-sumo's default export, fourfold/
 * sodium's default export (the program unchanged but for its import) and
 * fourfold/sodium's named exports (`import * as sodium`, which a bundler
 * treats as the names the program reads). Bytes are the bundle's, raw and
 * gzip -9 (1 KB = 1000 bytes); esbuild's metafile says which modules each
 * bundle kept. fourfold is this checkout's dist/, as code-size.ts builds
 * it; the peer is the one installed here (a devDependency).
 *
 *   node --import tsx bench/node/sodium-size.ts   # prints the figures and the largest modules of each page
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The program, written against a `sodium` object: libsodium-wrappers'
 * calls with libsodium-wrappers' arguments, each result used, so that no
 * bundler may drop a call.
 */
const PROGRAM = `await sodium.ready;
const message = sodium.from_string('a message');
const nonce = sodium.randombytes_buf(sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
const aeadKey = sodium.crypto_aead_xchacha20poly1305_ietf_keygen();
const sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(message, null, null, nonce, aeadKey);
const opened = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, sealed, null, nonce, aeadKey);
const boxKey = sodium.crypto_secretbox_keygen();
const boxNonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);
const box = sodium.crypto_secretbox_easy(message, boxNonce, boxKey);
const unboxed = sodium.crypto_secretbox_open_easy(box, boxNonce, boxKey);
const streamKey = sodium.crypto_secretstream_xchacha20poly1305_keygen();
const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(streamKey);
const chunk = sodium.crypto_secretstream_xchacha20poly1305_push(state, message, null, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
const pullState = sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, streamKey);
const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(pullState, chunk);
const digest = sodium.crypto_generichash(32, message, null, 'hex');
const salt = sodium.randombytes_buf(sodium.crypto_pwhash_SALTBYTES);
const derived = sodium.crypto_pwhash(32, 'a password', salt, sodium.crypto_pwhash_OPSLIMIT_INTERACTIVE, sodium.crypto_pwhash_MEMLIMIT_INTERACTIVE, sodium.crypto_pwhash_ALG_ARGON2ID13);
document.title = [opened, unboxed, pulled.message, derived].map((b) => b[0]).join() + digest;
`;

export interface SodiumPage {
  readonly name: string;
  /** The page's first line: how it gets `sodium`. */
  readonly importLine: string;
}

/** libsodium.js users' page, and fourfold/sodium's two ways of importing the same calls. */
export const SODIUM_PAGES = {
  peer: { name: 'libsodium-wrappers-sumo (default export)', importLine: "import sodium from 'libsodium-wrappers-sumo';" },
  changedImport: { name: 'fourfold/sodium (default export: the import changed, nothing else)', importLine: "import sodium from 'fourfold/sodium';" },
  named: { name: 'fourfold/sodium (named exports)', importLine: "import * as sodium from 'fourfold/sodium';" },
} as const satisfies Record<string, SodiumPage>;

export interface BundleSize {
  readonly name: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** The modules the bundle kept (paths under node_modules/ or the checkout), largest first, with their bytes in it. */
  readonly modules: readonly { readonly path: string; readonly bytes: number }[];
}

/** A project directory whose node_modules holds this checkout as `fourfold` and the peer installed here. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-sodium-size-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules/fourfold'));
  for (const name of ['libsodium-wrappers-sumo', 'libsodium-sumo']) symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  return dir;
}

/** A module's path as the report names it: from node_modules/ or dist/ on. */
const shortPath = (path: string) => path.replace(/^.*?\b(node_modules\/(?!fourfold\/)|dist\/)/, '$1');

/** Bundles `code` as a page's one script (esbuild: minified, browser platform, ESM) in `dir`, and sizes it. */
export async function bundleSize(dir: string, name: string, code: string): Promise<BundleSize> {
  const file = join(dir, 'page.js');
  writeFileSync(file, code);
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: dir,
  });
  const out = result.outputFiles[0]!.contents;
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  const modules = Object.entries(inputs)
    .map(([path, { bytesInOutput }]) => ({ path: shortPath(path), bytes: bytesInOutput }))
    .filter((m) => m.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  return { name, bytes: out.length, gzipBytes: gzipSync(out, { level: 9 }).length, modules };
}

/** The three pages of SODIUM_PAGES, built from this checkout's dist/. */
export async function measureSodiumPages(): Promise<Record<keyof typeof SODIUM_PAGES, BundleSize>> {
  const dir = project();
  try {
    const size = (page: SodiumPage) => bundleSize(dir, page.name, `${page.importLine}\n${PROGRAM}`);
    return { peer: await size(SODIUM_PAGES.peer), changedImport: await size(SODIUM_PAGES.changedImport), named: await size(SODIUM_PAGES.named) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One named call's page: `import { name } from 'fourfold/sodium'`, called with `args`. */
export async function namedCallSize(call: string, args: string): Promise<BundleSize> {
  const dir = project();
  try {
    return await bundleSize(dir, call, `import { ${call} } from 'fourfold/sodium';\ndocument.title = String(${call}(${args})[0]);\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pages = await measureSodiumPages();
  for (const page of Object.values(pages)) {
    console.log(`${page.name}: ${page.bytes} bytes, ${page.gzipBytes} gzip (${((100 * page.gzipBytes) / pages.peer.gzipBytes).toFixed(1)}% of the peer's)`);
    for (const m of page.modules.slice(0, 8)) console.log(`  ${m.bytes}\t${m.path}`);
  }
}
