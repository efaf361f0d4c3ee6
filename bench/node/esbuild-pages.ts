/**
 * Two pages against their peers' as a program ships them, bundled by esbuild
 * (minified, browser, ESM) from dist/; bytes gzip -9, 1 KB = 1000 bytes.
 * fourfold/sodium against libsodium-wrappers-sumo: one program through
 * `sodium.*` under three imports (the peer's default export, ours, and
 * `import * as sodium`, which a bundler treats as the names read).
 * fourfold/age/typage against typage: typage's X25519 README page, run in a
 * Node process that records each file it loads, as a browser fetches them.
 *
 *   node --import tsx bench/node/esbuild-pages.ts   # prints both comparisons
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { gzipBytes, project } from './code-size.js';

/** A module's path as the reports name it: from node_modules/ or dist/ on. */
const shortPath = (path: string) => path.replace(/^.*?\b(node_modules\/(?!fourfold\/)|dist\/)/, '$1');
const ESBUILD = { bundle: true, minify: true, platform: 'browser', format: 'esm', metafile: true, logLevel: 'silent' } as const satisfies BuildOptions;

/** Runs `measure` in a fresh project with `peers`, removed afterwards. */
async function inProject<T>(name: string, peers: readonly string[], measure: (dir: string) => Promise<T>): Promise<T> {
  const dir = project(name, peers);
  try {
    return await measure(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The sodium program, written against a `sodium` object: libsodium-wrappers'
 * calls with its arguments, each result used, so that no bundler may drop a call.
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

/** libsodium.js users' page, and fourfold/sodium's two ways of importing the same calls: each page's name and its first line. */
const SODIUM_PAGES = {
  peer: ['libsodium-wrappers-sumo (default export)', "import sodium from 'libsodium-wrappers-sumo';"],
  changedImport: ['fourfold/sodium (default export: the import changed, nothing else)', "import sodium from 'fourfold/sodium';"],
  named: ['fourfold/sodium (named exports)', "import * as sodium from 'fourfold/sodium';"],
} as const;
const SODIUM_PEERS = ['libsodium-wrappers-sumo', 'libsodium-sumo'];

export interface BundleSize {
  readonly name: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** The modules the bundle kept, largest first, with their bytes in it. */
  readonly modules: readonly { readonly path: string; readonly bytes: number }[];
}

/** Bundles `code` as a page's one script in `dir`, and sizes it. */
async function bundleSize(dir: string, name: string, code: string): Promise<BundleSize> {
  const result = await build({ ...ESBUILD, stdin: { contents: code, resolveDir: dir, loader: 'js' }, write: false });
  const out = result.outputFiles[0]!.contents;
  const modules = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs)
    .map(([path, { bytesInOutput }]) => ({ path: shortPath(path), bytes: bytesInOutput }))
    .filter((m) => m.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  return { name, bytes: out.length, gzipBytes: gzipBytes(out), modules };
}

/** The three sodium pages, built from this checkout's dist/. */
export function measureSodiumPages(): Promise<Record<keyof typeof SODIUM_PAGES, BundleSize>> {
  return inProject('sodium-size', SODIUM_PEERS, async (dir) => {
    const size = ([name, importLine]: readonly [string, string]) => bundleSize(dir, name, `${importLine}\n${PROGRAM}`);
    return { peer: await size(SODIUM_PAGES.peer), changedImport: await size(SODIUM_PAGES.changedImport), named: await size(SODIUM_PAGES.named) };
  });
}

/** One named call's page: `import { name } from 'fourfold/sodium'`, called with `args`. */
export function namedCallSize(call: string, args: string): Promise<BundleSize> {
  const code = `import { ${call} } from 'fourfold/sodium';\ndocument.title = String(${call}(${args})[0]);\n`;
  return inProject('sodium-size', SODIUM_PEERS, (dir) => bundleSize(dir, call, code));
}

/** typage's README page for X25519 files, importing from `spec`: the title says what it read back. */
const typagePage = (spec: string) => `import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from '${spec}';
const identity = await generateX25519Identity();
const e = new Encrypter();
e.addRecipient(await identityToRecipient(identity));
const file = await e.encrypt('hello, age');
const d = new Decrypter();
d.addIdentity(identity);
document.title = 'done:' + (await d.decrypt(file, 'text'));
`;

/** The module loader's hook of the run: each file loaded, appended to the log. */
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(log, url + '\\n');
  return next(url, context);
}
`;

/** The run: a document with a title, the hook registered, the page imported; prints the title. */
const RUN = `import { register } from 'node:module';
globalThis.document = { title: '' };
register(new URL('./hooks.mjs', import.meta.url), { data: { log: process.env.LOADED_LOG } });
await import('./out/page.js');
process.stdout.write(document.title);
`;

export interface PageLoad {
  readonly name: string;
  /** The page's title once it ran: 'done:hello, age' when it wrote and read the file. */
  readonly title: string;
  /** The scripts it loaded, each raw and gzip -9. */
  readonly scripts: readonly { readonly file: string; readonly bytes: number; readonly gzipBytes: number }[];
  readonly gzipBytes: number;
  /** The scripts the bundle emitted, loaded or not. */
  readonly emitted: number;
  /** The modules the bundle holds. */
  readonly modules: readonly string[];
}

/** Bundles the typage page importing `spec` in `dir`, split, runs it, and sizes what it loaded. */
async function runPage(dir: string, spec: string): Promise<PageLoad> {
  const work = mkdtempSync(join(dir, 'page-'));
  const stdin = { contents: typagePage(spec), resolveDir: dir, loader: 'js' as const };
  const result = await build({ ...ESBUILD, stdin, splitting: true, outdir: join(work, 'out'), entryNames: 'page' });
  writeFileSync(join(work, 'hooks.mjs'), HOOKS);
  writeFileSync(join(work, 'run.mjs'), RUN);
  const log = join(work, 'loaded.log');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, [join(work, 'run.mjs')], { env: { ...process.env, LOADED_LOG: log }, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`${spec}: the page failed (${run.status}): ${run.stderr}`);
  const out = pathToFileURL(join(work, 'out')).href;
  const loaded = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((url) => url.startsWith(`${out}/`));
  const scripts = loaded.sort().map((url) => {
    const bytes = readFileSync(fileURLToPath(url));
    return { file: url.slice(out.length + 1), bytes: bytes.length, gzipBytes: gzipBytes(bytes) };
  });
  return {
    name: spec,
    title: run.stdout,
    scripts,
    gzipBytes: scripts.reduce((n, s) => n + s.gzipBytes, 0),
    emitted: Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length,
    modules: Object.keys(result.metafile.inputs).map(shortPath),
  };
}

/** Both typage pages, built and run in one project: fourfold/age/typage's (this checkout's dist/) and age-encryption's. */
export function measureTypagePages(): Promise<{ ours: PageLoad; typage: PageLoad }> {
  return inProject('typage-size', ['age-encryption'], async (dir) => ({
    ours: await runPage(dir, 'fourfold/age/typage'),
    typage: await runPage(dir, 'age-encryption'),
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const pages = await measureSodiumPages();
  for (const page of Object.values(pages)) {
    console.log(`${page.name}: ${page.bytes} bytes, ${page.gzipBytes} gzip (${((100 * page.gzipBytes) / pages.peer.gzipBytes).toFixed(1)}% of the peer's)`);
    for (const m of page.modules.slice(0, 8)) console.log(`  ${m.bytes}\t${m.path}`);
  }
  const { ours, typage } = await measureTypagePages();
  for (const p of [ours, typage]) {
    console.log(`${p.name}: ${p.gzipBytes} bytes gzip -9 loaded, ${p.scripts.length} of ${p.emitted} scripts (title ${JSON.stringify(p.title)})`);
    for (const s of p.scripts) console.log(`  ${s.file}\t${s.bytes} raw\t${s.gzipBytes} gzip`);
  }
  console.log(`fourfold/age/typage: ${((100 * ours.gzipBytes) / typage.gzipBytes).toFixed(1)}% of age-encryption's`);
}
