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
 * What is secret: an array's contents (typed arrays, arrays, DataViews),
 * unless the array is declared public or its element type is a literal
 * type (a table of constants); a value computed from a secret (arithmetic,
 * bitwise operations, comparisons, calls, destructuring, array and object
 * literals); a parameter where some call in the linted files passes a
 * secret; a variable or class field where some assignment stores one,
 * or that is assigned inside a branch on a secret. What is public:
 * literals and constants, `.length` and offsets, loop counters, object
 * identity and presence (`x === undefined`, `a === b` of arrays,
 * `typeof`), and the number, boolean and object parameters of functions
 * no linted code calls (the engines' entry points and callbacks: counts,
 * lengths, offsets, flags; their secrets travel in byte arrays).
 */
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The files the lint covers: the js tiers' code on secrets, the runtime helpers they share, and age's own code on secrets. */
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
  'src/serpent/js.ts',
  'src/serpent/js-sboxes.ts',
  'src/serpent/tables.ts',
  'src/scrypt/js.ts',
  'src/secretstream/js.ts',
  'src/secretstream/state.ts',
  'src/runtime/bytes.ts',
  'src/age/x25519.ts',
  'src/age/bcrypt-pbkdf.ts',
];

/**
 * The files the js tiers import that hold no computation on secrets (the
 * test checks that every file the tiers import is here or linted).
 */
export const JS_TIER_PUBLIC_FILES: Readonly<Record<string, string>> = {
  'src/blake3/layout.ts': "constants: BLAKE3's IV, flags and the kernel's memory layout",
  'src/chachapoly/layout.ts': 'constants: word positions of the ChaCha state and the kernel layout',
  'src/runtime/assert.ts': "argument checks: types and lengths, never an array's contents",
  'src/runtime/brands.ts': 'which kind of buffer an array views, never its contents',
  'src/runtime/host.ts': "the host's byte order and timers",
  'src/runtime/stream-cipher.ts': 'argument checks and the range of the public block counter',
};

export type Rule = 'secret-index' | 'secret-branch' | 'early-exit' | 'secret-division' | 'stale-exception' | 'declaration';

export const RULES: readonly Rule[] = ['secret-index', 'secret-branch', 'early-exit', 'secret-division', 'stale-exception', 'declaration'];

/** One thing the lint reports: where (1-based line and column), which rule, and the code or comment. */
export interface Finding {
  file: string;
  line: number;
  column: number;
  rule: Rule;
  text: string;
}

