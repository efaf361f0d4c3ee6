/**
 * One meaning per name over src/: a name declared at the top level of
 * two files means the same thing in both, so that a grep finds one thing.
 * Two files share a name only where the tree's shape says they hold the
 * same thing:
 *
 * - src/testing.ts gives tests the library's own objects (with their
 *   kernels' bytes), under their names;
 * - a stand-in X-none.ts (package.json's "browser" field) gives its X.ts's
 *   names where there is no node:crypto or other Node module;
 * - src/parallel/'s entries give a family's (or age's) public calls again,
 *   on the pool;
 * - the same file of two families (layout.ts, tiers.ts, pieces.ts, ...)
 *   names the same thing of its own family (BLOCK: that family's block);
 * - one family's tiers (its kernel generator and its js tier) name the
 *   same step of its algorithm alike;
 * - the package's public calls: each entry (fourfold/age, fourfold/parallel,
 *   ...) is its own namespace, and age's encryptStream is to an age file
 *   what secretstream's is to its stream;
 * - the names src/typage/'s entry gives users (fourfold/age/typage:
 *   Stanza, armor's decode, ...), which are typage's (npm age-encryption),
 *   chosen by it so that a program written for it changes only its import;
 * - the few names in VOCABULARY, which say there what they mean wherever
 *   they are.
 *
 * The rule is over exported names: what a reader meets away from where it
 * is declared. Node only (it reads the tree).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NOT_NODE, ROOT, sourceFiles } from './files.js';

const FAMILIES = new Set(['argon2', 'blake2', 'blake3', 'chacha', 'chachapoly', 'poly1305', 'salsa', 'scrypt', 'secretstream', 'serpent']);
/** A family's tier files: its kernel generator, the code around the kernels, and its js tier. */
const TIER_FILES = new Set(['kernel.ts', 'simd.ts', 'wasm.ts', 'js.ts', 'field.ts', 'polynomial.ts']);

/** Names that mean one thing wherever they are declared, and what. */
const VOCABULARY: Readonly<Record<string, string>> = {
  COUNTER_WORD: 'the index of the 32-bit word of a ChaCha or Salsa20 state that holds the block counter',
  DOUBLE_ROUNDS: "ChaCha20's and Salsa20's rounds, two at a time (10)",
};

interface Declaration {
  readonly file: string;
}

/**
 * Every name src/'s files export (the built kernels' src/generated/ aside),
 * and where: read from the formatted source, where an exported declaration
 * starts its line.
 */
function declarations(): Map<string, Declaration[]> {
  const found = new Map<string, Declaration[]>();
  for (const file of sourceFiles().filter((p) => !p.startsWith('src/generated/'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^export (?:declare )?(?:abstract )?(?:async )?(?:function\*?|const|let|class|interface|type|enum) (\w+)/gm)) {
      const list = found.get(m[1]!) ?? [];
      if (!list.some((o) => o.file === file)) list.push({ file });
      found.set(m[1]!, list);
    }
  }
  return found;
}

const folder = (file: string): string => basename(dirname(file));

/** The source file of a relative specifier in `from` ("./x.js" -> "src/.../x.ts"). */
const sourceOf = (from: string, specifier: string): string => join(dirname(from), specifier).split('\\').join('/').replace(/\.js$/, '.ts');

/** "file#name" of every name the package's entries (package.json "exports") give users, through their re-exports. */
function publicNames(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string, only?: ReadonlySet<string>): void => {
    if (only === undefined && seen.has(file)) return;
    if (only === undefined) seen.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^export (?:async )?(?:function|const|class|interface|type) (\w+)/gm))
      if (only === undefined || only.has(m[1]!)) names.add(`${file}#${m[1]}`);
    for (const m of text.matchAll(/^export \*(?: as \w+)? from '(\.[^']+)'/gm)) visit(sourceOf(file, m[1]!));
    for (const m of text.matchAll(/^export (?:type )?\{([^}]*)\} from '(\.[^']+)'/gm)) {
      const listed = m[1]!
        .split(',')
        .map((n) =>
          n
            .trim()
            .replace(/^type /, '')
            .split(' as ')[0]!
            .trim(),
        )
        .filter((n) => n !== '');
      visit(sourceOf(file, m[2]!), new Set(listed));
    }
  };
  for (const entry of Object.values(manifest.exports)) {
    const built = typeof entry === 'string' ? entry : entry.default;
    if (built.startsWith('./dist/') && built.endsWith('.js')) visit(`src/${built.slice('./dist/'.length, -'.js'.length)}.ts`);
  }
  return names;
}

