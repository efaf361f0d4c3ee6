/**
 * What an output path names, as open(2) for writing would reach it: its
 * links followed to the file they name (a link's target is what gets
 * written, as age's os.Create writes it; a dangling link's target is
 * created), and what is there: a regular file, nothing yet, or something
 * no regular file may replace (a folder, a device, a FIFO, a socket).
 * The file calls (file-ends.ts) and the age command's -o (cli/age-io.ts)
 * both ask it, so neither puts a file of plaintext where a device, a FIFO
 * or a link was.
 *
 * The path is never resolved by editing its text: each folder on the way
 * is the one the kernel reaches (realpath(3)), so that `alias/../out` and
 * a link's relative target in a linked folder name what open(2) names
 * (path_resolution(7)). A link in a sticky world-writable folder (/tmp)
 * is followed only where Linux's fs.protected_symlinks lets open(2)
 * follow it, whatever that setting is here: its owner is the caller or
 * the folder's.
 */
import type { NodeFs } from './node-fs.js';
import { builtinModule } from '../runtime/host.js';

type Stats = import('node:fs').Stats;

/** What is at the end of an output path's links. */
type Found =
  /** A regular file, replaced by the output (output-file.ts says how). */
  | { readonly kind: 'file'; readonly stats: Stats; readonly folder: Stats }
  /** Nothing yet: the output is created there. */
  | { readonly kind: 'missing' }
  /** What a file may not replace: `what` says which ('a directory', 'a FIFO', ...). */
  | { readonly kind: 'other'; readonly what: string };

/** Where an output's bytes go, its links followed; `path` is the file's name in its real folder, `linked` whether a link led there. */
export type OutputTarget = { readonly path: string; readonly linked: boolean } & Found;

/** Linux's limit on the links one path may go through (MAXSYMLINKS); past it, open(2) fails with ELOOP. */
const MAX_LINKS = 40;

/** The kind of a file that is neither regular nor a link, as messages name it. */
export function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

async function lstatIfAny(fs: NodeFs, path: string): Promise<Stats | undefined> {
  try {
    return await fs.promises.lstat(path);
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** An error as open(2)'s, naming the output the caller gave. */
export const openError = (code: string, text: string, output: string): Error =>
  Object.assign(new Error(`${code}: ${text}, open '${output}'`), { code, path: output, syscall: 'open' });

/** A folder others may write but not rename or remove from: fs.protected_symlinks' and fs.protected_regular's kind (S_ISVTX and S_IWOTH). */
export const isStickyShared = (folder: Stats): boolean => (folder.mode & 0o1002) === 0o1002;

/**
 * fs.protected_regular (proc_sys_fs(5)): a file in a sticky world-writable
 * folder that is neither `uid`'s nor the folder owner's is not opened for
 * writing: it may be another user's bait for the plaintext. Applied
 * whatever the setting here is.
 */
export const isBait = (target: OutputTarget & { kind: 'file' }, uid: number): boolean =>
  isStickyShared(target.folder) && target.stats.uid !== target.folder.uid && target.stats.uid !== uid;

/**
 * `path`'s last name in the folder the kernel reaches for it: its folder
 * resolved by realpath(3), its name kept. A folder that cannot be
 * resolved (missing, not searchable) is left as given, for the open that
 * follows to fail as open(2) would.
 */
async function inRealFolder(fs: NodeFs, path: string): Promise<{ path: string; folder: string }> {
  const { basename, dirname, join } = builtinModule<typeof import('node:path')>('node:path')!;
  const given = dirname(path);
  const folder = await fs.promises.realpath(given).catch(() => given);
  return { path: join(folder, basename(path)), folder };
}

interface DenoPermissions {
  permissions?: { querySync?(d: { name: 'sys'; kind: 'uid' }): { state: string } };
}

/**
 * The uid that would own a file this process creates (its effective uid),
 * or undefined where the runtime will not say (Deno without --allow-sys,
 * asked first so that Deno prompts no one): the link-following rule then
 * takes no link as the caller's own.
 */
function ownUid(): number | undefined {
  const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
  try {
    if (deno !== undefined && deno.permissions?.querySync?.({ name: 'sys', kind: 'uid' }).state !== 'granted') return undefined;
    return (globalThis as { process?: { geteuid?: () => number } }).process?.geteuid?.();
  } catch {
    return undefined;
  }
}

/** What `output` names once its links are followed. */
export async function outputTarget(fs: NodeFs, output: string): Promise<OutputTarget> {
  const { isAbsolute } = builtinModule<typeof import('node:path')>('node:path')!;
  // A trailing slash names a folder: open(2) fails with EISDIR for it, whatever is there.
  if (output.endsWith('/')) return { kind: 'other', path: output, linked: false, what: 'a directory' };
  let path = output;
  for (let links = 0; ; links++) {
    const found = await lstatIfAny(fs, path);
    const real = await inRealFolder(fs, path);
    const linked = links > 0;
    if (found === undefined) return { kind: 'missing', path: real.path, linked };
    if (found.isFile()) return { kind: 'file', path: real.path, linked, stats: found, folder: await fs.promises.stat(real.folder) };
    if (!found.isSymbolicLink()) return { kind: 'other', path: linked ? real.path : output, linked, what: kindOf(found) };
    if (links === MAX_LINKS) throw openError('ELOOP', 'too many symbolic links encountered', output);
    const folder = await fs.promises.stat(real.folder);
    // fs.protected_symlinks (Linux's proc_sys_fs(5)): in a sticky world-writable folder, only the follower's or the folder owner's links.
    if (isStickyShared(folder) && found.uid !== folder.uid && found.uid !== ownUid()) throw openError('EACCES', 'permission denied', output);
    // A relative target starts from the folder the link really is in; its text is kept whole for the next turn's realpath.
    const target = await fs.promises.readlink(path);
    path = isAbsolute(target) ? target : `${real.folder}/${target}`;
  }
}

/** `output`, and the file its links lead to where that is another path, as messages name it. */
export const describeTarget = (output: string, target: OutputTarget): string => (target.linked ? `${output} (a link to ${target.path})` : output);
