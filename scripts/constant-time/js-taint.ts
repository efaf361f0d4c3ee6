/**
 * The taint analysis of the js lint: what each symbol and each function's
 * result holds, iterated to a fixpoint over every unit of the linted
 * files, then one pass that reports. js-expressions.ts and
 * js-statements.ts say how each node moves taint; js-taint-state.ts keeps
 * the state they share.
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
import type ts from 'typescript';
import type { Declaration } from './js-comments.js';
import type { Finding } from './js-findings.js';
import { walkUnit } from './js-statements.js';
import type { FunctionNode, Unit } from './js-syntax.js';
import { TaintState } from './js-taint-state.js';

/** What a run of the analysis found, and what symbols and results hold without the declarations (to check that each changes something). */
export interface TaintResult {
  findings: Finding[];
  raw(s: ts.Symbol): boolean;
  rawReturn(fn: FunctionNode): boolean;
}

/** Runs the analysis over the units with these declarations: rounds until nothing new is stored (at most 50), then the pass that reports. */
export function taint(
  checker: ts.TypeChecker,
  linted: ReadonlySet<ts.SourceFile>,
  units: readonly Unit[],
  declarations: readonly Declaration[],
  nameOf: (sf: ts.SourceFile) => string,
): TaintResult {
  const state = new TaintState(checker, linted, declarations, nameOf);
  for (let round = 0; round < 50; round++) {
    state.changed = false;
    for (const u of units) walkUnit(state, u);
    if (!state.changed) break;
  }
  state.reporting = true;
  for (const u of units) walkUnit(state, u);
  return {
    findings: [...state.found.values()],
    raw: (s) => state.raw(s),
    rawReturn: (fn) => state.rawReturn(fn),
  };
}
