/**
 * npm run build, last step: the `fourfold` command, fourfold's own code
 * bundled by esbuild (the dependencies, @noble's, stay imports of
 * the installed packages, so that the package ships no copy of another
 * project's code). A process that runs a command loads its modules before
 * it does anything, and each costs a fresh Node a file read, a resolution
 * and a compile: a command loads as few modules, and as little code, as
 * its subcommand needs.
 *
 * - dist/cli/fourfold.js, the entry: its own lines, signals.ts and
 *   compile-cache.ts.
 * - dist/cli/fourfold-<subcommand>.js, imported by the entry for that
 *   subcommand only: a bundle of its own for each, so that `fourfold
 *   b3sum` reads no age code and `fourfold --help` none at all.
 * - dist/cli/fourfold-<subcommand>-<hash>.js, the chunks of a subcommand's
 *   bundle (esbuild's splitting): what its code imports only when needed
 *   (an SSH key's, a post-quantum key's code, scrypt, a plugin's run, the
 *   pool, the file calls, -o's output) is a chunk apart,
 *   with whatever of it the subcommand's work does not use, so that
 *   `fourfold age` to an X25519 recipient loads no ML-KEM. Each module so
 *   imported also imports the subcommand's work module (below): it is
 *   only ever imported after that module anyway, and esbuild, which gives
 *   each set of entries that reach a module a chunk, then puts all the
 *   work's modules in one chunk rather than one per set (`fourfold age
 *   -e` loads a third as many files).
 *
 * Subcommands run in processes apart, so the same module in two
 * subcommands' bundles is never loaded twice by one; the entry's
 * signals.ts, in a subcommand's too, has no state.
 *
 * Every file sits in dist/cli/, and its modules see one import.meta.url,
 * dist/parallel/workers.js's, at that depth: the pool starts ./worker.js
 * beside it, and the command reads ../../package.json for its version, as
 * unbundled.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
const entry = join(dir, 'fourfold.js');

/** Each subcommand: the module fourfold.ts imports for it, and the module its work starts from. */
const SUBCOMMANDS: Record<string, { readonly module: string; readonly work: string }> = {
  age: { module: 'age-command.js', work: 'age.js' },
  'age-keygen': { module: 'age-keygen.js', work: 'age-keygen.js' },
  b3sum: { module: 'b3sum.js', work: 'b3sum.js' },
};

/** What esbuild writes: fourfold.js, and fourfold-<subcommand>.js and their chunks. The last build's go first, so that the package ships none that nothing imports. */
const OURS = /^fourfold(?:-[a-z0-9-]+)?\.js$/i;

const common: esbuild.BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__fourfoldModuleUrl' },
  banner: { js: "const __fourfoldModuleUrl = new URL('../parallel/workers.js', import.meta.url).href;" },
  outdir: dir,
  write: false,
  metafile: true,
  // The paths of the metafile and of the bundles' comments, relative to the repository whichever folder the build runs in.
  absWorkingDir: root,
  logLevel: 'warning',
};

/**
 * The modules that some import() names (but `work`), read from a first build's metafile. A set made as
 * esbuild resolves would hang on the order it resolves in: a module imported both ways (chacha/js.js,
 * age/codec.js) was in it or not as the machine's load fell, and the chunks' names and number with it.
 */
async function importedLater(options: esbuild.BuildOptions, work: string): Promise<Set<string>> {
  const { metafile } = await esbuild.build({ ...options, plugins: [] });
  const imports = Object.values(metafile!.inputs).flatMap((input) => input.imports);
  const later = imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => resolve(root, i.path));
  return new Set(later.filter((path) => path !== work));
}

/** Every module in `later` imports `work` too, at its end (see the file's comment), as __fourfoldWork. */
function afterWork(work: string, later: Set<string>): esbuild.Plugin {
  return {
    name: 'after-work',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!later.has(args.path)) return undefined;
        // A re-export, not a bare import, which esbuild drops from a package whose "sideEffects" leave the module out.
        return { contents: `${await readFile(args.path, 'utf8')}\nexport * as __fourfoldWork from ${JSON.stringify(work)};\n`, loader: 'js' };
      });
    },
  };
}

/** The entry imports each subcommand's bundle, fourfold-<subcommand>.js, in place of its module. */
const subcommandBundles: esbuild.Plugin = {
  name: 'subcommand-bundles',
  setup(build) {
    for (const [name, { module }] of Object.entries(SUBCOMMANDS)) {
      build.onResolve({ filter: new RegExp(`^\\./${module.replace(/\./g, '\\.')}$`) }, (args) =>
        args.kind === 'dynamic-import' ? { path: `./fourfold-${name}.js`, external: true } : undefined,
      );
    }
  },
};

