/**
 * How statements move taint in the js lint: a branch or loop on a secret
 * is a finding (an early exit where it can leave its loop or function),
 * and what runs under it stores secrets (an implicit flow); a return
 * stores into its function's result.
 */
import ts from 'typescript';
import { assign, bind, control, expr } from './js-expressions.js';
import type { TaintState } from './js-taint-state.js';
import { type FunctionNode, type Unit, isFunctionNode } from './js-syntax.js';

/** Walks a unit: a file's top level, or a function's parameters (properties and defaults) and body. */
export function walkUnit(cx: TaintState, u: Unit): void {
  if (ts.isSourceFile(u)) {
    statement(cx, u, false, undefined);
    return;
  }
  // Parameter properties are fields; default values are assignments.
  for (const p of u.parameters) {
    const t = p.initializer ? expr(cx, p.initializer, false) : false;
    if (ts.isIdentifier(p.name)) {
      const s = cx.checker.getSymbolAtLocation(p.name);
      if (p.initializer) cx.store(s, t);
      if (ts.isConstructorDeclaration(u) && ts.getModifiers(p)?.length) {
        const [, field] = cx.checker.getSymbolsOfParameterPropertyDeclaration(p, p.name.text);
        cx.store(field, cx.symbolTaint(s, p.name));
      }
    } else bind(cx, p.name, t, false, p.initializer);
  }
  if (u.body === undefined) return;
  if (ts.isBlock(u.body)) statement(cx, u.body, false, u);
  else cx.storeReturn(u, expr(cx, u.body, false));
}

/** A statement, run under a branch on a secret where `pc` is, in function `fn` (none at a file's top level). */
function statement(cx: TaintState, s: ts.Node, pc: boolean, fn: FunctionNode | undefined): void {
  if (isFunctionNode(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) return;
  if (ts.isClassDeclaration(s)) {
    // Its methods are units of their own; its field initializers run here.
    for (const m of s.members) {
      if (ts.isPropertyDeclaration(m) && m.initializer !== undefined) cx.store(cx.checker.getSymbolAtLocation(m.name), expr(cx, m.initializer, pc));
    }
  } else if (ts.isBlock(s) || ts.isSourceFile(s)) {
    for (const c of s.statements) statement(cx, c, pc, fn);
  } else if (ts.isVariableStatement(s)) {
    declare(cx, s.declarationList, pc);
  } else if (ts.isExpressionStatement(s) || ts.isThrowStatement(s)) {
    expr(cx, s.expression, pc);
  } else if (ts.isIfStatement(s)) {
    ifStatement(cx, s, pc, fn);
  } else if (ts.isForStatement(s)) {
    forStatement(cx, s, pc, fn);
  } else if (ts.isWhileStatement(s) || ts.isDoStatement(s)) {
    const c = control(cx, s.expression, expr(cx, s.expression, pc));
    if (c) cx.report(s.expression, 'early-exit');
    statement(cx, s.statement, pc || c, fn);
  } else if (ts.isForOfStatement(s) || ts.isForInStatement(s)) {
    forOfStatement(cx, s, pc, fn);
  } else if (ts.isSwitchStatement(s)) {
    switchStatement(cx, s, pc, fn);
  } else if (ts.isReturnStatement(s)) {
    const t = s.expression ? expr(cx, s.expression, pc) : false;
    if (fn !== undefined) cx.storeReturn(fn, t || pc);
  } else if (ts.isTryStatement(s)) {
    statement(cx, s.tryBlock, pc, fn);
    if (s.catchClause) statement(cx, s.catchClause.block, pc, fn);
    if (s.finallyBlock) statement(cx, s.finallyBlock, pc, fn);
  } else if (ts.isLabeledStatement(s)) {
    statement(cx, s.statement, pc, fn);
  } else {
    ts.forEachChild(s, (c) => {
      if (ts.isExpression(c)) expr(cx, c, pc);
      else statement(cx, c, pc, fn);
    });
  }
}

function declare(cx: TaintState, list: ts.VariableDeclarationList, pc: boolean): void {
  for (const d of list.declarations) bind(cx, d.name, d.initializer !== undefined ? expr(cx, d.initializer, pc) : false, pc, d.initializer);
}

/** Whether a statement leaves its loop or function: return, throw, break or continue outside any function inside it. */
function exits(s: ts.Node): boolean {
  if (ts.isReturnStatement(s) || ts.isThrowStatement(s) || ts.isBreakStatement(s) || ts.isContinueStatement(s)) return true;
  if (isFunctionNode(s)) return false;
  return ts.forEachChild(s, exits) === true;
}

/** `if` on a secret: a branch, or an early exit where either side can leave. */
function ifStatement(cx: TaintState, s: ts.IfStatement, pc: boolean, fn: FunctionNode | undefined): void {
  const c = control(cx, s.expression, expr(cx, s.expression, pc));
  if (c) cx.report(s.expression, exits(s.thenStatement) || (s.elseStatement !== undefined && exits(s.elseStatement)) ? 'early-exit' : 'secret-branch');
  statement(cx, s.thenStatement, pc || c, fn);
  if (s.elseStatement) statement(cx, s.elseStatement, pc || c, fn);
}

/** A `for` whose condition is secret stops early; its body and step run under the condition. */
function forStatement(cx: TaintState, s: ts.ForStatement, pc: boolean, fn: FunctionNode | undefined): void {
  if (s.initializer) {
    if (ts.isVariableDeclarationList(s.initializer)) declare(cx, s.initializer, pc);
    else expr(cx, s.initializer, pc);
  }
  const c = s.condition ? control(cx, s.condition, expr(cx, s.condition, pc)) : false;
  if (c) cx.report(s.condition!, 'early-exit');
  statement(cx, s.statement, pc || c, fn);
  if (s.incrementor) expr(cx, s.incrementor, pc || c);
}

/** `for...of` takes the contents of what it iterates, `for...in` its keys (public). */
function forOfStatement(cx: TaintState, s: ts.ForOfStatement | ts.ForInStatement, pc: boolean, fn: FunctionNode | undefined): void {
  const t = expr(cx, s.expression, pc);
  const item = ts.isForOfStatement(s) && t;
  if (ts.isVariableDeclarationList(s.initializer)) for (const d of s.initializer.declarations) bind(cx, d.name, item, pc, undefined);
  else assign(cx, s.initializer, item, pc);
  statement(cx, s.statement, pc, fn);
}

/** A `switch` on a secret, or with a secret case, is a branch. */
function switchStatement(cx: TaintState, s: ts.SwitchStatement, pc: boolean, fn: FunctionNode | undefined): void {
  let c = control(cx, s.expression, expr(cx, s.expression, pc));
  for (const clause of s.caseBlock.clauses) if (ts.isCaseClause(clause)) c = control(cx, clause.expression, expr(cx, clause.expression, pc)) || c;
  if (c) cx.report(s.expression, 'secret-branch');
  for (const clause of s.caseBlock.clauses) for (const st of clause.statements) statement(cx, st, pc || c, fn);
}
