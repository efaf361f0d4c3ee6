/**
 * The command's compile cache on a machine with other users
 * (src/cli/compile-cache.ts): another user, who can write the
 * shared temporary folder and folders above the victim's cache, plants
 * a code cache of its own and links there before the victim runs the
 * command. The victim runs only the command's own code, writes nothing
 * through the links, and still gets the same output; where its cache
 * folder is its own it keeps the cache there.
 *
 * The victim is root, the other user an unused uid (other-user.ts). The planted entry is the one the report used:
 * Node's cache of a file as long as dist/cli/fourfold-age.js, whose
 * code writes a marker and prints "planted", with the real file's
 * checksum put in its header, under the name and subfolder Node gives
 * the real file for root. A run of the command that read Node's default
 * folder ran it (the test failed so before the fix).
 *
 * It needs root (CI runs as root; elsewhere it is skipped saying so) and
 * a Node with the compile cache (22.1 and later): this one, or the current
 * release that `npm run engines:install` puts in .engines/. Where neither
 * is here (npm test in Node 20 on a fresh clone) it is skipped saying so:
 * `npm run test:engines` runs it again in the current Node, where it
 * cannot be. Bun, which has the cache too, is run on the links where
 * .engines/ has it.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { ENGINES } from '../../scripts/engines/engines.js';
import { asOther, makeFolders, NOT_ROOT, OTHER } from './other-user.js';

const CLI = fileURLToPath(new URL('../../dist/cli/fourfold.js', import.meta.url));
const PLANTED_MODULE = fileURLToPath(new URL('../../dist/cli/fourfold-age.js', import.meta.url));
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const g = globalThis as { Deno?: unknown; Bun?: unknown };
const IS_NODE = g.Deno === undefined && g.Bun === undefined;

/** Whether `node` has node:module's enableCompileCache. */
const hasCompileCache = (node: string): boolean =>
  existsSync(node) && spawnSync(node, ['-p', "typeof require('node:module').enableCompileCache"], { encoding: 'utf8' }).stdout?.trim() === 'function';
const NODE = [IS_NODE ? process.execPath : '', ENGINES['node-current'].binary].find((n) => n !== '' && hasCompileCache(n));
const BUN = existsSync(ENGINES.bun.binary) ? ENGINES.bun.binary : undefined;

const skip =
  NOT_ROOT !== false
    ? NOT_ROOT
    : NODE === undefined
      ? `Node ${process.version} has no compile cache, and .engines/ no current Node (npm run engines:install); npm run test:engines runs this file in the current Node`
      : false;

const base = mkdtempSync(join(tmpdir(), 'fourfold-compile-cache-'));
after(() => rmSync(base, { recursive: true, force: true }));

/** The folders: `home`, the victim's own; `shared`, a temporary folder every user writes (sticky, as /tmp); `shared2`, another; `open`, writable by all, not sticky; `group`, by the other user's group; `target`, where the other user's links lead, which must stay empty. */
const at = (name: string) => join(base, name);
const MARKER = at('planted-ran');
/** The name and subfolder Node gives root's entry of the planted module, filled in by `before`. */
let key = '';
let tag = '';

/** `fourfold age --version` as the victim (root), with `env` over an environment without a cache of Node's own: the command's output, and none of the other user's code run, nothing written through its links (each cleared after, so that each run shows its own). */
function victim(env: Record<string, string>, runtime = NODE!): void {
  const { NODE_COMPILE_CACHE: _on, NODE_DISABLE_COMPILE_CACHE: _off, XDG_CACHE_HOME: _xdg, HOME: _home, TMPDIR: _tmp, ...rest } = process.env;
  const r = spawnSync(runtime, [CLI, 'age', '--version'], { encoding: 'utf8', env: { ...rest, HOME: at('home'), TMPDIR: at('shared'), ...env } });
  const ran = existsSync(MARKER);
  const written = readdirSync(at('target'));
  rmSync(MARKER, { force: true });
  for (const name of written) rmSync(join(at('target'), name), { recursive: true });
  assert.deepEqual(
    { stdout: r.stdout, stderr: r.stderr, status: r.status, "the other user's code ran": ran, 'written through its link': written },
    { stdout: `fourfold ${VERSION}\n`, stderr: '', status: 0, "the other user's code ran": false, 'written through its link': [] },
    `${runtime} with ${JSON.stringify(env)}`,
  );
}

/** The index in `entry`'s header (five little-endian words) of the word `value`. */
function headerWord(entry: Buffer, value: number): number {
  const offset = [4, 8, 12, 16].find((o) => entry.readUInt32LE(o) === value);
  assert.ok(offset !== undefined, `no word ${value.toString(16)} in the cache entry's header`);
  return offset;
}

