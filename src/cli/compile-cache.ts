/**
 * The command's compile cache (node:module's enableCompileCache, Node 22.1
 * and later, and Bun): V8's compiled code of the modules a run loads,
 * which a later run reads rather than compiles again. Code read from a
 * cache is code run: whoever can write the cache chooses what the command
 * runs, as whoever runs it (root too). So the cache is kept only in a
 * folder that no other user can write, swap or redirect, and otherwise
 * not at all; a run without one gives the same output, only slower.
 *
 * Not Node's default folder: enableCompileCache() with no folder keeps it
 * in `node-compile-cache` under os.tmpdir(), which every user of the
 * machine shares. Another user who makes that folder and the victim's
 * subfolder first plants code there (a cache made from a file of the
 * same length, given the real file's checksum, passes Node's and V8's
 * checks), and one who makes it a link has the victim's runs write where
 * the link leads.
 *
 * The folder is `fourfold` in the user's cache folder ($XDG_CACHE_HOME
 * where it is an absolute path, else ~/.cache, $HOME's), made 0700, and
 * used only where the classic secure-path check holds: it is a real
 * folder (not a link) of the user's own, which neither group nor others
 * can write, and every folder above it, on the path as written and on
 * the path its links lead to, is the user's or root's, and writable by
 * neither group nor others unless sticky (/tmp: there no user can
 * remove or rename another's entries). A folder is made only inside
 * one that passes the check, so that a run under sudo with the caller's
 * $HOME makes nothing in the caller's home. No user id (Windows) means
 * no cache: there is no owner to check.
 *
 * NODE_COMPILE_CACHE, where the user sets it, is the user's choice: Node
 * enabled the cache in that folder before the command ran, and the
 * command leaves it so. NODE_DISABLE_COMPILE_CACHE=1 turns the cache
 * off. Deno has no compile cache, and reads no environment or file here
 * (each a permission there).
 */
import { type Stats, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';

interface CompileCacheApi {
  enableCompileCache?: (directory: string) => unknown;
  getCompileCacheDir?: () => string | undefined;
}

/** Turns on the compile cache in the user's own folder where it can be had safely; else leaves it off. Never throws. */
export function enableOwnCompileCache(): void {
  try {
    const api = nodeModule as CompileCacheApi;
    if (typeof api.enableCompileCache !== 'function' || (globalThis as { Deno?: unknown }).Deno !== undefined) return;
    const env = process.env;
    if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE || api.getCompileCacheDir?.() !== undefined) return;
    const uid = process.geteuid?.();
    if (uid === undefined) return;
    const folder = ownFolder(uid, env.XDG_CACHE_HOME, env.HOME);
    if (folder !== undefined) api.enableCompileCache(folder);
  } catch {
    // No cache: the command runs the same without one.
  }
}

/** `<cache folder>/fourfold`, made where missing, if it passes the check; else undefined. */
function ownFolder(uid: number, xdgCacheHome: string | undefined, home: string | undefined): string | undefined {
  // The XDG Base Directory rule: a relative $XDG_CACHE_HOME is ignored.
  const cache = xdgCacheHome && isAbsolute(xdgCacheHome) ? join(xdgCacheHome) : home && isAbsolute(home) ? join(home, '.cache') : undefined;
  if (cache === undefined) return undefined;
  const folder = join(cache, 'fourfold');
  for (const path of [cache, folder]) if (!madeSafely(path, uid)) return undefined;
  const own = lstatSync(folder);
  return own.isDirectory() && own.uid === uid && (own.mode & 0o022) === 0 && trusted(dirname(folder), uid) ? folder : undefined;
}

/** Whether `path` is there, or was made 0700 inside a trusted folder. */
function madeSafely(path: string, uid: number): boolean {
  if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) return true;
  if (!trusted(dirname(path), uid)) return false;
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  return true;
}

/** Whether no user but `uid` and root can change `path` or what it leads to: it and every folder above it, as written and where its links lead, pass safe(). */
function trusted(path: string, uid: number): boolean {
  return chainSafe(path, uid) && chainSafe(realpathSync(path), uid);
}

function chainSafe(path: string, uid: number): boolean {
  for (let p = path; ; p = dirname(p)) {
    if (!safe(lstatSync(p), uid)) return false;
    if (dirname(p) === p) return true;
  }
}

/** An entry of the user's or root's that no one else can write to: a link (which no one can change, only replace in its folder), or a folder writable by neither group nor others unless sticky. */
function safe(entry: Stats, uid: number): boolean {
  if (entry.uid !== uid && entry.uid !== 0) return false;
  return entry.isSymbolicLink() || (entry.isDirectory() && ((entry.mode & 0o022) === 0 || (entry.mode & 0o1000) !== 0));
}
