/**
 * How expressions move taint in the js lint: the taint of each kind of
 * expression, the findings an expression makes (a secret index, a branch
 * on a secret in `?:` and `&&`, a division of a secret, a search that
 * exits early), and what assignments, bindings and calls store. `pc` is
 * whether the code runs under a branch on a secret: what it stores is
 * then secret too.
 */
import ts from 'typescript';
import type { TaintState } from './js-taint-state.js';
import { type FunctionNode, isFunctionNode, isLiteral, isPrimitive, isWrapper, skipOuter } from './js-syntax.js';

/** Properties of arrays and views that say nothing about their contents. */
const SHAPE_PROPERTIES = new Set(['length', 'byteLength', 'byteOffset', 'BYTES_PER_ELEMENT', 'size']);
/** Array methods that stop at the first element that decides: an early exit over the contents. */
const SEARCHES = new Set(['every', 'some', 'find', 'findIndex', 'findLast', 'findLastIndex', 'includes', 'indexOf', 'lastIndexOf']);
/** Array and view methods that take their callback's first argument from the elements. */
const ELEMENT_CALLBACKS = new Set(['every', 'some', 'find', 'findIndex', 'findLast', 'findLastIndex', 'forEach', 'map', 'filter', 'flatMap', 'sort']);
/** Which arguments of an array or view method are positions in memory (a Map: a method named toString must find nothing). */
const POSITIONS = new Map<string, number[]>(
  Object.entries({
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
  }),
);

const K = ts.SyntaxKind;
/** Expressions that hold nothing secret: literals, `this` and `super`. */
const CONSTANTS = new Set([
  K.NumericLiteral,
  K.BigIntLiteral,
  K.StringLiteral,
  K.NoSubstitutionTemplateLiteral,
  K.RegularExpressionLiteral,
  K.TrueKeyword,
  K.FalseKeyword,
  K.NullKeyword,
  K.ThisKeyword,
  K.SuperKeyword,
]);
/** Short circuits: the left side decides whether the right side runs. */
const LOGICAL = new Set([K.AmpersandAmpersandToken, K.BarBarToken, K.QuestionQuestionToken]);
const LOGICAL_ASSIGNMENTS = new Set([K.AmpersandAmpersandEqualsToken, K.BarBarEqualsToken, K.QuestionQuestionEqualsToken]);
const DIVISIONS = new Set([K.SlashToken, K.PercentToken, K.SlashEqualsToken, K.PercentEqualsToken]);
const EQUALITIES = new Set([K.EqualsEqualsEqualsToken, K.ExclamationEqualsEqualsToken, K.EqualsEqualsToken, K.ExclamationEqualsToken]);

/** The taint of an expression: of its value, or for an array or object, of its contents. */
export function expr(cx: TaintState, n: ts.Expression, pc: boolean): boolean {
  if (isFunctionNode(n) || CONSTANTS.has(n.kind)) return false;
  if (ts.isIdentifier(n)) return n.text === 'undefined' ? false : cx.symbolTaint(cx.symbolOf(n), n);
  if (isWrapper(n) || ts.isAwaitExpression(n) || ts.isSpreadElement(n)) return expr(cx, n.expression, pc);
  if (ts.isTypeOfExpression(n) || ts.isVoidExpression(n) || ts.isDeleteExpression(n)) {
    expr(cx, n.expression, pc);
    return false;
  }
  if (ts.isPropertyAccessExpression(n)) return property(cx, n, pc);
  if (ts.isElementAccessExpression(n)) return element(cx, n, pc);
  if (ts.isCallExpression(n) || ts.isNewExpression(n)) return call(cx, n, pc);
  if (ts.isBinaryExpression(n)) return binary(cx, n, pc);
  if (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) return unary(cx, n, pc);
  if (ts.isConditionalExpression(n)) return conditional(cx, n, pc);
  if (ts.isArrayLiteralExpression(n)) return n.elements.map((e) => expr(cx, e, pc)).some(Boolean);
  if (ts.isObjectLiteralExpression(n)) {
    let t = false;
    for (const p of n.properties) {
      if (ts.isPropertyAssignment(p)) t = expr(cx, p.initializer, pc) || t;
      else if (ts.isShorthandPropertyAssignment(p)) t = expr(cx, p.name, pc) || t;
      else if (ts.isSpreadAssignment(p)) t = expr(cx, p.expression, pc) || t;
    }
    return t;
  }
  if (ts.isTemplateExpression(n)) return n.templateSpans.map((s) => expr(cx, s.expression, pc)).some(Boolean);
  if (ts.isClassExpression(n)) return false;
  // Anything else: the join of its parts.
  let t = false;
  ts.forEachChild(n, (c) => {
    if (ts.isExpression(c)) t = expr(cx, c, pc) || t;
  });
  return t;
}

