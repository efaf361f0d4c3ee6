/**
 * The code users copy from the docs the package ships (README.md and
 * docs/*.md), as TypeScript checks it under --strict: each ```js block a
 * JavaScript module (checkJs, as an editor checks a user's .js file),
 * each ```ts block a TypeScript one, against the package's declarations,
 * with the DOM's and Node's types (@types/node): a snippet that passes a
 * possible Promise where a string belongs, or calls what the package
 * does not declare, fails. Used by test/package/docs.test.ts (this
 * build) and the package check (the packed tarball in a fresh project).
 *
 * A block is a whole program or module. One that deliberately continues
 * another (a File the page already has) says what it is given in a
 * comment on the line above its fence, read only here:
 *
 *   <!-- snippet given: file: File; identity: string -->
 *
 * Each name becomes a declaration of that type before the block.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks } from './readme.js';

export interface Snippet {
  /** The Markdown file, and the line of the block's opening fence. */
  readonly doc: string;
  readonly line: number;
  readonly lang: 'js' | 'ts';
  readonly code: string;
  /** What the block is given (the comment above its fence): [name, type]. */
  readonly given: readonly [string, string][];
  /** Its file in the checked project. */
  readonly file: string;
}

const GIVEN = /<!-- snippet given: ([^>]*?) -->\n$/;

/** The ```js and ```ts blocks of `markdown` (the file `doc`). */
export function snippetsOf(doc: string, markdown: string): Snippet[] {
  return codeBlocks(markdown).flatMap((b) => {
    if (b.lang !== 'js' && b.lang !== 'ts') return [];
    const before = markdown.slice(0, b.at);
    const line = before.split('\n').length;
    const given = (GIVEN.exec(before)?.[1] ?? '')
      .split(';')
      .filter((g) => g.trim() !== '')
      .map((g): [string, string] => {
        const colon = g.indexOf(':');
        return [g.slice(0, colon).trim(), g.slice(colon + 1).trim()];
      });
    const file = `${doc.replace(/[^\w]+/g, '-')}-${line}.${b.lang === 'ts' ? 'mts' : 'mjs'}`;
    return [{ doc, line, lang: b.lang, code: b.code, given, file }];
  });
}

/**
 * The declarations a block is given, on one line before its code (so a
 * diagnostic's line is the block's plus one): `declare const` in
 * TypeScript, a JSDoc-typed const in JavaScript.
 */
function preamble(s: Snippet): string {
  const lines = s.given.map(([name, type]) =>
    s.lang === 'ts' ? `declare const ${name}: ${type};` : `const ${name} = /** @type {${type}} */ (/** @type {unknown} */ (undefined));`,
  );
  return `${lines.join(' ')}\n`;
}

/** The compiler options of the check: strict, ES modules resolved as Node resolves them, the DOM's and Node's types. */
export const SNIPPET_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  types: ['node'],
  strict: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  skipLibCheck: true,
};

/**
 * The options of the JavaScript blocks: as strict, but that a parameter
 * may go untyped, as JavaScript writes it (what it is passed on to is
 * still checked against the declarations).
 */
export const JS_SNIPPET_OPTIONS = { ...SNIPPET_OPTIONS, noImplicitAny: false };

/**
 * Writes `snippets` into `dir`, which resolves 'fourfold' and @types/node
 * from its node_modules, with a configuration for each language that has
 * blocks; returns the configurations' names, each for a `tsc -p` run in
 * `dir`.
 */
export function writeSnippetProject(dir: string, snippets: readonly Snippet[]): string[] {
  mkdirSync(dir, { recursive: true });
  for (const s of snippets) writeFileSync(join(dir, s.file), preamble(s) + s.code);
  return (['js', 'ts'] as const).flatMap((lang) => {
    const files = snippets.filter((s) => s.lang === lang).map((s) => s.file);
    if (files.length === 0) return [];
    const name = `tsconfig.${lang}.json`;
    const config = { compilerOptions: lang === 'js' ? JS_SNIPPET_OPTIONS : SNIPPET_OPTIONS, files };
    writeFileSync(join(dir, name), `${JSON.stringify(config, null, 2)}\n`);
    return [name];
  });
}

/** tsc's output (`file(line,col): error ...`) with each position as the doc's line: what to fix, where. */
export function inDocs(output: string, snippets: readonly Snippet[]): string {
  const byFile = new Map(snippets.map((s) => [s.file, s]));
  return output.replace(/^([\w.-]+)\((\d+),(\d+)\)/gm, (whole, file: string, line: string, column: string) => {
    const s = byFile.get(file);
    // The preamble's line, and the fence's, come before the block's first.
    return s === undefined ? whole : `${s.doc}:${s.line + Number(line) - 1}:${column}`;
  });
}
