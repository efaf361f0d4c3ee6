/**
 * npm run check:reproducible: two clean builds pack the same bytes. Clones
 * the repository's HEAD (what is committed, not the work tree) twice, into
 * temporary folders at paths of different lengths, and in each runs
 * `npm ci` and `npm pack` (whose prepack is npm run build), the two at
 * once and in different environments: umask 022 against 077, TZ UTC
 * against Pacific/Kiritimati (UTC+14, another date for half the day),
 * LANG and LC_ALL C.UTF-8 against POSIX. Then compares the tarballs'
 * SHA-256.
 *
 * Equal: prints the hash and the file count, removes both clones, exits 0.
 * Different: reads both tarballs and names each file that is in one only,
 * or whose content, mode, time or owner differs (or says that the entries
 * match and their order or compression does not), keeps both clones for a
 * look (their paths are printed) and exits 1. A step that fails exits 2,
 * with the end of its log.
 *
 * `npm ci --prefer-offline` installs from npm's cache when it has the
 * locked versions (CI's npm ci has just filled it) without asking the
 * registry whether they are current, which saves CPU time, not bytes.
 *
 *   npm run check:reproducible            # the check
 *   npm run check:reproducible -- --keep  # keep both clones, also when they match
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const keep = process.argv.includes('--keep');

/** One build: where, and under which environment. */
interface Build {
  name: string;
  dir: string;
  umask: string;
  env: Record<string, string>;
}

const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
if (execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }) !== '') {
  console.log(`note: the work tree has uncommitted changes; this checks HEAD (${head.slice(0, 12)}) without them`);
}

const tempA = mkdtempSync(join(tmpdir(), 'fourfold-repro-'));
const tempB = mkdtempSync(join(tmpdir(), 'fourfold-reproducible-build-'));
const builds: Build[] = [
  { name: 'a', dir: join(tempA, 'fourfold'), umask: '022', env: { TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } },
  { name: 'b', dir: join(tempB, 'a', 'deeper', 'path', 'fourfold'), umask: '077', env: { TZ: 'Pacific/Kiritimati', LANG: 'POSIX', LC_ALL: 'POSIX' } },
];

/** Runs `command` in `cwd` under the build's umask and environment, its output appended to the build's log. */
function run(one: Build, cwd: string, command: string, args: string[]): Promise<void> {
  const log = openSync(join(one.dir, '..', 'build.log'), 'a');
  const child = spawn('sh', ['-c', `umask ${one.umask} && exec "$0" "$@"`, command, ...args], {
    cwd,
    env: { ...process.env, ...one.env },
    stdio: ['ignore', log, log],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(log);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')}: exit ${code}`));
    });
  });
}

/** Clones HEAD, installs, packs: the tarball's path. */
async function clonePack(one: Build): Promise<string> {
  mkdirSync(join(one.dir, '..'), { recursive: true });
  await run(one, join(one.dir, '..'), 'git', ['clone', '--quiet', '--no-hardlinks', ROOT, one.dir]);
  await run(one, one.dir, 'git', ['checkout', '--quiet', '--detach', head]);
  await run(one, one.dir, 'npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline']);
  await run(one, one.dir, 'npm', ['pack']);
  const tarballs = readdirSync(one.dir).filter((f) => f.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`npm pack left ${tarballs.length} tarballs`);
  return join(one.dir, tarballs[0]!);
}

/** A tarball's entry: what npm pack writes of a file. */
interface Entry {
  path: string;
  mode: string;
  mtime: string;
  owner: string;
  sha256: string;
}