/** An exception the code carries, the findings it covers, and its argument. */
export interface ExceptionUse {
  file: string;
  line: number;
  rule: Rule;
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

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

/** A body the analysis walks: a function, or a file's top level (its statements and class field initializers). */
type Unit = FunctionNode | ts.SourceFile;

const isFunctionNode = (n: ts.Node): n is FunctionNode =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** Properties of arrays and views that say nothing about their contents. */
const SHAPE_PROPERTIES = new Set(['length', 'byteLength', 'byteOffset', 'BYTES_PER_ELEMENT', 'size']);
/** Array methods that stop at the first element that decides: an early exit over the contents. */
const SEARCHES = new Set(['every', 'some', 'find', 'findIndex', 'findLast', 'findLastIndex', 'includes', 'indexOf', 'lastIndexOf']);
/** Array and view methods that take their callback's first argument from the elements. */
const ELEMENT_CALLBACKS = new Set(['every', 'some', 'find', 'findIndex', 'findLast', 'findLastIndex', 'forEach', 'map', 'filter', 'flatMap', 'sort']);
/** Which arguments of an array or view method are positions in memory. */
const POSITIONS: Record<string, number[]> = {
  subarray: [0, 1],
  slice: [0, 1],
  fill: [1, 2],
  set: [1],
  copyWithin: [0, 1, 2],
  at: [0],
  with: [0],
  getUint8: [0],
  getInt8: [0],
  getUint16: [0],
  getInt16: [0],
  getUint32: [0],
  getInt32: [0],
  getFloat32: [0],
  getFloat64: [0],
  getBigUint64: [0],
  getBigInt64: [0],
  setUint8: [0],
  setInt8: [0],
  setUint16: [0],
  setInt16: [0],
  setUint32: [0],
  setInt32: [0],
  setFloat32: [0],
  setFloat64: [0],
  setBigUint64: [0],
  setBigInt64: [0],
};

interface Declaration {
  file: string;
  line: number;
  kind: 'public' | 'secret';
  names: string[];
  reason: string;
  /** Declaring exceptions (`exception (rule) for name`) are kept apart. */
  exception?: { rule: Rule };
  pos: number;
  symbols: ts.Symbol[];
  returns: FunctionNode[];
}

interface ExceptionComment {
  file: string;
  line: number;
  /** The line whose findings it covers. */
  target: number;
  rule: Rule;
  reason: string;
}

const COMMENT = /^\/\/\s*constant-time(?:\s+exception\s*\(([\w-]+)\)(?:\s+for\s+([\w$]+))?)?:\s*(.*)$/;
const DECLARATION = /^(public|secret)\s+((?:[\w$.]+)(?:\s*,\s*[\w$.]+)*):\s*(\S.*)$/;

/** The `// constant-time...` comments of a file, as scanned tokens (never text in a string). */
function constantTimeComments(sf: ts.SourceFile): { pos: number; end: number; text: string }[] {
  const out: { pos: number; end: number; text: string }[] = [];
  const seen = new Set<number>();
  const visit = (node: ts.Node): void => {
    for (const ranges of [ts.getLeadingCommentRanges(sf.text, node.pos), ts.getTrailingCommentRanges(sf.text, node.end)]) {
      for (const r of ranges ?? []) {
        if (r.kind !== ts.SyntaxKind.SingleLineCommentTrivia || seen.has(r.pos)) continue;
        seen.add(r.pos);
        const text = sf.text.slice(r.pos, r.end);
        if (/^\/\/\s*constant-time\b/.test(text)) out.push({ pos: r.pos, end: r.end, text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out.sort((a, b) => a.pos - b.pos);
}

/** Where a function's comments start: its own start, or the statement or property that names it. */
function attachStart(fn: FunctionNode): number {
  let n: ts.Node = fn;
  const p = fn.parent;
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))) {
    n = ts.isVariableDeclaration(p) && ts.isVariableStatement(p.parent.parent) ? p.parent.parent : p;
  }
  return n.getFullStart();
}

/** The bindings a function declares itself (its parameters and its variables, not those of functions inside it), by name. */
function ownBindings(fn: FunctionNode): Map<string, ts.Identifier[]> {
  const names = new Map<string, ts.Identifier[]>();
  const add = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.set(name.text, [...(names.get(name.text) ?? []), name]);
    else for (const e of name.elements) if (!ts.isOmittedExpression(e)) add(e.name);
  };
  for (const p of fn.parameters) add(p.name);
  const visit = (n: ts.Node): void => {
    if (n !== fn && isFunctionNode(n)) return;
    if (ts.isVariableDeclaration(n)) add(n.name);
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return names;
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
  return analyze(
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
  return analyze(
    program,
    [...virtual.keys()].map((p) => program.getSourceFile(p)!),
    (sf) => relative(base, sf.fileName),
  );
}

function analyze(program: ts.Program, sources: ts.SourceFile[], nameOf: (sf: ts.SourceFile) => string): LintResult {
  const checker = program.getTypeChecker();
  const linted = new Set(sources);
  const units: Unit[] = [];
  for (const sf of sources) {
    units.push(sf);
    const visit = (n: ts.Node): void => {
      if (isFunctionNode(n) && n.body !== undefined) units.push(n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  // Comments: declarations and exceptions.
  const problems: Finding[] = [];
  const declarations: Declaration[] = [];
  const exceptionComments: ExceptionComment[] = [];
  const at = (sf: ts.SourceFile, pos: number): { line: number; column: number } => {
    const lc = sf.getLineAndCharacterOfPosition(pos);
    return { line: lc.line + 1, column: lc.character + 1 };
  };
  const problem = (sf: ts.SourceFile, pos: number, rule: Rule, text: string): void => {
    problems.push({ file: nameOf(sf), ...at(sf, pos), rule, text });
  };
  for (const sf of sources) {
    for (const c of constantTimeComments(sf)) {
      const m = COMMENT.exec(c.text);
      const { line } = at(sf, c.pos);
      if (m === null) {
        problem(sf, c.pos, 'declaration', `not a constant-time comment's form: ${c.text}`);
        continue;
      }
      const [, ruleText, forName, body] = m;
      if (ruleText !== undefined) {
        const rule = ruleText as Rule;
        if (!RULES.slice(0, 4).includes(rule) || body!.trim().length < 10) {
          problem(sf, c.pos, 'declaration', `an exception names a rule (${RULES.slice(0, 4).join(', ')}) and argues in a sentence: ${c.text}`);
          continue;
        }
        if (forName !== undefined) {
          declarations.push({
            file: nameOf(sf),
            line,
            kind: 'public',
            names: [forName],
            reason: body!.trim(),
            exception: { rule },
            pos: c.pos,
            symbols: [],
            returns: [],
          });
          continue;
        }
        // A comment after code covers its own line, else the next line with code.
        const lineStart = sf.getPositionOfLineAndCharacter(line - 1, 0);
        let target = line;
        if (sf.text.slice(lineStart, c.pos).trim() === '') {
          const lines = sf.text.split('\n');
          while (target < lines.length && /^\s*(\/\/.*)?$/.test(lines[target]!)) target++;
          target++;
        }
        exceptionComments.push({ file: nameOf(sf), line, target, rule, reason: body!.trim() });
        continue;
      }
      const d = DECLARATION.exec(body!);
      if (d === null || d[3]!.trim().length < 10) {
        problem(sf, c.pos, 'declaration', `a declaration is "// constant-time: public|secret name, ...: reason": ${c.text}`);
        continue;
      }
      declarations.push({
        file: nameOf(sf),
        line,
        kind: d[1] as 'public' | 'secret',
        names: d[2]!.split(',').map((s) => s.trim()),
        reason: d[3]!.trim(),
        pos: c.pos,
        symbols: [],
        returns: [],
      });
    }
  }

  // Resolve each declaration's names in the function it sits in (or precedes), else in its file.
  const functionsOf = new Map<ts.SourceFile, FunctionNode[]>();
  for (const u of units) if (!ts.isSourceFile(u)) functionsOf.set(u.getSourceFile(), [...(functionsOf.get(u.getSourceFile()) ?? []), u]);
  const sourceOf = new Map(sources.map((sf) => [nameOf(sf), sf]));
  for (const d of declarations) {
    const sf = sourceOf.get(d.file)!;
    const owners = (functionsOf.get(sf) ?? []).filter((fn) => attachStart(fn) <= d.pos && d.pos < fn.end).sort((a, b) => attachStart(b) - attachStart(a));
    for (const name of d.names) {
      const found: ts.Symbol[] = [];
      if (name === 'return') {
        if (owners[0] !== undefined) d.returns.push(owners[0]);
      } else if (name.startsWith('this.')) {
        const cls = owners.map((o) => o.parent).find((p) => ts.isClassLike(p));
        const member = cls && checker.getTypeAtLocation(cls).getProperty(name.slice(5));
        if (member) found.push(member);
      } else {
        for (const fn of owners) {
          const ids = ownBindings(fn).get(name);
          if (ids) {
            for (const id of ids) {
              const s = checker.getSymbolAtLocation(id);
              if (s) found.push(s);
            }
            break;
          }
        }
        if (found.length === 0) {
          const s = checker.getSymbolsInScope(owners[0]?.body ?? sf, ts.SymbolFlags.Value).find((x) => x.name === name);
          if (s) found.push(s);
        }
      }
      if (found.length === 0 && !(name === 'return' && d.returns.length > 0)) {
        problem(sf, d.pos, 'declaration', `"${name}" names nothing in scope here`);
      }
      d.symbols.push(...found);
    }
  }

  const run = (skip?: Declaration) =>
    taint(
      checker,
      linted,
      units,
      declarations.filter((d) => d !== skip),
      nameOf,
    );
  const result = run();

  // Declarations that change nothing are stale: a public one on what would be public anyway, a secret one on what would be secret.
  for (const d of declarations) {
    const sf = sourceOf.get(d.file)!;
    if (d.exception !== undefined) {
      const without = run(d);
      const raised = without.findings.filter((f) => f.rule === d.exception!.rule && !result.findings.some((g) => sameFinding(f, g)));
      if (raised.length === 0) problem(sf, d.pos, 'stale-exception', `exception (${d.exception.rule}) for ${d.names[0]} covers nothing`);
      else result.declaredExceptions.push({ file: d.file, line: d.line, rule: d.exception.rule, name: d.names[0], reason: d.reason, covers: raised });
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

  // Exceptions cover findings of their rule on their line; one that covers none is stale.
  const exceptions: ExceptionUse[] = [...result.declaredExceptions];
  let findings = result.findings;
  for (const e of exceptionComments) {
    const covers = findings.filter((f) => f.file === e.file && f.line === e.target && f.rule === e.rule);
    if (covers.length === 0) {
      problems.push({ file: e.file, line: e.line, column: 1, rule: 'stale-exception', text: `exception (${e.rule}) covers nothing on line ${e.target}` });
      continue;
    }
    findings = findings.filter((f) => !covers.includes(f));
    exceptions.push({ file: e.file, line: e.line, rule: e.rule, reason: e.reason, covers });
  }
  return {
    findings: [...findings, ...problems].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column),
    exceptions,
    declarations: declarations.filter((d) => d.exception === undefined).map(({ file, line, kind, names, reason }) => ({ file, line, kind, names, reason })),
    files: sources.length,
    functions: units.filter((u) => !ts.isSourceFile(u)).length,
  };
}

const sameFinding = (a: Finding, b: Finding): boolean => a.file === b.file && a.line === b.line && a.column === b.column && a.rule === b.rule;

/** The taint analysis proper: a fixpoint over every unit, then one pass that reports. */
function taint(checker: ts.TypeChecker, linted: Set<ts.SourceFile>, units: Unit[], declarations: Declaration[], nameOf: (sf: ts.SourceFile) => string) {
  /** What assignments, calls and branches store into a symbol: true once anything secret is. */
  const stored = new Map<ts.Symbol, boolean>();
  const returns = new Map<FunctionNode, boolean>();
  const declared = new Map<ts.Symbol, boolean>();
  const declaredReturns = new Map<FunctionNode, boolean>();
  for (const d of declarations) {
    for (const s of d.symbols) declared.set(s, d.kind === 'secret');
    for (const fn of d.returns) declaredReturns.set(fn, d.kind === 'secret');
  }
  let changed = false;
  let reporting = false;
  const found = new Map<string, Finding>();

  const store = (s: ts.Symbol | undefined, t: boolean): void => {
    if (s === undefined || !t || stored.get(s) === true) return;
    stored.set(s, true);
    changed = true;
  };
  const storeReturn = (fn: FunctionNode, t: boolean): void => {
    if (!t || returns.get(fn) === true) return;
    returns.set(fn, true);
    changed = true;
  };
  const report = (node: ts.Node, rule: Rule): void => {
    if (!reporting) return;
    const sf = node.getSourceFile();
    const start = node.getStart();
    const key = `${sf.fileName}:${start}:${rule}`;
    if (found.has(key)) return;
    const lc = sf.getLineAndCharacterOfPosition(start);
    const text = node.getText().split('\n')[0]!.slice(0, 120);
    found.set(key, { file: nameOf(sf), line: lc.line + 1, column: lc.character + 1, rule, text });
  };

  const symbolOf = (node: ts.Node): ts.Symbol | undefined => {
    let s =
      ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
    if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
    return s;
  };

  // Types.
  const parts = (t: ts.Type): ts.Type[] => (t.isUnion() ? t.types : [t]);
  const NULLISH = ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void;
  const PRIMITIVE =
    ts.TypeFlags.NumberLike |
    ts.TypeFlags.BigIntLike |
    ts.TypeFlags.BooleanLike |
    ts.TypeFlags.StringLike |
    ts.TypeFlags.EnumLike |
    ts.TypeFlags.Any |
    ts.TypeFlags.Unknown;
  const LITERAL = ts.TypeFlags.NumberLiteral | ts.TypeFlags.StringLiteral | ts.TypeFlags.BigIntLiteral | ts.TypeFlags.BooleanLiteral | ts.TypeFlags.EnumLiteral;
  /** A type with a primitive among its values: its values themselves are data (numbers, booleans, strings); an object's identity is not. */
  const isPrimitive = (t: ts.Type): boolean => parts(t).some((p) => (p.flags & PRIMITIVE) !== 0);
  /** A type of constants only (a literal, a union of literals, but not boolean, which is true | false of any value). */
  const isLiteral = (t: ts.Type): boolean =>
    (t.flags & ts.TypeFlags.Boolean) === 0 && parts(t).every((p) => (p.flags & (LITERAL | NULLISH)) !== 0) && parts(t).some((p) => (p.flags & LITERAL) !== 0);
  const isArrayLike = (t: ts.Type): boolean =>
    parts(t).some(
      (p) =>
        (p.flags & NULLISH) === 0 &&
        (checker.getIndexInfoOfType(p, ts.IndexKind.Number) !== undefined ||
          checker.isTupleType(p) ||
          checker.isArrayLikeType(p) ||
          p.getSymbol()?.name === 'DataView'),
    );
  const typeOf = (n: ts.Node): ts.Type => checker.getTypeAtLocation(n);
  const inLinted = (d: ts.Node | undefined): boolean => d !== undefined && linted.has(d.getSourceFile());

  /** The function a callee names, where its body is in the linted files. */
  const functionOf = (s: ts.Symbol | undefined): FunctionNode | undefined => {
    const d = s?.valueDeclaration;
    if (d === undefined || !inLinted(d)) return undefined;
    if (isFunctionNode(d) && d.body !== undefined) return d;
    if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer !== undefined) {
      const init = skipOuter(d.initializer);
      if ((ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && isConstant(d)) return init;
    }
    return undefined;
  };
  const isConstant = (d: ts.Node): boolean =>
    ts.isVariableDeclaration(d) ? (ts.getCombinedNodeFlags(d) & ts.NodeFlags.Const) !== 0 : ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d);

  /** The taint of what a symbol holds, where it is read at `node`. */
  const symbolTaint = (s: ts.Symbol | undefined, node: ts.Node): boolean => {
    if (s === undefined) return false;
    const d = declared.get(s);
    if (d !== undefined) return d;
    return raw(s, node);
  };
  /** The same, without the declarations (what a declaration changes). */
  const raw = (s: ts.Symbol, node?: ts.Node): boolean => {
    const decl = s.valueDeclaration ?? s.declarations?.[0];
    if (decl === undefined) return false;
    if (NAMED_CODE.has(decl.kind)) return false;
    const getter = s.declarations?.find(ts.isGetAccessorDeclaration);
    if (getter !== undefined) return returnTaint(getter);
    const type = node !== undefined ? typeOf(node) : checker.getTypeOfSymbol(s);
    if (isLiteral(type)) return false;
    if (isArrayLike(type)) return true;
    if (!inLinted(decl)) return false;
    return stored.get(s) === true;
  };
  const returnTaint = (fn: FunctionNode): boolean => declaredReturns.get(fn) ?? returns.get(fn) === true;

  /** The taint of an expression: of its value, or for an array or object, of its contents. */
  const expr = (node: ts.Expression, pc: boolean): boolean => {
    const n = node;
    if (isFunctionNode(n)) return false;
    switch (n.kind) {
      case ts.SyntaxKind.NumericLiteral:
      case ts.SyntaxKind.BigIntLiteral:
      case ts.SyntaxKind.StringLiteral:
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      case ts.SyntaxKind.RegularExpressionLiteral:
      case ts.SyntaxKind.TrueKeyword:
      case ts.SyntaxKind.FalseKeyword:
      case ts.SyntaxKind.NullKeyword:
      case ts.SyntaxKind.ThisKeyword:
      case ts.SyntaxKind.SuperKeyword:
        return false;
    }
    if (ts.isIdentifier(n)) return n.text === 'undefined' ? false : symbolTaint(symbolOf(n), n);
    if (isWrapper(n) || ts.isAwaitExpression(n) || ts.isSpreadElement(n)) return expr(n.expression, pc);
    if (ts.isTypeOfExpression(n) || ts.isVoidExpression(n) || ts.isDeleteExpression(n)) {
      expr(n.expression, pc);
      return false;
    }
    if (ts.isPropertyAccessExpression(n)) return property(n, pc);
    if (ts.isElementAccessExpression(n)) return element(n, pc);
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) return call(n, pc);
    if (ts.isBinaryExpression(n)) return binary(n, pc);
    if (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) {
      const t = expr(n.operand, pc);
      const op = n.operator;
      if (op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken) assign(n.operand, t, pc);
      if (op === ts.SyntaxKind.ExclamationToken) return control(n.operand, t);
      return t;
    }
    if (ts.isConditionalExpression(n)) {
      const c = control(n.condition, expr(n.condition, pc));
      if (c) report(n.condition, 'secret-branch');
      const a = expr(n.whenTrue, pc || c);
      const b = expr(n.whenFalse, pc || c);
      return a || b || c;
    }
    if (ts.isArrayLiteralExpression(n)) return n.elements.map((e) => expr(e, pc)).some(Boolean);
    if (ts.isObjectLiteralExpression(n)) {
      let t = false;
      for (const p of n.properties) {
        if (ts.isPropertyAssignment(p)) t = expr(p.initializer, pc) || t;
        else if (ts.isShorthandPropertyAssignment(p)) t = expr(p.name, pc) || t;
        else if (ts.isSpreadAssignment(p)) t = expr(p.expression, pc) || t;
      }
      return t;
    }
    if (ts.isTemplateExpression(n)) return n.templateSpans.map((s) => expr(s.expression, pc)).some(Boolean);
    if (ts.isClassExpression(n)) return false;
    // Anything else: the join of its parts.
    let t = false;
    ts.forEachChild(n, (c) => {
      if (ts.isExpression(c)) t = expr(c, pc) || t;
    });
    return t;
  };

  /** A condition's taint as control flow sees it: an object's truthiness or identity is not its contents. */
  const control = (n: ts.Expression, t: boolean): boolean => t && isPrimitive(typeOf(n));

  const property = (n: ts.PropertyAccessExpression, pc: boolean): boolean => {
    const base = expr(n.expression, pc);
    const name = n.name.text;
    const s = checker.getSymbolAtLocation(n.name);
    if (s !== undefined && declared.has(s)) return declared.get(s)!;
    if (SHAPE_PROPERTIES.has(name) && (isArrayLike(typeOf(n.expression)) || name === 'length')) return false;
    const type = typeOf(n);
    if (isLiteral(type)) return false;
    const decl = s?.valueDeclaration;
    if (s !== undefined && inLinted(decl) && (ts.isPropertyDeclaration(decl!) || ts.isParameter(decl!) || ts.isGetAccessorDeclaration(decl!))) {
      return base || raw(s, n);
    }
    return base || isArrayLike(type);
  };

  const element = (n: ts.ElementAccessExpression, pc: boolean): boolean => {
    const base = expr(n.expression, pc);
    const index = expr(n.argumentExpression, pc);
    if (index) report(n, 'secret-index');
    if (isLiteral(typeOf(n))) return false;
    return base || index;
  };

  const binary = (n: ts.BinaryExpression, pc: boolean): boolean => {
    const op = n.operatorToken.kind;
    if (op === ts.SyntaxKind.EqualsToken) {
      const t = expr(n.right, pc);
      assign(n.left, t, pc);
      return t;
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) {
      const left = expr(n.left, pc);
      const c = control(n.left, left);
      if (c) report(n.left, 'secret-branch');
      const right = expr(n.right, pc || c);
      return left || right;
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken || op === ts.SyntaxKind.QuestionQuestionEqualsToken) {
      const left = expr(n.left, pc);
      const c = control(n.left, left);
      if (c) report(n.left, 'secret-branch');
      const t = left || expr(n.right, pc || c);
      assign(n.left, t, pc);
      return t;
    }
    const left = expr(n.left, pc);
    const right = expr(n.right, pc);
    if (
      (op === ts.SyntaxKind.SlashToken ||
        op === ts.SyntaxKind.PercentToken ||
        op === ts.SyntaxKind.SlashEqualsToken ||
        op === ts.SyntaxKind.PercentEqualsToken) &&
      (left || right)
    ) {
      report(n, 'secret-division');
    }
    if (op >= ts.SyntaxKind.FirstCompoundAssignment && op <= ts.SyntaxKind.LastCompoundAssignment) {
      assign(n.left, left || right, pc);
      return left || right;
    }
    if (op === ts.SyntaxKind.InstanceOfKeyword || op === ts.SyntaxKind.InKeyword) return false;
    if (
      op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      op === ts.SyntaxKind.EqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsToken
    ) {
      // Identity and presence: an object against an object, undefined or null.
      const l = typeOf(n.left);
      const r = typeOf(n.right);
      const objectish = (t: ts.Type, e: ts.Expression): boolean =>
        !isPrimitive(t) || (ts.isIdentifier(e) && e.text === 'undefined') || e.kind === ts.SyntaxKind.NullKeyword;
      if (objectish(l, n.left) && objectish(r, n.right)) return false;
    }
    return left || right;
  };

  /** An assignment of taint `t` to a target: a variable, a field, a setter, an element or a pattern. */
  const assign = (target: ts.Expression, t: boolean, pc: boolean): void => {
    const v = t || pc;
    const e = skipOuter(target);
    if (ts.isIdentifier(e)) store(symbolOf(e), v);
    else if (ts.isPropertyAccessExpression(e)) {
      expr(e.expression, pc);
      const s = checker.getSymbolAtLocation(e.name);
      const set = s?.declarations?.find(ts.isSetAccessorDeclaration);
      if (set !== undefined && set.parameters[0] !== undefined) store(checker.getSymbolAtLocation(set.parameters[0].name), v);
      else store(s, v);
    } else if (ts.isElementAccessExpression(e)) {
      expr(e.expression, pc);
      if (expr(e.argumentExpression, pc)) report(e, 'secret-index');
    } else if (ts.isArrayLiteralExpression(e)) {
      for (const el of e.elements) if (!ts.isOmittedExpression(el)) assign(ts.isSpreadElement(el) ? el.expression : el, v, pc);
    } else if (ts.isObjectLiteralExpression(e)) {
      for (const p of e.properties) {
        if (ts.isPropertyAssignment(p)) assign(p.initializer, v, pc);
        else if (ts.isShorthandPropertyAssignment(p)) store(symbolOf(p.name), v);
        else if (ts.isSpreadAssignment(p)) assign(p.expression, v, pc);
      }
    }
  };

  /** Binds a declaration's name (an identifier or a pattern) to what `init` holds. */
  const bind = (name: ts.BindingName, t: boolean, pc: boolean, init: ts.Expression | undefined): void => {
    if (ts.isIdentifier(name)) {
      store(checker.getSymbolAtLocation(name), t || pc);
      return;
    }
    for (const el of name.elements) {
      if (ts.isOmittedExpression(el)) continue;
      let et = t;
      if (ts.isObjectBindingPattern(name) && init !== undefined && !t) {
        // A field of a public object: a linted class's field by its own taint, else by its type.
        const key = el.propertyName ?? el.name;
        const prop = ts.isIdentifier(key) ? typeOf(init).getProperty(key.text) : undefined;
        if (prop !== undefined) et = declared.get(prop) ?? (inLinted(prop.valueDeclaration) ? raw(prop) : isArrayLike(checker.getTypeOfSymbol(prop)));
      }
      if (el.initializer !== undefined) et = expr(el.initializer, pc) || et;
      bind(el.name, et, pc, undefined);
    }
  };

  const call = (n: ts.CallExpression | ts.NewExpression, pc: boolean): boolean => {
    const args = n.arguments ?? [];
    const argTaints = args.map((a) => expr(a, pc));
    const callee = skipOuter(n.expression);
    let receiver = false;
    let method: string | undefined;
    if (ts.isPropertyAccessExpression(callee)) {
      receiver = expr(callee.expression, pc);
      method = callee.name.text;
    } else if (ts.isElementAccessExpression(callee)) {
      expr(callee, pc);
    }
    const s = ts.isNewExpression(n) ? symbolOf(callee) : ts.isPropertyAccessExpression(callee) ? checker.getSymbolAtLocation(callee.name) : symbolOf(callee);
    if (method !== undefined && ts.isPropertyAccessExpression(callee) && isArrayLike(typeOf(callee.expression))) {
      if (SEARCHES.has(method) && receiver) report(n, 'early-exit');
      for (const i of POSITIONS[method] ?? []) if (argTaints[i]) report(args[i]!, 'secret-index');
      if (ELEMENT_CALLBACKS.has(method)) callbackParams(args[0], [receiver]);
      if (method === 'reduce' || method === 'reduceRight') {
        const fn = args[0] && skipOuter(args[0]);
        const acc = (argTaints[1] ?? false) || (fn !== undefined && isFunctionNode(fn) && returnTaint(fn));
        callbackParams(args[0], [acc, receiver]);
      }
    }
    if (method === 'from' && args.length > 1) callbackParams(args[1], [argTaints[0] ?? false]);
    const all = argTaints.some(Boolean) || receiver;
    // A linted function: its parameters take what every call passes, so its result is what its body returns.
    let fn = functionOf(s);
    if (ts.isNewExpression(n) && s?.valueDeclaration && ts.isClassDeclaration(s.valueDeclaration) && inLinted(s.valueDeclaration)) {
      fn = s.valueDeclaration.members.find(ts.isConstructorDeclaration);
      if (fn === undefined) return all;
    }
    if (fn !== undefined) {
      passArguments(fn, argTaints, pc);
      const declaredReturn = declaredReturns.get(fn);
      if (declaredReturn !== undefined) return declaredReturn;
      return ts.isConstructorDeclaration(fn) ? all : returnTaint(fn);
    }
    return all;
  };

  const passArguments = (fn: FunctionNode, argTaints: boolean[], pc: boolean): void => {
    fn.parameters.forEach((p, i) => {
      const t = p.dotDotDotToken ? argTaints.slice(i).some(Boolean) : (argTaints[i] ?? false);
      const s = ts.isIdentifier(p.name) ? checker.getSymbolAtLocation(p.name) : undefined;
      if (s !== undefined) store(s, t || pc);
      else bindPattern(p.name, t || pc);
    });
  };
  const bindPattern = (name: ts.BindingName, t: boolean): void => {
    if (ts.isIdentifier(name)) store(checker.getSymbolAtLocation(name), t);
    else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindPattern(el.name, t);
  };
  const callbackParams = (arg: ts.Expression | undefined, taints: boolean[]): void => {
    const fn = arg && skipOuter(arg);
    if (fn === undefined || !isFunctionNode(fn)) return;
    passArguments(fn, taints, false);
  };

  /** Whether a statement leaves its loop or function: return, throw, break or continue outside any function inside it. */
  const exits = (s: ts.Node): boolean => {
    if (ts.isReturnStatement(s) || ts.isThrowStatement(s) || ts.isBreakStatement(s) || ts.isContinueStatement(s)) return true;
    if (isFunctionNode(s)) return false;
    return ts.forEachChild(s, exits) === true;
  };

  const stmt = (s: ts.Node, pc: boolean, fn: FunctionNode | undefined): void => {
    if (isFunctionNode(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) {
      if (ts.isClassDeclaration(s)) {
        for (const m of s.members) {
          if (ts.isPropertyDeclaration(m) && m.initializer !== undefined) store(checker.getSymbolAtLocation(m.name), expr(m.initializer, pc));
        }
      }
      return;
    }
    if (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) return;
    if (ts.isBlock(s) || ts.isSourceFile(s)) {
      for (const c of s.statements) stmt(c, pc, fn);
      return;
    }
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        const t = d.initializer !== undefined ? expr(d.initializer, pc) : false;
        bind(d.name, t, pc, d.initializer);
      }
      return;
    }
    if (ts.isExpressionStatement(s)) {
      expr(s.expression, pc);
      return;
    }
    if (ts.isIfStatement(s)) {
      const c = control(s.expression, expr(s.expression, pc));
      if (c) report(s.expression, exits(s.thenStatement) || (s.elseStatement !== undefined && exits(s.elseStatement)) ? 'early-exit' : 'secret-branch');
      stmt(s.thenStatement, pc || c, fn);
      if (s.elseStatement) stmt(s.elseStatement, pc || c, fn);
      return;
    }
    if (ts.isForStatement(s)) {
      if (s.initializer) {
        if (ts.isVariableDeclarationList(s.initializer)) {
          for (const d of s.initializer.declarations) bind(d.name, d.initializer ? expr(d.initializer, pc) : false, pc, d.initializer);
        } else expr(s.initializer, pc);
      }
      const c = s.condition ? control(s.condition, expr(s.condition, pc)) : false;
      if (c) report(s.condition!, 'early-exit');
      stmt(s.statement, pc || c, fn);
      if (s.incrementor) expr(s.incrementor, pc || c);
      return;
    }
    if (ts.isWhileStatement(s) || ts.isDoStatement(s)) {
      const c = control(s.expression, expr(s.expression, pc));
      if (c) report(s.expression, 'early-exit');
      stmt(s.statement, pc || c, fn);
      return;
    }
    if (ts.isForOfStatement(s) || ts.isForInStatement(s)) {
      const t = expr(s.expression, pc);
      const item = ts.isForOfStatement(s) && t;
      if (ts.isVariableDeclarationList(s.initializer)) for (const d of s.initializer.declarations) bind(d.name, item, pc, undefined);
      else assign(s.initializer, item, pc);
      stmt(s.statement, pc, fn);
      return;
    }
    if (ts.isSwitchStatement(s)) {
      let c = control(s.expression, expr(s.expression, pc));
      for (const clause of s.caseBlock.clauses) if (ts.isCaseClause(clause)) c = control(clause.expression, expr(clause.expression, pc)) || c;
      if (c) report(s.expression, 'secret-branch');
      for (const clause of s.caseBlock.clauses) for (const st of clause.statements) stmt(st, pc || c, fn);
      return;
    }
    if (ts.isReturnStatement(s)) {
      const t = s.expression ? expr(s.expression, pc) : false;
      if (fn !== undefined) storeReturn(fn, t || pc);
      return;
    }
    if (ts.isThrowStatement(s)) {
      expr(s.expression, pc);
      return;
    }
    if (ts.isTryStatement(s)) {
      stmt(s.tryBlock, pc, fn);
      if (s.catchClause) stmt(s.catchClause.block, pc, fn);
      if (s.finallyBlock) stmt(s.finallyBlock, pc, fn);
      return;
    }
    if (ts.isLabeledStatement(s)) {
      stmt(s.statement, pc, fn);
      return;
    }
    ts.forEachChild(s, (c) => {
      if (ts.isExpression(c)) expr(c, pc);
      else stmt(c, pc, fn);
    });
  };

  const walk = (u: Unit): void => {
    if (ts.isSourceFile(u)) {
      stmt(u, false, undefined);
      return;
    }
    // Parameter properties are fields; default values are assignments.
    for (const p of u.parameters) {
      const t = p.initializer ? expr(p.initializer, false) : false;
      if (ts.isIdentifier(p.name)) {
        const s = checker.getSymbolAtLocation(p.name);
        if (p.initializer) store(s, t);
        if (ts.isConstructorDeclaration(u) && ts.getModifiers(p)?.length) {
          const [, field] = checker.getSymbolsOfParameterPropertyDeclaration(p, p.name.text);
          store(field, symbolTaint(s, p.name));
        }
      } else bind(p.name, t, false, p.initializer);
    }
    if (u.body === undefined) return;
    if (ts.isBlock(u.body)) stmt(u.body, false, u);
    else storeReturn(u, expr(u.body, false));
  };

  for (let round = 0; round < 50; round++) {
    changed = false;
    for (const u of units) walk(u);
    if (!changed) break;
  }
  reporting = true;
  for (const u of units) walk(u);
  return {
    findings: [...found.values()],
    raw: (s: ts.Symbol): boolean => raw(s),
    rawReturn: (fn: FunctionNode): boolean => returns.get(fn) === true,
    declaredExceptions: [] as ExceptionUse[],
  };
}

/** Declarations of code, not of data: functions, classes, enums, namespaces, methods. */
const NAMED_CODE = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.MethodDeclaration,
]);

type Wrapper = ts.ParenthesizedExpression | ts.NonNullExpression | ts.AsExpression | ts.TypeAssertion | ts.SatisfiesExpression;
const WRAPPERS = new Set([
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.NonNullExpression,
  ts.SyntaxKind.AsExpression,
  ts.SyntaxKind.TypeAssertionExpression,
  ts.SyntaxKind.SatisfiesExpression,
]);
/** Parentheses, `!` and type assertions: the expression inside, unchanged. */
const isWrapper = (e: ts.Node): e is Wrapper => WRAPPERS.has(e.kind);

function skipOuter(e: ts.Expression): ts.Expression {
  while (isWrapper(e)) e = e.expression;
  return e;
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
