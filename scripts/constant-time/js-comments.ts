/**
 * The `// constant-time` comments the js tiers carry: declarations of what
 * is public or secret, and exceptions with their arguments, read from the
 * comment tokens and resolved to the symbols and functions they name
 * (docs/contributing/constant-time.md, "Declaring").
 */
import ts from 'typescript';
import type { JsRule } from './js-findings.js';
import { type FunctionNode, type Unit, isFunctionNode, lineAndColumn } from './js-syntax.js';

/** The rules an exception may name: those of the taint analysis, not those of the comments themselves. */
export const EXCEPTION_RULES: readonly JsRule[] = ['secret-index', 'secret-branch', 'early-exit', 'secret-division'];

/** A declaration, with the symbols and the functions (for `return`) it names once resolved. */
export interface Declaration {
  file: string;
  line: number;
  kind: 'public' | 'secret';
  names: string[];
  reason: string;
  /** Declaring exceptions (`exception (rule) for name`) are kept apart. */
  exception?: { rule: JsRule };
  pos: number;
  symbols: ts.Symbol[];
  returns: FunctionNode[];
}

/** An exception on a line of code. */
export interface ExceptionComment {
  file: string;
  line: number;
  /** The line whose findings it covers. */
  target: number;
  rule: JsRule;
  reason: string;
}

export interface Comments {
  declarations: Declaration[];
  exceptions: ExceptionComment[];
}

/** Reports a problem with a comment, at a position of its file. */
export type Problem = (sf: ts.SourceFile, pos: number, rule: JsRule, text: string) => void;

const COMMENT = /^\/\/\s*constant-time(?:\s+exception\s*\(([\w-]+)\)(?:\s+for\s+([\w$]+))?)?:\s*(.*)$/;
const DECLARATION = /^(public|secret)\s+((?:[\w$.]+)(?:\s*,\s*[\w$.]+)*):\s*(\S.*)$/;

interface CommentToken {
  pos: number;
  end: number;
  text: string;
}

/** The `// constant-time...` comments of a file, as scanned tokens (never text in a string). */
function constantTimeComments(sf: ts.SourceFile): CommentToken[] {
  const out: CommentToken[] = [];
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

/** Reads the comments of the linted files; a comment of the wrong form is a problem. */
export function readComments(sources: readonly ts.SourceFile[], nameOf: (sf: ts.SourceFile) => string, problem: Problem): Comments {
  const comments: Comments = { declarations: [], exceptions: [] };
  for (const sf of sources) for (const c of constantTimeComments(sf)) readComment(sf, c, nameOf(sf), comments, problem);
  return comments;
}

function readComment(sf: ts.SourceFile, c: CommentToken, file: string, into: Comments, problem: Problem): void {
  const m = COMMENT.exec(c.text);
  if (m === null) {
    problem(sf, c.pos, 'declaration', `not a constant-time comment's form: ${c.text}`);
    return;
  }
  const [, ruleText, forName, body] = m;
  const { line } = lineAndColumn(sf, c.pos);
  if (ruleText === undefined) {
    const d = DECLARATION.exec(body!);
    if (d === null || d[3]!.trim().length < 10) {
      problem(sf, c.pos, 'declaration', `a declaration is "// constant-time: public|secret name, ...: reason": ${c.text}`);
      return;
    }
    const names = d[2]!.split(',').map((s) => s.trim());
    into.declarations.push({ file, line, kind: d[1] as 'public' | 'secret', names, reason: d[3]!.trim(), pos: c.pos, symbols: [], returns: [] });
    return;
  }
  const rule = ruleText as JsRule;
  const reason = body!.trim();
  if (!EXCEPTION_RULES.includes(rule) || reason.length < 10) {
    problem(sf, c.pos, 'declaration', `an exception names a rule (${EXCEPTION_RULES.join(', ')}) and argues in a sentence: ${c.text}`);
    return;
  }
  // An exception for a name declares that value public; the lint checks that it still covers findings of its rule.
  if (forName !== undefined) {
    into.declarations.push({ file, line, kind: 'public', names: [forName], reason, exception: { rule }, pos: c.pos, symbols: [], returns: [] });
  } else {
    into.exceptions.push({ file, line, target: coveredLine(sf, c.pos, line), rule, reason });
  }
}

/** The line an exception covers: its own, when it follows code, else the next line with code. */
function coveredLine(sf: ts.SourceFile, pos: number, line: number): number {
  const lineStart = sf.getPositionOfLineAndCharacter(line - 1, 0);
  if (sf.text.slice(lineStart, pos).trim() !== '') return line;
  const lines = sf.text.split('\n');
  let target = line;
  while (target < lines.length && /^\s*(\/\/.*)?$/.test(lines[target]!)) target++;
  return target + 1;
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

/**
 * Resolves each declaration's names in the function it sits in (or
 * precedes), innermost first, else in its file; a name that names nothing
 * is a problem.
 */
export function resolveDeclarations(
  checker: ts.TypeChecker,
  declarations: readonly Declaration[],
  units: readonly Unit[],
  sourceOf: ReadonlyMap<string, ts.SourceFile>,
  problem: Problem,
): void {
  const functionsOf = new Map<ts.SourceFile, FunctionNode[]>();
  for (const u of units) if (!ts.isSourceFile(u)) functionsOf.set(u.getSourceFile(), [...(functionsOf.get(u.getSourceFile()) ?? []), u]);
  for (const d of declarations) {
    const sf = sourceOf.get(d.file)!;
    const owners = (functionsOf.get(sf) ?? []).filter((fn) => attachStart(fn) <= d.pos && d.pos < fn.end).sort((a, b) => attachStart(b) - attachStart(a));
    for (const name of d.names) {
      let named: boolean;
      if (name === 'return') {
        if (owners[0] !== undefined) d.returns.push(owners[0]);
        named = d.returns.length > 0;
      } else {
        const found = symbolsNamed(checker, name, owners, sf);
        d.symbols.push(...found);
        named = found.length > 0;
      }
      if (!named) problem(sf, d.pos, 'declaration', `"${name}" names nothing in scope here`);
    }
  }
}

/** What a declared name resolves to: `this.field` in the class, else a binding of the innermost owner that has one, else a value in scope. */
function symbolsNamed(checker: ts.TypeChecker, name: string, owners: readonly FunctionNode[], sf: ts.SourceFile): ts.Symbol[] {
  if (name.startsWith('this.')) {
    const cls = owners.map((o) => o.parent).find((p) => ts.isClassLike(p));
    const member = cls && checker.getTypeAtLocation(cls).getProperty(name.slice(5));
    return member ? [member] : [];
  }
  for (const fn of owners) {
    const ids = ownBindings(fn).get(name);
    if (ids === undefined) continue;
    const found = ids.flatMap((id) => checker.getSymbolAtLocation(id) ?? []);
    if (found.length > 0) return found;
    break;
  }
  const s = checker.getSymbolsInScope(owners[0]?.body ?? sf, ts.SymbolFlags.Value).find((x) => x.name === name);
  return s ? [s] : [];
}