/** The entries of a gzipped tar, in order: ustar headers, with pax records' paths. */
function entries(tgz: string): Entry[] {
  const tar = gunzipSync(readFileSync(tgz));
  const field = (h: Buffer, from: number, length: number) => h.toString('latin1', from, from + length).replace(/\0.*$/s, '');
  const out: Entry[] = [];
  let pax: Record<string, string> = {};
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = tar.subarray(at, at + 512);
    if (h.every((x) => x === 0)) break;
    const size = Number.parseInt(field(h, 124, 12).trim() || '0', 8);
    const body = tar.subarray(at + 512, at + 512 + size);
    const type = field(h, 156, 1);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      for (const m of body.toString('utf8').matchAll(/^\d+ ([^=]+)=(.*)$/gm)) pax[m[1]!] = m[2]!;
      continue;
    }
    const prefix = field(h, 345, 155);
    const path = pax.path ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    out.push({
      path,
      mode: field(h, 100, 8).trim(),
      mtime: pax.mtime ?? field(h, 136, 12).trim(),
      owner: `${field(h, 108, 8).trim()}:${field(h, 116, 8).trim()} ${field(h, 265, 32)}:${field(h, 297, 32)}`,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    pax = {};
  }
  return out;
}

/** What differs between two tarballs' entries, a line each. */
function differences(x: Entry[], y: Entry[]): string[] {
  const byPath = (list: Entry[]) => new Map(list.map((e) => [e.path, e]));
  const [mx, my] = [byPath(x), byPath(y)];
  const lines: string[] = [];
  for (const [path, e] of mx) {
    const f = my.get(path);
    if (f === undefined) {
      lines.push(`only in a: ${path}`);
      continue;
    }
    for (const key of ['sha256', 'mode', 'mtime', 'owner'] as const) {
      if (e[key] !== f[key]) lines.push(`${path}: ${key === 'sha256' ? 'content' : key} ${e[key]} against ${f[key]}`);
    }
  }
  for (const path of my.keys()) if (!mx.has(path)) lines.push(`only in b: ${path}`);
  if (lines.length === 0) {
    const order = x.map((e) => e.path).join('\n') === y.map((e) => e.path).join('\n');
    lines.push(order ? 'every entry matches: the gzip stream differs' : 'every entry matches, in another order');
  }
  return lines;
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const describe = (one: Build) => `${one.dir} (umask ${one.umask}, TZ ${one.env.TZ}, LANG ${one.env.LANG})`;

const start = performance.now();
let tarballs: string[];
try {
  tarballs = await Promise.all(builds.map(clonePack));
} catch (error) {
  console.error(`a build failed: ${(error as Error).message}`);
  for (const one of builds) {
    console.error(`\n--- ${describe(one)}, the end of its log:`);
    console.error(
      readFileSync(join(one.dir, '..', 'build.log'), 'utf8')
        .split('\n')
        .slice(-30)
        .join('\n'),
    );
  }
  process.exit(2);
}
const seconds = ((performance.now() - start) / 1000).toFixed(0);
const [hashA, hashB] = tarballs.map(sha256) as [string, string];
const [entriesA, entriesB] = tarballs.map(entries) as [Entry[], Entry[]];

if (hashA === hashB) {
  console.log(`reproducible: two builds of ${head.slice(0, 12)} packed the same tarball in ${seconds} s`);
  console.log(`  sha256 ${hashA}, ${entriesA.length} files`);
  for (const one of builds) console.log(`  ${describe(one)}`);
  if (keep) console.log('kept both clones');
  // rm(1): Node's rmSync took 12 s over a clone's 276 MB, rm -rf 1.3 s.
  else execFileSync('rm', ['-rf', tempA, tempB]);
} else {
  console.log(`NOT reproducible: two builds of ${head.slice(0, 12)} packed different tarballs (${seconds} s)`);
  for (const [i, one] of builds.entries())
    console.log(`  ${one.name}: sha256 ${[hashA, hashB][i]}, ${[entriesA, entriesB][i]!.length} files, ${describe(one)}`);
  const lines = differences(entriesA, entriesB);
  for (const line of lines.slice(0, 40)) console.log(`  ${line}`);
  if (lines.length > 40) console.log(`  ... and ${lines.length - 40} more`);
  console.log('both clones are kept, with build.log beside each');
  process.exitCode = 1;
}