/** The entry of a cache folder whose source checksum is `sum`, and its subfolder. */
function entryOf(cache: string, sum: number, length: number): { tag: string; name: string; bytes: Buffer } {
  for (const t of readdirSync(cache))
    for (const name of readdirSync(join(cache, t))) {
      const bytes = readFileSync(join(cache, t, name));
      const words = [4, 8, 12, 16].map((o) => bytes.readUInt32LE(o));
      if (words.includes(sum) && words.includes(length)) return { tag: t, name, bytes };
    }
  throw new Error(`no entry of checksum ${sum.toString(16)} in ${cache}`);
}

before(() => {
  if (skip !== false) return;
  makeFolders(base, { home: 0o700, shared: 0o1777, shared2: 0o1777, open: 0o777, group: 0o775, target: 0o755, staging: 0o755, make: 0o700 });
  chownSync(at('group'), 0, OTHER);

  // The planted code: as long as the real module, so that V8 takes its cache for the real file's.
  const real = readFileSync(PLANTED_MODULE);
  const code = `import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(MARKER)},"ran");export async function age(){process.stdout.write("planted\\n");return 0}`;
  assert.ok(code.length + 4 <= real.length, 'dist/cli/fourfold-age.js is shorter than the planted code');
  const variant = Buffer.from(`${code}/*${'x'.repeat(real.length - code.length - 4)}*/`);
  mkdirSync(at('make/v'));
  writeFileSync(at('make/v/package.json'), '{"type":"module"}');
  writeFileSync(at('make/v/fourfold-age.js'), variant);
  const made = spawnSync(NODE!, [at('make/v/fourfold-age.js')], { encoding: 'utf8', env: { ...process.env, NODE_COMPILE_CACHE: at('make/variant') } });
  assert.equal(made.status, 0, made.stderr);
  rmSync(MARKER);
  const planted = entryOf(at('make/variant'), crc32(variant), variant.length).bytes;
  planted.writeUInt32LE(crc32(real), headerWord(planted, crc32(variant)));

  // Where Node looks for root's entry of the real module: a run of the command with a cache of its own.
  const ran = spawnSync(NODE!, [CLI, 'age', '--version'], { encoding: 'utf8', env: { ...process.env, NODE_COMPILE_CACHE: at('make/real') } });
  assert.equal(ran.status, 0, ran.stderr);
  ({ tag, name: key } = entryOf(at('make/real'), crc32(real), real.length));
  writeFileSync(at('staging/entry'), planted, { mode: 0o644 });

  // The other user plants, where it can write: Node's default folder in the shared temporary folder, made first, with the
  // entry in root's subfolder; there, in the other, and in the folders above a cache, links to `target`; its own cache
  // folders, holding the entry, where the victim's would be; and its home.
  asOther(`umask 022
plant() { mkdir -p "$1/${tag}"; cp "${at('staging/entry')}" "$1/${tag}/${key}"; chmod -R a+rwX "$1"; }
plant "${at('shared/node-compile-cache')}"
ln -s "${at('target')}" "${at('shared2/node-compile-cache')}"
ln -s "${at('target')}" "${at('shared/fourfold')}"
plant "${at('open/planted/fourfold')}"
mkdir "${at('open/linked')}"; ln -s "${at('target')}" "${at('open/linked/fourfold')}"
ln -s "${at('target')}" "${at('group/cache')}"
mkdir "${at('open/home')}"`);
});

it("the command runs none of another user's code planted in Node's default cache folder, and keeps its own cache in its own folder", { skip }, () => {
  victim({});
  victim({});
  // Root's cache: in ~/.cache/fourfold, 0700, root's; nothing written beside the planted entry.
  const own = lstatSync(at('home/.cache/fourfold'));
  assert.deepEqual({ uid: own.uid, mode: own.mode & 0o7777 }, { uid: 0, mode: 0o700 });
  assert.ok(readdirSync(at('home/.cache/fourfold'), { recursive: true }).length > 1, 'no compiled code kept');
  assert.deepEqual(readdirSync(at(`shared/node-compile-cache/${tag}`)), [key]);
});

it('a link in place of the cache folder, in the shared temporary folder or above the cache, has nothing written through it', { skip }, () => {
  victim({ TMPDIR: at('shared2') });
  victim({ XDG_CACHE_HOME: at('shared') });
  victim({ XDG_CACHE_HOME: at('open/linked') });
  victim({ XDG_CACHE_HOME: at('group/cache') });
  if (BUN !== undefined) victim({ TMPDIR: at('shared2') }, BUN);
});

it("a cache folder another user made or could swap (above it a folder others can write), another user's home: no cache, nothing made", { skip }, () => {
  victim({ XDG_CACHE_HOME: at('open/planted') });
  // Root's own folders, in a folder that others can write (and so rename them away and put theirs there): not used.
  mkdirSync(at('open/mine/fourfold'), { recursive: true, mode: 0o700 });
  victim({ XDG_CACHE_HOME: at('open/mine') });
  assert.deepEqual(readdirSync(at('open/mine/fourfold')), []);
  // sudo with the caller's $HOME: nothing made in it.
  victim({ HOME: at('open/home') });
  assert.deepEqual(readdirSync(at('open/home')), []);
});