/** A condition's taint as control flow sees it: an object's truthiness or identity is not its contents. */
export const control = (cx: TaintState, n: ts.Expression, t: boolean): boolean => t && isPrimitive(cx.typeOf(n));

function unary(cx: TaintState, n: ts.PrefixUnaryExpression | ts.PostfixUnaryExpression, pc: boolean): boolean {
  const t = expr(cx, n.operand, pc);
  const op = n.operator;
  if (op === K.PlusPlusToken || op === K.MinusMinusToken) assign(cx, n.operand, t, pc);
  if (op === K.ExclamationToken) return control(cx, n.operand, t);
  return t;
}

/** `c ? a : b`: a branch on `c`, whose result is as secret as `c`. */
function conditional(cx: TaintState, n: ts.ConditionalExpression, pc: boolean): boolean {
  const c = control(cx, n.condition, expr(cx, n.condition, pc));
  if (c) cx.report(n.condition, 'secret-branch');
  const a = expr(cx, n.whenTrue, pc || c);
  const b = expr(cx, n.whenFalse, pc || c);
  return a || b || c;
}

/** `o.name`: a declared field as declared, an array's shape as public, a linted field or getter by what it holds, else by its object. */
function property(cx: TaintState, n: ts.PropertyAccessExpression, pc: boolean): boolean {
  const base = expr(cx, n.expression, pc);
  const name = n.name.text;
  const s = cx.checker.getSymbolAtLocation(n.name);
  if (s !== undefined && cx.declared.has(s)) return cx.declared.get(s)!;
  if (SHAPE_PROPERTIES.has(name) && (cx.isArrayLike(cx.typeOf(n.expression)) || name === 'length')) return false;
  const type = cx.typeOf(n);
  if (isLiteral(type)) return false;
  const decl = s?.valueDeclaration;
  if (s !== undefined && cx.inLinted(decl) && (ts.isPropertyDeclaration(decl!) || ts.isParameter(decl!) || ts.isGetAccessorDeclaration(decl!))) {
    return base || cx.raw(s, n);
  }
  return base || cx.isArrayLike(type);
}

/** `a[i]`: a secret index is a finding; the element is secret when the array's contents or the index are. */
function element(cx: TaintState, n: ts.ElementAccessExpression, pc: boolean): boolean {
  const base = expr(cx, n.expression, pc);
  const index = expr(cx, n.argumentExpression, pc);
  if (index) cx.report(n, 'secret-index');
  if (isLiteral(cx.typeOf(n))) return false;
  return base || index;
}

function binary(cx: TaintState, n: ts.BinaryExpression, pc: boolean): boolean {
  const op = n.operatorToken.kind;
  if (op === K.EqualsToken) {
    const t = expr(cx, n.right, pc);
    assign(cx, n.left, t, pc);
    return t;
  }
  if (LOGICAL.has(op) || LOGICAL_ASSIGNMENTS.has(op)) return shortCircuit(cx, n, pc);
  const left = expr(cx, n.left, pc);
  const right = expr(cx, n.right, pc);
  if (DIVISIONS.has(op) && (left || right)) cx.report(n, 'secret-division');
  if (op >= K.FirstCompoundAssignment && op <= K.LastCompoundAssignment) {
    assign(cx, n.left, left || right, pc);
    return left || right;
  }
  if (op === K.InstanceOfKeyword || op === K.InKeyword) return false;
  if (EQUALITIES.has(op) && isIdentityTest(cx, n)) return false;
  return left || right;
}

