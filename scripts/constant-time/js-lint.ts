/**
 * The constant-time lint of the pure-JavaScript tiers: an intra-procedural
 * taint analysis on the TypeScript compiler's AST and types (no grep) that
 * reports, per function, every table lookup indexed by a secret, every
 * branch on a secret, every `/` or `%` of a secret and every early exit
 * that depends on one. docs/contributing/constant-time.md has the rules,
 * the defaults, the comments that declare what is public or secret, and
 * the exceptions with their arguments; test/trust/js-constant-time.test.ts
 * runs it over JS_TIER_FILES and over planted mutations.
 *
 * This file: the files it covers, what it reports, and the checks of the
 * comments against the analysis (a declaration that changes nothing, an
 * exception that covers nothing). js-comments.ts reads the comments,
 * js-taint.ts runs the analysis with the rules of js-expressions.ts and
 * js-statements.ts, and js-syntax.ts names the syntax and types they share.
 */
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Declaration, type ExceptionComment, type Problem, readComments, resolveDeclarations } from './js-comments.js';
import { type TaintResult, taint } from './js-taint.js';
import type { Finding, JsRule } from './js-findings.js';
import { lineAndColumn, unitsOf } from './js-syntax.js';

export type { Finding, JsRule } from './js-findings.js';

/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The files the lint covers: the js tiers' code on secrets, the runtime helpers they share, age's own code on secrets, Argon2's PHC strings' base64 (which carries a password hash), bcrypt's Blowfish and strings, and fourfold/sodium's SipHash, helpers and codecs (hex and base64 of keys and of crypto_pwhash_str's hash). */
export const JS_TIER_FILES: readonly string[] = [
  'src/chacha/js.ts',
  'src/chacha/input-block.ts',
  'src/salsa/js.ts',
  'src/salsa/constants.ts',
  'src/poly1305/js.ts',
  'src/poly1305/field.ts',
  'src/poly1305/polynomial.ts',
  'src/poly1305/one-pass.ts',
  'src/poly1305/combine.ts',
  'src/blake3/js.ts',
  'src/blake2/js.ts',
  'src/serpent/js.ts',
  'src/serpent/js-sboxes.ts',
  'src/serpent/tables.ts',
  'src/scrypt/js.ts',
  'src/argon2/js.ts',
  'src/argon2/js-compress.ts',
  'src/argon2/indexing.ts',
  'src/secretstream/js.ts',
  'src/secretstream/state.ts',
  'src/runtime/bytes.ts',
  'src/age/x25519.ts',
  'src/age/bcrypt-pbkdf.ts',
  'src/argon2/phc-base64.ts',
  'src/bcrypt/blowfish.ts',
  'src/bcrypt/bcrypt.ts',
  'src/sodium/siphash.ts',
  'src/sodium/helpers.ts',
  'src/sodium/codecs.ts',
];

/**
 * The files the js tiers import that hold no computation on secrets (the
 * test checks that every file the tiers import is here or linted).
 */
export const JS_TIER_PUBLIC_FILES: Readonly<Record<string, string>> = {
  'src/argon2/layout.ts': "constants, and the memory's shape from the public m, p and t",
  'src/argon2/written.ts': 'the columns a call wrote in each lane, from its public shape and the positions of its segments, for its wipe',
  'src/blake3/layout.ts': "constants: BLAKE3's IV, flags and the kernel's memory layout",
  'src/blake2/layout.ts': "constants: BLAKE2b's IV, message schedule and the kernel's memory layout",
  'src/chachapoly/layout.ts': 'constants: word positions of the ChaCha state and the kernel layout',
  'src/runtime/assert.ts': "argument checks: types and lengths, never an array's contents",
  'src/runtime/brands.ts': 'which kind of buffer an array views, never its contents',
  'src/runtime/host.ts': "the host's byte order and timers",
  'src/runtime/stream-cipher.ts': 'argument checks and the range of the public block counter',
};

/** An exception the code carries, the findings it covers, and its argument. */
export interface ExceptionUse {
  file: string;
  line: number;
  rule: JsRule;
  name?: string;
  reason: string;
  covers: Finding[];
}

/** A declaration the code carries. */
export interface DeclarationUse {
  file: string;
  line: number;
  kind: 'public' | 'secret';
  names: string[];
  reason: string;
}

export interface LintResult {
  /** Findings not covered by an exception: none, for the linted tree. */
  findings: Finding[];
  exceptions: ExceptionUse[];
  declarations: DeclarationUse[];
  files: number;
  functions: number;
}

/** The options of tsconfig.json, for the program the lint builds. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return { ...parsed.options, noEmit: true };
}

/** Lints files of the repository (paths relative to its root). */
export function lintFiles(files: readonly string[] = JS_TIER_FILES): LintResult {
  const paths = files.map((f) => join(ROOT, f));
  const program = ts.createProgram(paths, compilerOptions());
  return lintProgram(
    program,
    paths.map((p) => program.getSourceFile(p)!),
    (sf) => relative(ROOT, sf.fileName),
  );
}

/** Lints sources given as text (name to source), as the tests' planted mutations are. */
export function lintSources(sources: Record<string, string>): LintResult {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const base = join(ROOT, '.constant-time-sources');
  const virtual = new Map(Object.entries(sources).map(([name, text]) => [join(base, name), text]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => {
    const text = virtual.get(name);
    return text === undefined ? getSourceFile(name, lang, onError, create) : ts.createSourceFile(name, text, lang, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  return lintProgram(
    program,
    [...virtual.keys()].map((p) => program.getSourceFile(p)!),
    (sf) => relative(base, sf.fileName),
  );
}

/** Runs the lint over the linted files of a program: reads the comments, runs the analysis, and checks the comments against it. */
function lintProgram(program: ts.Program, sources: ts.SourceFile[], nameOf: (sf: ts.SourceFile) => string): LintResult {
  const checker = program.getTypeChecker();
  const units = unitsOf(sources);
  const problems: Finding[] = [];
  const problem: Problem = (sf, pos, rule, text) => {
    problems.push({ file: nameOf(sf), ...lineAndColumn(sf, pos), rule, text });
  };
  const comments = readComments(sources, nameOf, problem);
  const sourceOf = new Map(sources.map((sf) => [nameOf(sf), sf]));
  resolveDeclarations(checker, comments.declarations, units, sourceOf, problem);
  const linted = new Set(sources);
  const run = (skip?: Declaration): TaintResult =>
    taint(
      checker,
      linted,
      units,
      comments.declarations.filter((d) => d !== skip),
      nameOf,
    );
  const result = run();
  const exceptions = checkDeclarations(comments.declarations, result, run, sourceOf, problem);
  const findings = applyExceptions(result.findings, comments.exceptions, exceptions, problems);
  return {
    findings: [...findings, ...problems].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column),
    exceptions,
    declarations: comments.declarations
      .filter((d) => d.exception === undefined)
      .map(({ file, line, kind, names, reason }) => ({ file, line, kind, names, reason })),
    files: sources.length,
    functions: units.filter((u) => !ts.isSourceFile(u)).length,
  };
}

/**
 * Declarations that change nothing are stale: a public one on what would
 * be public anyway, a secret one on what would be secret. A declaring
 * exception is in use where the analysis without it finds more of its
 * rule; returns those in use.
 */
function checkDeclarations(
  declarations: readonly Declaration[],
  result: TaintResult,
  run: (skip: Declaration) => TaintResult,
  sourceOf: ReadonlyMap<string, ts.SourceFile>,
  problem: Problem,
): ExceptionUse[] {
  const used: ExceptionUse[] = [];
  for (const d of declarations) {
    const sf = sourceOf.get(d.file)!;
    if (d.exception !== undefined) {
      const without = run(d);
      const raised = without.findings.filter((f) => f.rule === d.exception!.rule && !result.findings.some((g) => sameFinding(f, g)));
      if (raised.length === 0) problem(sf, d.pos, 'stale-exception', `exception (${d.exception.rule}) for ${d.names[0]} covers nothing`);
      else used.push({ file: d.file, line: d.line, rule: d.exception.rule, name: d.names[0], reason: d.reason, covers: raised });
      continue;
    }
    for (const s of d.symbols) {
      const raw = result.raw(s);
      if ((d.kind === 'public') !== raw)
        problem(sf, d.pos, 'declaration', `${d.kind} ${s.name}: it is ${raw ? 'secret' : 'public'} without the declaration, so it declares nothing`);
    }
    for (const fn of d.returns) {
      const raw = result.rawReturn(fn);
      if ((d.kind === 'public') !== raw)
        problem(sf, d.pos, 'declaration', `${d.kind} return: the result is ${raw ? 'secret' : 'public'} without the declaration`);
    }
  }
  return used;
}

const sameFinding = (a: Finding, b: Finding): boolean => a.file === b.file && a.line === b.line && a.column === b.column && a.rule === b.rule;

/**
 * Exceptions cover findings of their rule on their line; one that covers
 * none is stale. Adds those in use to `exceptions` and the stale ones to
 * `problems`; returns the findings left.
 */
function applyExceptions(findings: Finding[], comments: readonly ExceptionComment[], exceptions: ExceptionUse[], problems: Finding[]): Finding[] {
  let left = findings;
  for (const e of comments) {
    const covers = left.filter((f) => f.file === e.file && f.line === e.target && f.rule === e.rule);
    if (covers.length === 0) {
      problems.push({ file: e.file, line: e.line, column: 1, rule: 'stale-exception', text: `exception (${e.rule}) covers nothing on line ${e.target}` });
      continue;
    }
    left = left.filter((f) => !covers.includes(f));
    exceptions.push({ file: e.file, line: e.line, rule: e.rule, reason: e.reason, covers });
  }
  return left;
}

/**
 * The files the js tiers run: each family's js engine (the `js...` import
 * of its tiers.ts) and, transitively, every module it imports for values
 * (not for types alone), paths relative to the root.
 */
export function jsTierImports(): string[] {
  const parse = (file: string): ts.SourceFile => ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const target = (from: string, spec: string): string => relative(ROOT, join(ROOT, dirname(from), spec.replace(/\.js$/, '.ts')));
  const imports = (file: string, only?: (name: string) => boolean): string[] =>
    parse(file).statements.flatMap((s) => {
      if (!(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) || s.moduleSpecifier === undefined || !ts.isStringLiteral(s.moduleSpecifier)) return [];
      if (!s.moduleSpecifier.text.startsWith('.')) return [];
      const clause = ts.isImportDeclaration(s) ? s.importClause : undefined;
      if (clause?.isTypeOnly || (ts.isExportDeclaration(s) && s.isTypeOnly)) return [];
      const names = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements.filter((e) => !e.isTypeOnly) : undefined;
      if (clause !== undefined && clause.name === undefined && names !== undefined && names.length === 0) return [];
      if (only !== undefined && !names?.some((e) => only(e.name.text))) return [];
      return [target(file, s.moduleSpecifier.text)];
    });
  const tiers = readdirSync(join(ROOT, 'src')).filter((f) => existsSync(join(ROOT, 'src', f, 'tiers.ts')));
  const todo = tiers.flatMap((f) => imports(`src/${f}/tiers.ts`, (name) => /^js[A-Z]/.test(name)));
  const seen = new Set<string>();
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...imports(file));
  }
  return [...seen].sort();
}
