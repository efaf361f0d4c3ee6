/**
 * Relative links in the package's Markdown files (the README and docs/,
 * as npm ships them): each must name a file the package holds, and a
 * `#fragment` a heading of that file, as GitHub and npm make anchors from
 * headings. Links with a scheme (https:, mailto:) are not followed. Used
 * by the package check on the packed tarball and by
 * test/package/docs.test.ts on `npm pack --dry-run`'s file list.
 */
import { posix } from 'node:path';

/** `[text](target)` and `![alt](target)`, and reference definitions `[name]: target`, outside code. */
const INLINE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm;

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated one gets -1, -2...). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = heading!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link target in a Markdown text, as written. */
export function links(markdown: string): string[] {
  const text = prose(markdown);
  return [...text.matchAll(INLINE), ...text.matchAll(REFERENCE)].map((m) => m[1]!);
}

/**
 * The broken relative links of the Markdown files among `files` (the
 * package's paths, `/`-separated), read with `read`: one line each, naming
 * the file, the link and what is wrong.
 */
export function brokenLinks(files: readonly string[], read: (path: string) => string): string[] {
  const present = new Set(files);
  const dirs = new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const broken: string[] = [];
  const headings = new Map<string, Set<string>>();
  const anchorsOf = (path: string): Set<string> => {
    let set = headings.get(path);
    if (set === undefined) headings.set(path, (set = anchors(read(path))));
    return set;
  };
  for (const file of files.filter((f) => f.endsWith('.md'))) {
    for (const link of links(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [rawPath = '', fragment] = link.split('#', 2) as [string, string | undefined];
      const path = rawPath === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(rawPath))).replace(/\/$/, '');
      if (path.startsWith('..')) {
        broken.push(`${file}: ${link}: outside the package`);
      } else if (!present.has(path) && !dirs.has(path)) {
        broken.push(`${file}: ${link}: ${path} is not in the package`);
      } else if (fragment !== undefined && fragment !== '') {
        if (!path.endsWith('.md')) broken.push(`${file}: ${link}: a fragment of a file that is not Markdown`);
        else if (!anchorsOf(path).has(decodeURIComponent(fragment))) broken.push(`${file}: ${link}: ${path} has no heading #${fragment}`);
      }
    }
  }
  return broken;
}
