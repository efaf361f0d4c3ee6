/**
 * What a page of typage's calls loads, as esbuild bundles it for the
 * browser (minified ESM, split where the code imports late): the modules
 * its entry reaches through static imports. The typage API's
 * identityToRecipient is asynchronous, so it takes the platform's X25519
 * (WebCrypto) and leaves @noble/curves to the import that runs only where
 * WebCrypto has no X25519: a page that writes and reads X25519 files
 * loads no curve code in a browser that has it (@noble/curves' Ed25519
 * module, imported whole, is about 23 KB of gzip). Node only: esbuild's
 * native binary.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** typage's README page for X25519 files: keys made, a file written and read. */
const PAGE = `import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from './src/typage/index.ts';
const identity = await generateX25519Identity();
const e = new Encrypter();
e.addRecipient(await identityToRecipient(identity));
const d = new Decrypter();
d.addIdentity(identity);
document.title = await d.decrypt(await e.encrypt('hello'), 'text');
`;

/** The output files a page loads before its code runs: the entry and what it imports statically, transitively. */
function loadedAtOnce(meta: Metafile, entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string): void => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const i of meta.outputs[file]!.imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(entry);
  return loaded;
}

it("a page of typage's X25519 calls loads no @noble/curves where WebCrypto has X25519; the fallback imports it late", async () => {
  const { metafile } = await build({
    stdin: { contents: PAGE, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: 'out',
    entryNames: 'page',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputsOf = (files: Iterable<string>): string[] => [...files].flatMap((f) => Object.keys(metafile.outputs[f]!.inputs));
  const curves = (inputs: string[]): string[] => inputs.filter((i) => i.includes('@noble/curves/'));
  assert.deepEqual(curves(inputsOf(loadedAtOnce(metafile, 'out/page.js'))), []);
  // The check sees the curve code: the bundle holds it, for the platforms without WebCrypto's X25519.
  assert.ok(curves(inputsOf(Object.keys(metafile.outputs))).length > 0);
});
