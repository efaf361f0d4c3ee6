/**
 * npm run build, after tsc: what a host that compiles WebAssembly only
 * from the modules its bundler imports (Cloudflare Workers, Vercel's edge)
 * needs. Writes each kernel as a file, dist/kernels/<name>.wasm (the bytes
 * src/generated embeds), and, for each subpath of the package, an entry
 * point dist/edge/<subpath>.js that package.json's exports give under the
 * `workerd` (wrangler) and `edge-light` (Vercel, Next.js) conditions: it
 * imports the kernels that subpath's code reaches as modules
 * (`.wasm?module`, which both bundlers turn into a compiled
 * WebAssembly.Module), hands them to useKernels(), and exports the
 * subpath's own module, or its calls without Web Workers where its own
 * module adds those (WORKERLESS). The kernels a subpath reaches are found by
 * following dist's relative imports (static and dynamic) from its
 * module to the src/generated modules.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');

/** The subpaths of package.json's exports that are the library's modules (not the pool's worker files or package.json), with their module. */
export function libraryEntries(): { subpath: string; module: string }[] {
  const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, { default?: string } | string>;
  return Object.entries(exports).flatMap(([subpath, target]) => {
    const module = typeof target === 'object' ? target.default : undefined;
    return module?.startsWith('./dist/') && module.endsWith('/index.js') ? [{ subpath, module: join(ROOT, module) }] : [];
  });
}

/**
 * The subpaths whose module (package.json's default) gives the pool its Web
 * Worker form, and their module without it: an edge runtime has no
 * workers, and webpack's runtime for that form reads `document` as an edge
 * bundle loads (src/parallel/web-workers.ts).
 */
const WORKERLESS: Readonly<Record<string, string>> = { './parallel': 'parallel/calls.js', './age/typage': 'typage/calls.js' };

/** The module `subpath`'s edge entry exports: its own, or its calls without Web Workers. */
const edgeModule = (subpath: string, module: string): string => (WORKERLESS[subpath] === undefined ? module : join(DIST, WORKERLESS[subpath]));

/** The relative specifiers `file` imports, statically or with import(). */
function relativeImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  // tsc writes import('x') as import(('x')).
  const found = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*(?:\(\s*)*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return found.map((specifier) => join(dirname(file), specifier));
}

/** The kernels (src/generated module names) reached from `entry` through relative imports. */
export function kernelsReached(entry: string): string[] {
  const seen = new Set<string>([entry]);
  const kernels = new Set<string>();
  for (const file of seen) {
    for (const target of relativeImports(file)) {
      const generated = relative(join(DIST, 'generated'), target).match(/^([a-z0-9_]+)\.js$/)?.[1];
      if (generated !== undefined) kernels.add(generated);
      else seen.add(target);
    }
  }
  return [...kernels].sort();
}

/** Whether the built module `module` has a default export: its own, or another module's named again (`export { default } from`). */
const hasDefault = (module: string): boolean =>
  /^export (?:default |\{(?:[^}]*[\s,])?(?:default|[\w$]+ as default)\s*[,}])/m.test(readFileSync(module, 'utf8'));

/** An entry point's text: the kernels as modules handed to useKernels, then the subpath's exports. */
function entryText(subpath: string, module: string, kernels: string[]): string {
  const from = (path: string) => relative(join(DIST, 'edge'), path).replaceAll('\\', '/');
  const name = subpath === '.' ? 'fourfold' : `fourfold/${subpath.slice(2)}`;
  return [
    `// ${name} where the host compiles WebAssembly only from modules its bundler imports (the workerd and`,
    '// edge-light conditions): its kernels come as such modules. Written by scripts/build-edge.ts.',
    `import { useKernels } from '${from(join(DIST, 'runtime/use-kernels.js'))}';`,
    ...kernels.map((kernel) => `import ${kernel} from '../kernels/${kernel}.wasm?module';`),
    `export * from '${from(module)}';`,
    // `export *` leaves a default export out (fourfold/sodium's, libsodium-wrappers' object): named again.
    ...(hasDefault(module) ? [`export { default } from '${from(module)}';`] : []),
    `useKernels({ ${kernels.join(', ')} });`,
    '',
  ].join('\n');
}

/** The edge entry point's file for `subpath` ('.' is index; a nested one, ./age/typage, is age-typage): one folder, so that its relative imports are the same for every entry. */
export const edgeFile = (subpath: string): string => join(DIST, 'edge', `${subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-')}.js`);

function main(): void {
  rmSync(join(DIST, 'kernels'), { recursive: true, force: true });
  rmSync(join(DIST, 'edge'), { recursive: true, force: true });
  mkdirSync(join(DIST, 'kernels'), { recursive: true });
  mkdirSync(join(DIST, 'edge'), { recursive: true });
  const kernels = readdirSync(join(DIST, 'generated')).flatMap((f) => f.match(/^([a-z0-9_]+)\.js$/)?.[1] ?? []);
  for (const kernel of kernels) {
    const hex = readFileSync(join(DIST, 'generated', `${kernel}.js`), 'utf8').match(/'([0-9a-f]+)'/)![1]!;
    writeFileSync(join(DIST, 'kernels', `${kernel}.wasm`), Buffer.from(hex, 'hex'));
  }
  const entries = libraryEntries();
  for (const entry of entries) {
    const { subpath } = entry;
    const module = edgeModule(subpath, entry.module);
    writeFileSync(edgeFile(subpath), entryText(subpath, module, kernelsReached(module)));
    // The subpath's declarations, for a TypeScript project that resolves with these conditions.
    const declared = relative(join(DIST, 'edge'), module).replaceAll('\\', '/');
    const defaultLine = hasDefault(module) ? `export { default } from '${declared}';\n` : '';
    writeFileSync(edgeFile(subpath).replace(/\.js$/, '.d.ts'), `export * from '${declared}';\n${defaultLine}`);
  }
  console.log(`edge entry points: ${entries.length} in dist/edge/, ${kernels.length} kernels in dist/kernels/`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
