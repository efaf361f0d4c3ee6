/**
 * check.ts's Node, in the fresh project with the tarball installed: every
 * subpath export imports, and require()s (engines claims Node >= 20.19,
 * where require() of ES modules works), to the same exports, and
 * fourfold/worker (the pool's worker, for bundlers to build) resolves;
 * `fourfold --version` and `--help`; fourfold/parallel's blake3 from
 * node_modules gives BLAKE3's bytes (against @noble/hashes).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { hex, output, pkg, record, sh, specifier, subpaths } from './common.js';
import { input } from './fixture/input.js';

/** The exports but package.json and those with types: entry points for a bundler to build (fourfold/worker, the pool's worker), not for import. */
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json' && !subpaths.includes(k));

/** A subpath that `pattern` ("./kernels/*.wasm") maps to a file of the package installed in `installed`: its first file's ("./kernels/argon2.wasm"). */
function concrete(pattern: string, installed: string): string {
  const target = pkg.exports[pattern] as string;
  const star = target.indexOf('*');
  const dir = target.slice(0, target.lastIndexOf('/', star) + 1);
  const [before, after] = [target.slice(dir.length, star), target.slice(star + 1)];
  const file = readdirSync(join(installed, dir)).find((f) => f.startsWith(before) && f.endsWith(after));
  return file === undefined ? pattern : pattern.replace('*', file.slice(before.length, file.length - after.length));
}

export function checkNode(dir: string): void {
  const node = process.execPath;
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  for (const subpath of subpaths) {
    const id = specifier(subpath);
    const esm = sh(
      node,
      [
        '--input-type=module',
        '-e',
        `const m = await import('${id}'); if (Object.keys(m).length === 0) throw new Error('no exports'); console.log(Object.keys(m).sort().join(','))`,
      ],
      dir,
    );
    // __esModule is the CommonJS build's interop mark where the module has a default export (fourfold/sodium): not an export.
    const cjs = sh(node, ['-e', `const m = require('${id}'); console.log(Object.keys(m).filter((k) => k !== '__esModule').sort().join(','))`], dir);
    const same = esm.status === 0 && cjs.status === 0 && esm.stdout === cjs.stdout;
    record(
      `Node ${process.version}: import('${id}') and require('${id}') give the same exports`,
      same,
      same ? '' : `import: ${output(esm)}\nrequire: ${output(cjs)}`,
    );
  }
  for (const pattern of entries) {
    const entry = pattern.includes('*') ? concrete(pattern, join(dir, 'node_modules/fourfold')) : pattern;
    const id = specifier(entry);
    const where = sh(node, ['-e', `console.log(require.resolve('${id}'))`], dir);
    const file = where.stdout.trim();
    const ok = where.status === 0 && file.startsWith(join(dir, 'node_modules/fourfold/')) && existsSync(file);
    record(`'${id}' resolves to a file of the package (an entry for bundlers: not imported here)`, ok, output(where));
  }
  const json = sh(node, ['-e', `console.log(require('fourfold/package.json').version)`], dir);
  record(`require('fourfold/package.json')`, json.stdout.trim() === pkg.version, output(json));
  if (major < 20 || (major === 20 && minor < 19))
    record(`Node ${process.version} is older than engines' 20.19: require() of the package is not checked here`, false);

  const bin = join(dir, 'node_modules/.bin/fourfold');
  const version = sh(bin, ['--version'], dir);
  const help = sh(bin, ['--help'], dir);
  record(
    'fourfold --version and --help (the installed bin)',
    version.status === 0 && version.stdout === `fourfold ${pkg.version}\n` && help.status === 0 && /^Usage: fourfold /.test(help.stdout),
    `${output(version)}\n${output(help)}`,
  );

  const smoke = sh(node, ['node-smoke.js'], dir);
  const expected = hex(nobleBlake3(input(6 << 20)));
  let got: { tier?: string; sequential?: string; parallel?: string } = {};
  try {
    got = JSON.parse(smoke.stdout) as typeof got;
  } catch {
    // reported below with the output
  }
  record(
    `Node: fourfold/parallel's blake3 (workers from node_modules) and blake3 of 6 MiB give @noble/hashes' bytes (tier ${got.tier ?? '?'})`,
    smoke.status === 0 && got.parallel === expected && got.sequential === expected,
    smoke.status === 0 ? `expected ${expected}\ngot ${JSON.stringify(got)}` : output(smoke),
  );
}
