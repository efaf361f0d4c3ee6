/**
 * The README's code blocks, as its tests run them (test/package/readme.test.ts
 * in Node, and the package check's built pages in Chromium): a block whose
 * first line is a comment naming a file (`// file-crypto.js: ...`) is a
 * module of that name, which later blocks may import; every other
 * JavaScript block is a program of its own.
 */

export interface Block {
  /** The fence's language: js, html, sh... */
  lang: string;
  code: string;
  /** The file a module block names in its first line. */
  name?: string;
  /** Where its opening fence starts in the Markdown. */
  at: number;
}

/** Every fenced block of `markdown`, in order. */
export function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const m of markdown.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm)) {
    const [, lang, code] = m;
    const name = /^\/\/ ([\w.-]+\.m?js)(?=:|\n)/.exec(code!)?.[1];
    blocks.push({ lang: lang!, code: code!, at: m.index, ...(name ? { name } : {}) });
  }
  return blocks;
}

/** `code` with its imports of fourfold (`'fourfold'`, `'fourfold/chacha'`...) pointing at `resolve(specifier)`. */
export function importsResolved(code: string, resolve: (specifier: string) => string): string {
  return code.replace(/(from\s+|import\s+)'(fourfold(?:\/[\w-]+)?)'/g, (_, keyword: string, specifier: string) => `${keyword}'${resolve(specifier)}'`);
}
