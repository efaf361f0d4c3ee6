/**
 * The declarations again, under dist/cjs/ with a package.json that says
 * "type": "commonjs": TypeScript reads them there as CommonJS
 * declarations. A CommonJS project compiling with `module: node16` (or
 * node18) is told it cannot import an ES module (TS1479), although Node
 * 20.19 and later require() the package; its imports resolve through the
 * `require` condition of package.json's exports to these copies, while the
 * code stays the one ES module build. Run by `npm run build`, after tsc.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const CJS = join(DIST, 'cjs');

rmSync(CJS, { recursive: true, force: true });
let copied = 0;
for (const entry of readdirSync(DIST, { recursive: true, withFileTypes: true })) {
  const from = join(entry.parentPath, entry.name);
  if (!entry.isFile() || !entry.name.endsWith('.d.ts') || from.startsWith(CJS)) continue;
  const to = join(CJS, relative(DIST, from));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  copied++;
}
writeFileSync(join(CJS, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log(`CommonJS declarations: ${copied} files in dist/cjs/`);
