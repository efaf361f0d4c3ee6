/**
 * npm run build, last step: every file the tarball takes gets mode 0644
 * (0755 if its owner may run it), whatever the umask. npm pack writes each
 * file's mode from the disk as it is (it normalizes times and owners, not
 * modes), and tsc, esbuild and git write theirs through the umask: a build
 * under umask 077 packed 571 files as 0600, and a tarball whose every byte
 * of content matched another's hashed differently. The package's files are
 * dist/ and, beside package.json, the docs of "files" that are outside it;
 * npm run check:reproducible builds under two umasks and names any file
 * whose mode still differs.
 */
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** What the tarball takes: dist/ (npm leaves some of it out, which is harmless here), the docs at docs/'s top level, and the root's files. */
const packed = [
  ...(readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }) as string[]).map((p) => join('dist', p)),
  ...readdirSync(join(ROOT, 'docs')).map((p) => join('docs', p)),
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
];

let changed = 0;
for (const path of packed) {
  const stat = statSync(join(ROOT, path));
  if (!stat.isFile()) continue;
  const mode = stat.mode & 0o100 ? 0o755 : 0o644;
  if ((stat.mode & 0o7777) === mode) continue;
  chmodSync(join(ROOT, path), mode);
  changed++;
}
console.log(`file modes: ${changed} of ${packed.length} set to 0644 or 0755`);