const source = readFileSync(entry, 'utf8');
// A bundle bundled again would define its own first line's import.meta.url away: tsc writes the entry anew first.
if (source.includes('__fourfoldModuleUrl')) throw new Error('dist/cli/fourfold.js is already bundled: run tsc -p tsconfig.build.json first');
for (const name of readdirSync(dir)) if (OURS.test(name) && name !== 'fourfold.js') rmSync(join(dir, name));

const builds = await Promise.all([
  esbuild.build({ ...common, entryPoints: [entry], plugins: [subcommandBundles] }),
  ...Object.entries(SUBCOMMANDS).map(async ([name, { module, work }]) => {
    const workPath = join(dir, work);
    const options: esbuild.BuildOptions = {
      ...common,
      entryPoints: { [`fourfold-${name}`]: join(dir, module) },
      splitting: true,
      chunkNames: `fourfold-${name}-[hash]`,
    };
    const later = await importedLater(options, workPath);
    return esbuild.build({ ...options, plugins: [afterWork(workPath, later)] });
  }),
]);

const entryInputs = Object.keys(builds[0]!.metafile!.inputs)
  .map((p) => p.replace(/^.*dist\/cli\//, ''))
  .sort();
if (entryInputs.join() !== 'compile-cache.js,fourfold.js,signals.js')
  throw new Error(`the entry bundles ${entryInputs.join(', ')}: a module with state there would be a second copy of a subcommand's`);
/**
 * Node's built-in modules taken with process.getBuiltinModule (Node 20.16 and later, Deno, Bun) in place of
 * `import ... from 'node:fs'`: an import makes the module's ES module facade, which reads every export, lazy ones
 * too (node:fs's streams), some milliseconds of each run (--help: node:fs, node:module, node:path and node:os).
 * Each import statement becomes a declaration at the top of its file, where the imports were hoisted to; any
 * other form of import of a built-in is an error here.
 */
function builtinsByGetter(text: string, name: string): string {
  const taken: string[] = [];
  const rest = text.replace(/^import\s+([^;"]*?)\s*from\s*"(node:[a-z_/]+)";\n/gm, (_, clause: string, id: string) => {
    const from = `process.getBuiltinModule(${JSON.stringify(id)})`;
    const m = /^(?:([\w$]+)\s*,\s*)?(?:\*\s*as\s+([\w$]+)|\{([^}]*)\}|([\w$]+))$/.exec(clause.trim());
    if (m === null) throw new Error(`${name}: an import of ${id} that builtinsByGetter cannot read: import ${clause}`);
    const [, first, namespace, named, only] = m;
    for (const binding of [first, namespace, only]) if (binding !== undefined) taken.push(`const ${binding} = ${from};`);
    if (named !== undefined) {
      const fields: string[] = [];
      for (const n of named
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== '')) {
        const [, exported, local] = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(n) ?? [];
        if (exported === undefined) throw new Error(`${name}: an import of ${id} that builtinsByGetter cannot read: ${n}`);
        // The default export is the module itself, which has no property `default`.
        if (exported === 'default') taken.push(`const ${local} = ${from};`);
        else fields.push(local === undefined ? exported : `${exported}: ${local}`);
      }
      if (fields.length > 0) taken.push(`const { ${fields.join(', ')} } = ${from};`);
    }
    return '';
  });
  const left = rest.replace(/^import\s+"node:[a-z_/]+";\n/gm, '');
  if (/\bfrom\s*"node:|^import\s*"node:/m.test(left)) throw new Error(`${name}: an import of a built-in module left after builtinsByGetter`);
  const banner = common.banner!.js!;
  const at = left.indexOf(banner);
  if (at < 0) throw new Error(`${name}: no banner`);
  return taken.length === 0 ? left : `${left.slice(0, at + banner.length)}\n${taken.join('\n')}${left.slice(at + banner.length)}`;
}

const files = builds.flatMap((b) => b.outputFiles!).map((f) => ({ path: f.path, text: builtinsByGetter(f.text, f.path.slice(dir.length)) }));
for (const file of files) if (!OURS.test(file.path.slice(dir.length))) throw new Error(`esbuild would write ${file.path}, outside the command's names`);
const code = files.find((f) => f.path === entry)!.text;
if (!code.startsWith('#!/usr/bin/env node\n')) throw new Error('the bundled command lost its #! line');
for (const file of files) writeFileSync(file.path, file.text);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(
  `dist/cli/fourfold.js: ${kib(code.length)}; ${Object.keys(SUBCOMMANDS)
    .map((name, i) => `${name}: ${builds[i + 1]!.outputFiles!.length} files, ${kib(builds[i + 1]!.outputFiles!.reduce((n, f) => n + f.contents.length, 0))}`)
    .join('; ')}`,
);
