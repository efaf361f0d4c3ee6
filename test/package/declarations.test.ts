/**
 * What an editor shows a user who hovers over fourfold: the emitted
 * declaration files (dist/, as the package ships them), read with the
 * TypeScript compiler. Every export of every entry point in package.json
 * has a doc comment, and so does each member a user reaches from one
 * (interface and class members, each overload, the fields of option
 * objects, a namespace's exports), recursively through the types they
 * return or take; each family's main function has an `@example`; no class
 * shows private members; no doc names a source file ("stream.ts's") or a
 * path under src/, which the package does not ship. Node only: it reads
 * the package's files with the compiler (the same files in every engine).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { NOT_NODE, ROOT } from './files.js';

/** The functions whose doc must show an `@example`: each family's main one. */
const EXAMPLES: Record<string, string[]> = {
  'fourfold/chacha': ['xchacha20poly1305', 'chacha20'],
  'fourfold/poly1305': ['poly1305'],
  'fourfold/blake3': ['blake3'],
  'fourfold/blake2': ['blake2b'],
  'fourfold/salsa': ['secretbox'],
  'fourfold/serpent': ['ctr', 'cbc'],
  'fourfold/secretstream': ['encryptStream', 'initPush'],
  'fourfold/parallel': ['xchacha20poly1305', 'blake3', 'warm'],
  fourfold: ['ready'],
};

/** A doc that names a TypeScript source file or a source path: the package ships neither. */
const INTERNAL = /\b[\w-]+\.ts\b|\bsrc\//;

interface Problem {
  where: string;
  what: string;
}

