/**
 * The syntax and types the js lint names: the nodes that are functions,
 * the bodies it walks, the wrappers that leave an expression's value
 * unchanged, the types of data and of constants, and where a position is
 * in a file.
 */
import ts from 'typescript';

export type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

/** A body the analysis walks: a function, or a file's top level (its statements and class field initializers). */
export type Unit = FunctionNode | ts.SourceFile;

export const isFunctionNode = (n: ts.Node): n is FunctionNode =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** The units of some files: each file's top level, then every function with a body in it, in the order they are written. */
export function unitsOf(sources: readonly ts.SourceFile[]): Unit[] {
  const units: Unit[] = [];
  for (const sf of sources) {
    units.push(sf);
    const visit = (n: ts.Node): void => {
      if (isFunctionNode(n) && n.body !== undefined) units.push(n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return units;
}

/** Declarations of code, not of data: functions, classes, enums, namespaces, methods. */
export const NAMED_CODE = new Set([
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
export const isWrapper = (e: ts.Node): e is Wrapper => WRAPPERS.has(e.kind);

/** An expression without its wrappers. */
export function skipOuter(e: ts.Expression): ts.Expression {
  while (isWrapper(e)) e = e.expression;
  return e;
}

/** The members of a union, or the type itself. */
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
export const isPrimitive = (t: ts.Type): boolean => parts(t).some((p) => (p.flags & PRIMITIVE) !== 0);

/** A type of constants only (a literal, a union of literals, but not boolean, which is true | false of any value). */
export const isLiteral = (t: ts.Type): boolean =>
  (t.flags & ts.TypeFlags.Boolean) === 0 && parts(t).every((p) => (p.flags & (LITERAL | NULLISH)) !== 0) && parts(t).some((p) => (p.flags & LITERAL) !== 0);

/** A type whose values hold elements (arrays, typed arrays, tuples, DataViews): their contents are taken as secret. */
export function isArrayLike(checker: ts.TypeChecker, t: ts.Type): boolean {
  return parts(t).some(
    (p) =>
      (p.flags & NULLISH) === 0 &&
      (checker.getIndexInfoOfType(p, ts.IndexKind.Number) !== undefined ||
        checker.isTupleType(p) ||
        checker.isArrayLikeType(p) ||
        p.getSymbol()?.name === 'DataView'),
  );
}

/** The 1-based line and column of a position, as findings give them. */
export function lineAndColumn(sf: ts.SourceFile, pos: number): { line: number; column: number } {
  const lc = sf.getLineAndCharacterOfPosition(pos);
  return { line: lc.line + 1, column: lc.character + 1 };
}
