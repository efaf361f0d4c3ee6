/**
 * src/'s import graph: the layers of docs/contributing/architecture.md
 * (each folder imports only what it builds on) and no cycle, between
 * files or between folders, so that a reader can take the tree from the
 * bottom up; and no cycle between the files of the rest of the house. Every relative import counts, type-only and dynamic ones too
 * (`import(('./x.js'))`, its parentheses keeping Vite's preload helper
 * out, as src/age/keys.ts explains). Node only (it reads the tree).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { NOT_NODE, ROOT, sourceFiles } from './files.js';

/** Every .ts file under src/, as a path from the root ("src/age/keys.ts"). */
const SOURCES = sourceFiles();

/** The folder a source file is in ("src/age"; "src" for the root's). */
const folderOf = (file: string): string => dirname(file);

/** The source files `file` imports, by relative path (a .js specifier names its .ts). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\(\(?)\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return [...new Set(specifiers.map((s) => relative(ROOT, join(ROOT, dirname(file), s)).replace(/\.js$/, '.ts')))];
}

/** The cycles of a graph: its strongly connected components of more than one node (Tarjan's algorithm). */
function cycles(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

it('no import cycle between the files of src/', { skip: NOT_NODE }, () => {
  const known = new Set(SOURCES);
  assert.deepEqual(
    cycles(SOURCES, (f) => importsOf(f).filter((t) => known.has(t))),
    [],
  );
});

/**
 * The rest of the house: the benchmark, the scripts, the page and the
 * tests, each file with the others it imports among them and src/
 * (src/ has no cycle, above, and imports none of them).
 */
it('no import cycle between the files of bench/, scripts/, page/ and test/', { skip: NOT_NODE }, () => {
  const house = ['bench', 'scripts', 'page', 'test'].flatMap((folder) => sourceFiles(folder));
  const known = new Set(house);
  assert.deepEqual(
    cycles(house, (f) => importsOf(f).filter((t) => known.has(t))),
    [],
  );
});

/**
 * The folders' graph, from the files': a folder imports another when one
 * of its files imports one of the other's. No cycle there means each
 * folder of src/ builds only on folders below it, whatever the rules of
 * LAYERS allow: src/parallel, which wires the families to the pool, is
 * imported by none of them.
 */
it('no import cycle between the folders of src/', { skip: NOT_NODE }, () => {
  const known = new Set(SOURCES);
  const folders = [...new Set(SOURCES.map(folderOf))];
  const next = (folder: string): string[] => [
    ...new Set(
      SOURCES.filter((f) => folderOf(f) === folder)
        .flatMap((f) => importsOf(f).filter((t) => known.has(t)))
        .map(folderOf)
        .filter((target) => target !== folder),
    ),
  ];
  assert.deepEqual(cycles(folders, next), []);
});

/**
 * What each folder of src/ may import from besides itself (relative
 * imports): a folder, or one file of a folder. A family builds on the
 * runtime, the generators' vocabulary, the pool and the families below it,
 * and none imports src/parallel, which sits on top of them all (the
 * composition, like src/index.ts) and wires them to the pool; above it is
 * only the fourfold command.
 */
const BASE = ['src/runtime', 'src/wasm', 'src/generated', 'src/pool'];
const LAYERS: Record<string, string[]> = {
  'src/runtime': [],
  'src/wasm': [],
  'src/pool': ['src/runtime'],
  'src/chachapoly': ['src/runtime'],
  'src/poly1305': [...BASE, 'src/chachapoly'],
  'src/aead': ['src/runtime', 'src/pool', 'src/poly1305'],
  'src/chacha': [...BASE, 'src/chachapoly', 'src/poly1305', 'src/aead', 'src/salsa/constants.ts'],
  'src/salsa': [...BASE, 'src/poly1305', 'src/aead'],
  'src/secretstream': [...BASE, 'src/chachapoly', 'src/chacha', 'src/poly1305'],
  'src/serpent': BASE,
  'src/scrypt': BASE,
  'src/bcrypt': ['src/runtime', 'src/pool'],
  // H0 and H' (RFC 9106 section 3.2) are BLAKE2b: fourfold/blake2's js tier, not a second BLAKE2b.
  'src/argon2': [...BASE, 'src/bcrypt', 'src/blake2/js.ts', 'src/blake2/layout.ts'],
  'src/age': [...BASE, 'src/chacha', 'src/chachapoly', 'src/poly1305', 'src/scrypt', 'src/bcrypt/blowfish.ts'],
  'src/blake3': BASE,
  'src/blake2': BASE,
  'src/parallel': [
    ...BASE,
    'src/chachapoly',
    'src/aead',
    'src/poly1305',
    'src/chacha',
    'src/salsa',
    'src/secretstream',
    'src/serpent',
    'src/scrypt',
    'src/argon2',
    'src/blake3',
    'src/age',
  ],
  // fourfold/sodium composes the families into libsodium-wrappers' API, as src/parallel composes them with the pool; no family imports it.
  'src/sodium': [...BASE, 'src/chachapoly', 'src/poly1305', 'src/chacha', 'src/salsa', 'src/secretstream', 'src/scrypt', 'src/argon2', 'src/blake2'],
  // fourfold/age/typage gives typage's API on age and the pool, as src/sodium gives libsodium-wrappers' on the families; nothing imports it.
  'src/typage': [...BASE, 'src/age', 'src/parallel'],
  // pool/protocol.ts: PARALLEL_MIN, for the age command to choose whether to load the pool at all.
  'src/cli': ['src/runtime', 'src/blake3', 'src/age', 'src/parallel', 'src/pool/protocol.ts'],
};

it('the layers of docs/contributing/architecture.md hold: each folder of src/ imports only what it builds on, and every folder has its rule', {
  skip: NOT_NODE,
}, () => {
  const crossings: string[] = [];
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'generated');
  assert.deepEqual(
    folders.map((d) => `src/${d.name}`).filter((f) => LAYERS[f] === undefined),
    [],
    'folders without a rule',
  );
  for (const [layer, may] of Object.entries(LAYERS)) {
    for (const file of SOURCES.filter((f) => folderOf(f) === layer)) {
      for (const target of importsOf(file)) {
        if (folderOf(target) !== layer && !may.includes(folderOf(target)) && !may.includes(target)) crossings.push(`${file} imports ${target}`);
      }
    }
  }
  assert.deepEqual(crossings, []);
});