function walk(): { problems: Problem[]; documented: number } {
  // The compiler, from the project's devDependencies, loaded at run time (bundled engines skip this file).
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) =>
    typeof target === 'object' && target.types !== undefined
      ? [[subpath === '.' ? 'fourfold' : `fourfold/${subpath.slice(2)}`, join(ROOT, target.types)] as const]
      : [],
  );
  const program = ts.createProgram(
    entries.map(([, file]) => file),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  const DIST = join(ROOT, 'dist');
  const ours = (node: import('typescript').Node): boolean => node.getSourceFile().fileName.startsWith(DIST);
  const problems: Problem[] = [];
  const seen = new Set<import('typescript').Node | import('typescript').Type>();
  let documented = 0;

  /** The doc comment of a declaration (its text and tags), or undefined. */
  function docOf(node: import('typescript').Node): { text: string; tags: string[] } | undefined {
    // A variable's doc sits on its statement; a re-export's on its export declaration.
    const holder = ts.isVariableDeclaration(node) ? node.parent.parent : ts.isNamespaceExport(node) ? node.parent : node;
    const docs = ts.getJSDocCommentsAndTags(holder).filter(ts.isJSDoc);
    if (docs.length === 0) return undefined;
    const text = docs
      .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
      .join('\n')
      .trim();
    const tags = docs.flatMap((d) => (d.tags ?? []).map((t) => t.tagName.text));
    const all = docs.map((d) => d.getText()).join('\n');
    return text === '' && tags.length === 0 ? undefined : { text: all, tags };
  }

  function check(node: import('typescript').Node, where: string): void {
    if (!ours(node) || seen.has(node)) return;
    seen.add(node);
    const doc = docOf(node);
    if (doc === undefined) return void problems.push({ where, what: 'no doc comment' });
    documented++;
    const internal = INTERNAL.exec(doc.text);
    if (internal) problems.push({ where, what: `the doc names ${internal[0]}, which the package does not ship` });
  }

  /** A type's own declarations, members and signatures, where the package declares them. */
  function visitType(type: import('typescript').Type, where: string): void {
    if (seen.has(type)) return;
    seen.add(type);
    // A named type (an interface, a class, an alias such as Tier) has a doc of its own; a type literal is documented where it is used.
    const named = [type.aliasSymbol, type.getSymbol()].find(
      (s) => s !== undefined && s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.TypeAlias),
    );
    const name = named?.getName() ?? where;
    for (const d of named?.declarations?.filter(ours) ?? []) {
      check(d, name);
      if (ts.isClassDeclaration(d)) privateMembers(d, name);
    }
    if (type.isUnionOrIntersection()) {
      for (const t of type.types) visitType(t, where);
      return;
    }
    const declared = type.getSymbol()?.declarations?.filter(ours) ?? [];
    if (declared.length === 0) {
      for (const t of checker.getTypeArguments(type as import('typescript').TypeReference) ?? []) visitType(t, where);
      return;
    }
    // ES private members (#state) show as one `#private` line that names nothing.
    for (const member of checker.getPropertiesOfType(type)) if (!member.getName().startsWith('#')) visitMember(member, `${name}.${member.getName()}`);
    for (const kind of [ts.SignatureKind.Call, ts.SignatureKind.Construct]) {
      for (const s of checker.getSignaturesOfType(type, kind)) visitSignature(s, name);
    }
  }

  function visitSignature(s: import('typescript').Signature, where: string): void {
    const decl = s.getDeclaration();
    if (
      decl !== undefined &&
      ours(decl) &&
      (ts.isCallSignatureDeclaration(decl) ||
        ts.isMethodSignature(decl) ||
        ts.isMethodDeclaration(decl) ||
        ts.isConstructSignatureDeclaration(decl) ||
        ts.isConstructorDeclaration(decl))
    ) {
      check(
        decl,
        `${where}(${s
          .getParameters()
          .map((p) => p.getName())
          .join(', ')})`,
      );
    }
    visitType(s.getReturnType(), `${where}()`);
    for (const p of s.getParameters()) {
      const pd = p.valueDeclaration;
      if (pd !== undefined) visitType(checker.getTypeOfSymbolAtLocation(p, pd), `${where}(${p.getName()})`);
    }
  }

  function visitMember(member: import('typescript').Symbol, where: string): void {
    const decls = member.declarations?.filter(ours) ?? [];
    if (decls.length === 0) return;
    for (const d of decls) if (!ts.isMethodSignature(d) && !ts.isMethodDeclaration(d)) check(d, where);
    const type = checker.getTypeOfSymbolAtLocation(member, decls[0]!);
    // Methods: each overload is documented (visitSignature), and what it returns and takes.
    visitType(checker.getNonNullableType(type), where);
  }

  function privateMembers(d: import('typescript').ClassDeclaration, where: string): void {
    for (const m of d.members) {
      const hidden = ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
      if (hidden && m.name !== undefined)
        problems.push({ where: `${where}.${m.name.getText()}`, what: 'a private or protected member shows in the declarations (use #private)' });
    }
  }

  function visitExport(symbol: import('typescript').Symbol, where: string): void {
    // A namespace re-export (export * as serpent) is documented where it is exported.
    for (const d of symbol.declarations ?? []) if (ts.isNamespaceExport(d)) check(d, where);
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & ts.SymbolFlags.ValueModule && target.declarations?.some(ts.isSourceFile)) {
      for (const s of checker.getExportsOfModule(target)) visitExport(s, `${where}.${s.getName()}`);
      return;
    }
    const decls = target.declarations?.filter(ours) ?? [];
    // An alias is checked here too: one of a template literal type (HybridIdentity) has no alias symbol for visitType to find.
    for (const d of decls) if (!ts.isClassDeclaration(d) && !ts.isInterfaceDeclaration(d)) check(d, where);
    if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.TypeAlias)) visitType(checker.getDeclaredTypeOfSymbol(target), where);
    if (target.flags & ts.SymbolFlags.Value && decls[0] !== undefined) {
      if (target.flags & ts.SymbolFlags.Class) {
        visitType(checker.getTypeOfSymbolAtLocation(target, decls[0]), where);
      } else {
        visitType(checker.getTypeOfSymbolAtLocation(target, decls[0]), where);
      }
    }
  }

  for (const [id, file] of entries) {
    const source = program.getSourceFile(file);
    assert.ok(source, `${file} is in the program`);
    const module = checker.getSymbolAtLocation(source);
    assert.ok(module, `${file} is a module`);
    const exports = checker.getExportsOfModule(module);
    for (const s of exports) visitExport(s, `${id}: ${s.getName()}`);
    for (const name of EXAMPLES[id] ?? []) {
      const s = exports.find((e) => e.getName() === name);
      if (s === undefined) {
        problems.push({ where: `${id}: ${name}`, what: 'not exported (EXAMPLES names it)' });
        continue;
      }
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      const tags = (target.declarations ?? []).flatMap((d) => docOf(d)?.tags ?? []);
      if (!tags.includes('example')) problems.push({ where: `${id}: ${name}`, what: 'the main function of its family has no @example' });
    }
  }
  return { problems, documented };
}

