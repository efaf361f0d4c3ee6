/**
 * The js lint's vocabulary of what it reports: its rules and a finding.
 * A file of its own so that the parts that report (js-taint-state.ts,
 * js-comments.ts) and the lint that gathers them (js-lint.ts) import it
 * without importing one another.
 */

/** What the lint reports: the rules of the analysis, then those of the comments themselves. */
export type JsRule = 'secret-index' | 'secret-branch' | 'early-exit' | 'secret-division' | 'stale-exception' | 'declaration';

/** One thing the lint reports: where (1-based line and column), which rule, and the code or comment. */
export interface Finding {
  file: string;
  line: number;
  column: number;
  rule: JsRule;
  text: string;
}