/** Whether two declarations of one name hold the same thing by the tree's shape (the header's list). */
function sameByShape(a: Declaration, b: Declaration, name: string, open: ReadonlySet<string>): boolean {
  if (name in VOCABULARY) return true;
  if (open.has(`${a.file}#${name}`) && open.has(`${b.file}#${name}`)) return true;
  const pair = (test: (x: Declaration, y: Declaration) => boolean): boolean => test(a, b) || test(b, a);
  if (pair((x) => x.file === 'src/testing.ts')) return true;
  if (pair((x, y) => x.file.endsWith('-none.ts') && y.file === x.file.replace(/-none\.ts$/, '.ts'))) return true;
  if (pair((x, y) => folder(x.file) === 'parallel' && folder(y.file) !== 'parallel')) return true;
  if (pair((x) => folder(x.file) === 'typage' && open.has(`${x.file}#${name}`))) return true;
  const families = FAMILIES.has(folder(a.file)) && FAMILIES.has(folder(b.file));
  if (families && folder(a.file) !== folder(b.file) && basename(a.file) === basename(b.file)) return true;
  return families && folder(a.file) === folder(b.file) && TIER_FILES.has(basename(a.file)) && TIER_FILES.has(basename(b.file));
}

it('the shapes that share a name are these, and no other', () => {
  const at = (file: string): Declaration => ({ file });
  const none = new Set<string>();
  assert.ok(sameByShape(at('src/chacha/layout.ts'), at('src/salsa/layout.ts'), 'BLOCK', none));
  assert.ok(sameByShape(at('src/chacha/native.ts'), at('src/chacha/native-none.ts'), 'nativeSeal', none));
  assert.ok(sameByShape(at('src/blake3/js.ts'), at('src/blake3/kernel.ts'), 'compress', none));
  assert.ok(sameByShape(at('src/parallel/chacha.ts'), at('src/chacha/index.ts'), 'chacha20', none));
  assert.ok(!sameByShape(at('src/age/payload.ts'), at('src/poly1305/layout.ts'), 'TAG', none));
  assert.ok(!sameByShape(at('src/pool/pool.ts'), at('src/chacha/native.ts'), 'PIECE', none));
  assert.ok(!sameByShape(at('src/parallel/chacha.ts'), at('src/parallel/salsa.ts'), 'CIPHER', none));
  assert.ok(!sameByShape(at('src/chacha/layout.ts'), at('src/chacha/index.ts'), 'BLOCK', none));
});

it('the public names are read from the entries', { skip: NOT_NODE }, () => {
  const open = publicNames();
  for (const name of [
    'src/age/index.ts#encryptStream',
    'src/secretstream/stream.ts#encryptStream',
    'src/parallel/age.ts#encryptFile',
    'src/runtime/errors.ts#AuthenticationError',
  ])
    assert.ok(open.has(name), name);
  assert.ok(!open.has('src/age/payload.ts#CHUNK'));
});

it('a name declared in two files of src/ means the same thing in both', { skip: NOT_NODE }, () => {
  const open = publicNames();
  const clashes: string[] = [];
  for (const [name, list] of declarations()) {
    const apart = list.filter((d) => list.some((o) => o !== d && !sameByShape(d, o, name, open)));
    if (apart.length > 0) clashes.push(`${name}: ${apart.map((d) => d.file).join(', ')}`);
  }
  assert.deepEqual(clashes, []);
});
