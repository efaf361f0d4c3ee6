/**
 * What the typage API on fourfold costs a page against typage itself
 * (npm age-encryption, a devDependency): typage's README page for X25519
 * files (an identity made, a file written to its recipient and read
 * back), under `import ... from 'fourfold/age/typage'` and under
 * `import ... from 'age-encryption'`, bundled by esbuild in the same run
 * (minified, browser platform, ESM, split where the code imports late),
 * then run: its bytes are those of every script the run loaded (the entry,
 * what it imports, what its calls import), gzip -9 each, as a browser
 * fetches them (1 KB = 1000 bytes). The run is a Node process whose
 * module loader records each file it loads; the page's calls load what
 * they would in a browser with WebCrypto's X25519 and WebAssembly SIMD
 * (Node has both). fourfold is this checkout's dist/, as code-size.ts
 * builds it.
 *
 *   node --import tsx bench/node/typage-size.ts   # prints both pages' scripts and totals
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** typage's README page for X25519 files, importing from `spec`: the title says what it read back. */
const page = (spec: string) => `import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from '${spec}';
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
  /** The modules the bundle holds (paths from node_modules/ or dist/ on). */
  readonly modules: readonly string[];
}

/** Bundles the page importing `spec` in `dir` (a project with fourfold and age-encryption in its node_modules), runs it, sizes what it loaded. */
async function measure(dir: string, name: string, spec: string): Promise<PageLoad> {
  const work = mkdtempSync(join(dir, 'page-'));
  const result = await build({
    stdin: { contents: page(spec), resolveDir: dir, loader: 'js' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: join(work, 'out'),
    entryNames: 'page',
    metafile: true,
    logLevel: 'silent',
  });
  writeFileSync(join(work, 'hooks.mjs'), HOOKS);
  writeFileSync(join(work, 'run.mjs'), RUN);
  const log = join(work, 'loaded.log');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, [join(work, 'run.mjs')], { env: { ...process.env, LOADED_LOG: log }, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`${name}: the page failed (${run.status}): ${run.stderr}`);
  const out = pathToFileURL(join(work, 'out')).href;
  const loaded = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((url) => url.startsWith(`${out}/`));
  const scripts = loaded.sort().map((url) => {
    const bytes = readFileSync(fileURLToPath(url));
    return { file: url.slice(out.length + 1), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const modules = Object.keys(result.metafile.inputs).map((p) => p.replace(/^.*?\b(node_modules\/(?!fourfold\/)|dist\/)/, '$1'));
  return {
    name,
    title: run.stdout,
    scripts,
    gzipBytes: scripts.reduce((n, s) => n + s.gzipBytes, 0),
    emitted: Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length,
    modules,
  };
}

/** Both pages, built and run in one project: fourfold/age/typage's (this checkout's dist/) and age-encryption's. */
export async function measureTypagePages(): Promise<{ ours: PageLoad; typage: PageLoad }> {
  const dir = mkdtempSync(join(tmpdir(), 'fourfold-typage-size-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules/fourfold'));
    symlinkSync(join(root, 'node_modules/age-encryption'), join(dir, 'node_modules/age-encryption'));
    return { ours: await measure(dir, 'fourfold/age/typage', 'fourfold/age/typage'), typage: await measure(dir, 'age-encryption', 'age-encryption') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ours, typage } = await measureTypagePages();
  for (const p of [ours, typage]) {
    console.log(`${p.name}: ${p.gzipBytes} bytes gzip -9 loaded, ${p.scripts.length} of ${p.emitted} scripts (title ${JSON.stringify(p.title)})`);
    for (const s of p.scripts) console.log(`  ${s.file}\t${s.bytes} raw\t${s.gzipBytes} gzip`);
  }
  console.log(`fourfold/age/typage: ${((100 * ours.gzipBytes) / typage.gzipBytes).toFixed(1)}% of age-encryption's`);
}