/** A typed array or view with type arguments: TypeScript before 5.7 has no such generics and rejects the file. */
const GENERIC_VIEW = /\b(?:(?:Int8|Uint8|Uint8Clamped|Int16|Uint16|Int32|Uint32|Float32|Float64|BigInt64|BigUint64)Array|ArrayBufferView|DataView)</;

it('no declaration file spells a generic typed array (TypeScript 5.0 to 5.6 would refuse it): what a call allocates is written Bytes', {
  skip: NOT_NODE,
}, () => {
  const dist = join(ROOT, 'dist');
  const found = (readdirSync(dist, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.d.ts'))
    .flatMap((f) => {
      // Comments may name the generic types; code may not.
      const code = readFileSync(join(dist, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
      return code
        .split('\n')
        .filter((line) => GENERIC_VIEW.test(line))
        .map((line) => `dist/${f}: ${line.trim()}`);
    });
  assert.deepEqual(found, []);
});

/** The types file of every entry point of package.json's exports, as a path under dist/. */
function entryDeclarations(): string[] {
  const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, unknown>;
  const types = new Set<string>();
  const visit = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (key === 'types' && v.startsWith('./dist/')) types.add(v.slice('./dist/'.length));
    } else if (typeof v === 'object' && v !== null) for (const [k, w] of Object.entries(v)) visit(w, k);
  };
  visit(exports, '');
  return [...types];
}

it("no declaration file a user's compiler loads names a node: module: a project without @types/node compiles", { skip: NOT_NODE }, () => {
  const dist = join(ROOT, 'dist');
  const seen = new Set(entryDeclarations());
  const found: string[] = [];
  for (const file of seen) {
    // Comments may name node: modules; imports, import types and references may not.
    const code = readFileSync(join(dist, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/(?! *<reference)[^\n]*/g, '');
    if (/(?:\bfrom\s*|\bimport\s*\(\s*|<reference\s+types=)['"]node(?::|['"])/.test(code)) found.push(`dist/${file}`);
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)\.js['"]/g))
      seen.add(join(dirname(file), `${m[1]}.d.ts`).split('\\').join('/'));
  }
  assert.deepEqual(found, []);
  // Guards the walk: it follows the entries' imports, not the entries alone.
  assert.ok(seen.size > 60, `only ${seen.size} declaration files reached`);
});

it('every export of every entry point, and every member a user reaches from one, has a doc; no private members, no source file names', {
  skip: NOT_NODE,
}, () => {
  const { problems, documented } = walk();
  const lines = problems.map((p) => `${p.where}: ${p.what}`);
  assert.deepEqual(lines, [], `${lines.length} problems in the declarations (${documented} documented):\n${lines.join('\n')}`);
  // Guards the walk itself: it reaches the members (hundreds of them), not the entry points only.
  assert.ok(documented > 150, `only ${documented} documented declarations found`);
});