/** `&&`, `||`, `??` and their assignments: a secret left side is a branch, and the right side runs under it. */
function shortCircuit(cx: TaintState, n: ts.BinaryExpression, pc: boolean): boolean {
  const left = expr(cx, n.left, pc);
  const c = control(cx, n.left, left);
  if (c) cx.report(n.left, 'secret-branch');
  if (LOGICAL.has(n.operatorToken.kind)) {
    const right = expr(cx, n.right, pc || c);
    return left || right;
  }
  const t = left || expr(cx, n.right, pc || c);
  assign(cx, n.left, t, pc);
  return t;
}

/** An equality of identity or presence: an object against an object, undefined or null, public whatever the objects hold. */
function isIdentityTest(cx: TaintState, n: ts.BinaryExpression): boolean {
  const objectish = (e: ts.Expression): boolean => !isPrimitive(cx.typeOf(e)) || (ts.isIdentifier(e) && e.text === 'undefined') || e.kind === K.NullKeyword;
  return objectish(n.left) && objectish(n.right);
}

/** An assignment of taint `t` to a target: a variable, a field, a setter, an element or a pattern. */
export function assign(cx: TaintState, target: ts.Expression, t: boolean, pc: boolean): void {
  const v = t || pc;
  const e = skipOuter(target);
  if (ts.isIdentifier(e)) cx.store(cx.symbolOf(e), v);
  else if (ts.isPropertyAccessExpression(e)) {
    expr(cx, e.expression, pc);
    const s = cx.checker.getSymbolAtLocation(e.name);
    const set = s?.declarations?.find(ts.isSetAccessorDeclaration);
    if (set !== undefined && set.parameters[0] !== undefined) cx.store(cx.checker.getSymbolAtLocation(set.parameters[0].name), v);
    else cx.store(s, v);
  } else if (ts.isElementAccessExpression(e)) {
    expr(cx, e.expression, pc);
    if (expr(cx, e.argumentExpression, pc)) cx.report(e, 'secret-index');
  } else if (ts.isArrayLiteralExpression(e)) {
    for (const el of e.elements) if (!ts.isOmittedExpression(el)) assign(cx, ts.isSpreadElement(el) ? el.expression : el, v, pc);
  } else if (ts.isObjectLiteralExpression(e)) {
    for (const p of e.properties) {
      if (ts.isPropertyAssignment(p)) assign(cx, p.initializer, v, pc);
      else if (ts.isShorthandPropertyAssignment(p)) cx.store(cx.symbolOf(p.name), v);
      else if (ts.isSpreadAssignment(p)) assign(cx, p.expression, v, pc);
    }
  }
}

/** Binds a declaration's name (an identifier or a pattern) to what `init` holds. */
export function bind(cx: TaintState, name: ts.BindingName, t: boolean, pc: boolean, init: ts.Expression | undefined): void {
  if (ts.isIdentifier(name)) {
    cx.store(cx.checker.getSymbolAtLocation(name), t || pc);
    return;
  }
  for (const el of name.elements) {
    if (ts.isOmittedExpression(el)) continue;
    let et = t;
    if (ts.isObjectBindingPattern(name) && init !== undefined && !t) {
      // A field of a public object: a linted class's field by its own taint, else by its type.
      const key = el.propertyName ?? el.name;
      const prop = ts.isIdentifier(key) ? cx.typeOf(init).getProperty(key.text) : undefined;
      if (prop !== undefined) {
        et = cx.declared.get(prop) ?? (cx.inLinted(prop.valueDeclaration) ? cx.raw(prop) : cx.isArrayLike(cx.checker.getTypeOfSymbol(prop)));
      }
    }
    if (el.initializer !== undefined) et = expr(cx, el.initializer, pc) || et;
    bind(cx, el.name, et, pc, undefined);
  }
}

