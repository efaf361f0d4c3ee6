/**
 * The taint analysis's state (js-taint.ts runs it): what each symbol and
 * each function's result holds, what is declared, and the findings; the
 * questions about symbols and types that js-expressions.ts and
 * js-statements.ts ask as they move taint through each node.
 */
import ts from 'typescript';
import type { Declaration } from './js-comments.js';
import type { Finding, JsRule } from './js-findings.js';
import { type FunctionNode, NAMED_CODE, isArrayLike, isFunctionNode, isLiteral, lineAndColumn, skipOuter } from './js-syntax.js';

/** A `const` variable, or a property: a function stored there is the one every call reaches. */
const isConstant = (d: ts.Node): boolean =>
  ts.isVariableDeclaration(d) ? (ts.getCombinedNodeFlags(d) & ts.NodeFlags.Const) !== 0 : ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d);

/** The analysis's state: what is stored and declared, the findings, and the questions about symbols and types the rules ask. */
export class TaintState {
  /** What assignments, calls and branches store into a symbol: true once anything secret is. */
  private readonly stored = new Map<ts.Symbol, boolean>();
  /** The same for what a function returns. */
  private readonly returns = new Map<FunctionNode, boolean>();
  readonly declared = new Map<ts.Symbol, boolean>();
  readonly declaredReturns = new Map<FunctionNode, boolean>();
  /** Whether this round stored anything new: the fixpoint is reached when a round does not. */
  changed = false;
  /** Whether findings are recorded: only in the last pass, when what symbols hold is final. */
  reporting = false;
  readonly found = new Map<string, Finding>();

  constructor(
    readonly checker: ts.TypeChecker,
    private readonly linted: ReadonlySet<ts.SourceFile>,
    declarations: readonly Declaration[],
    private readonly nameOf: (sf: ts.SourceFile) => string,
  ) {
    for (const d of declarations) {
      for (const s of d.symbols) this.declared.set(s, d.kind === 'secret');
      for (const fn of d.returns) this.declaredReturns.set(fn, d.kind === 'secret');
    }
  }

  store(s: ts.Symbol | undefined, t: boolean): void {
    if (s === undefined || !t || this.stored.get(s) === true) return;
    this.stored.set(s, true);
    this.changed = true;
  }

  storeReturn(fn: FunctionNode, t: boolean): void {
    if (!t || this.returns.get(fn) === true) return;
    this.returns.set(fn, true);
    this.changed = true;
  }

  /** Records a finding at a node, once per position and rule, with the first line of its code. */
  report(node: ts.Node, rule: JsRule): void {
    if (!this.reporting) return;
    const sf = node.getSourceFile();
    const start = node.getStart();
    const key = `${sf.fileName}:${start}:${rule}`;
    if (this.found.has(key)) return;
    const text = node.getText().split('\n')[0]!.slice(0, 120);
    this.found.set(key, { file: this.nameOf(sf), ...lineAndColumn(sf, start), rule, text });
  }

  /** The symbol a name refers to, through shorthand properties and imports. */
  symbolOf(node: ts.Node): ts.Symbol | undefined {
    let s =
      ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
        ? this.checker.getShorthandAssignmentValueSymbol(node.parent)
        : this.checker.getSymbolAtLocation(node);
    if (s && s.flags & ts.SymbolFlags.Alias) s = this.checker.getAliasedSymbol(s);
    return s;
  }

  typeOf(n: ts.Node): ts.Type {
    return this.checker.getTypeAtLocation(n);
  }

  isArrayLike(t: ts.Type): boolean {
    return isArrayLike(this.checker, t);
  }

  inLinted(d: ts.Node | undefined): boolean {
    return d !== undefined && this.linted.has(d.getSourceFile());
  }

  /** The function a callee names, where its body is in the linted files. */
  functionOf(s: ts.Symbol | undefined): FunctionNode | undefined {
    const d = s?.valueDeclaration;
    if (d === undefined || !this.inLinted(d)) return undefined;
    if (isFunctionNode(d) && d.body !== undefined) return d;
    if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer !== undefined) {
      const init = skipOuter(d.initializer);
      if ((ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && isConstant(d)) return init;
    }
    return undefined;
  }

  /** The taint of what a symbol holds, where it is read at `node`. */
  symbolTaint(s: ts.Symbol | undefined, node: ts.Node): boolean {
    if (s === undefined) return false;
    const d = this.declared.get(s);
    if (d !== undefined) return d;
    return this.raw(s, node);
  }

  /** The same, without the declarations (what a declaration changes). */
  raw(s: ts.Symbol, node?: ts.Node): boolean {
    const decl = s.valueDeclaration ?? s.declarations?.[0];
    if (decl === undefined) return false;
    if (NAMED_CODE.has(decl.kind)) return false;
    const getter = s.declarations?.find(ts.isGetAccessorDeclaration);
    if (getter !== undefined) return this.returnTaint(getter);
    const type = node !== undefined ? this.typeOf(node) : this.checker.getTypeOfSymbol(s);
    if (isLiteral(type)) return false;
    if (this.isArrayLike(type)) return true;
    if (!this.inLinted(decl)) return false;
    return this.stored.get(s) === true;
  }

  returnTaint(fn: FunctionNode): boolean {
    return this.declaredReturns.get(fn) ?? this.rawReturn(fn);
  }

  /** Whether a function's body returns a secret, its declaration aside. */
  rawReturn(fn: FunctionNode): boolean {
    return this.returns.get(fn) === true;
  }
}