/** A call or `new`: what it passes to a linted function's parameters, and its result. */
function call(cx: TaintState, n: ts.CallExpression | ts.NewExpression, pc: boolean): boolean {
  const args = n.arguments ?? [];
  const argTaints = args.map((a) => expr(cx, a, pc));
  const callee = skipOuter(n.expression);
  let receiver = false;
  if (ts.isPropertyAccessExpression(callee)) {
    receiver = expr(cx, callee.expression, pc);
    const method = callee.name.text;
    if (cx.isArrayLike(cx.typeOf(callee.expression))) arrayMethod(cx, n, method, args, argTaints, receiver);
    if (method === 'from' && args.length > 1) callbackParameters(cx, args[1], [argTaints[0] ?? false]);
  } else if (ts.isElementAccessExpression(callee)) {
    expr(cx, callee, pc);
  }
  const all = argTaints.some(Boolean) || receiver;
  const fn = calledFunction(cx, n, callee);
  if (fn === undefined) return all;
  // A linted function: its parameters take what every call passes, so its result is what its body returns.
  passArguments(cx, fn, argTaints, pc);
  const declaredReturn = cx.declaredReturns.get(fn);
  if (declaredReturn !== undefined) return declaredReturn;
  return ts.isConstructorDeclaration(fn) ? all : cx.returnTaint(fn);
}

/** The linted function a call runs: a function or method by its name, or a linted class's constructor for `new`. */
function calledFunction(cx: TaintState, n: ts.CallExpression | ts.NewExpression, callee: ts.Expression): FunctionNode | undefined {
  const isNew = ts.isNewExpression(n);
  const s = !isNew && ts.isPropertyAccessExpression(callee) ? cx.checker.getSymbolAtLocation(callee.name) : cx.symbolOf(callee);
  const d = s?.valueDeclaration;
  if (isNew && d !== undefined && ts.isClassDeclaration(d) && cx.inLinted(d)) return d.members.find(ts.isConstructorDeclaration);
  return cx.functionOf(s);
}

/** A method of an array or view: a search over secret contents exits early, a secret position indexes memory, a callback takes the elements. */
function arrayMethod(cx: TaintState, n: ts.Expression, method: string, args: readonly ts.Expression[], argTaints: boolean[], receiver: boolean): void {
  if (SEARCHES.has(method) && receiver) cx.report(n, 'early-exit');
  for (const i of POSITIONS.get(method) ?? []) if (argTaints[i]) cx.report(args[i]!, 'secret-index');
  if (ELEMENT_CALLBACKS.has(method)) callbackParameters(cx, args[0], [receiver]);
  if (method === 'reduce' || method === 'reduceRight') {
    const fn = args[0] && skipOuter(args[0]);
    const acc = (argTaints[1] ?? false) || (fn !== undefined && isFunctionNode(fn) && cx.returnTaint(fn));
    callbackParameters(cx, args[0], [acc, receiver]);
  }
}

/** Stores what a call passes in each parameter of a linted function (a rest parameter takes the rest). */
function passArguments(cx: TaintState, fn: FunctionNode, argTaints: boolean[], pc: boolean): void {
  fn.parameters.forEach((p, i) => {
    const t = p.dotDotDotToken ? argTaints.slice(i).some(Boolean) : (argTaints[i] ?? false);
    const s = ts.isIdentifier(p.name) ? cx.checker.getSymbolAtLocation(p.name) : undefined;
    if (s !== undefined) cx.store(s, t || pc);
    else bindPattern(cx, p.name, t || pc);
  });
}

function bindPattern(cx: TaintState, name: ts.BindingName, t: boolean): void {
  if (ts.isIdentifier(name)) cx.store(cx.checker.getSymbolAtLocation(name), t);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindPattern(cx, el.name, t);
}

/** Passes taints to the parameters of a function given as a callback, where the argument is one. */
function callbackParameters(cx: TaintState, arg: ts.Expression | undefined, taints: boolean[]): void {
  const fn = arg && skipOuter(arg);
  if (fn === undefined || !isFunctionNode(fn)) return;
  passArguments(cx, fn, taints, false);
}
