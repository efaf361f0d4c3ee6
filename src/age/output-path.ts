/**
 * What an output path names, as open(2) for writing would reach it: its
 * links followed to the file they name (a link's target is what gets
 * written, as age's os.Create writes it; a dangling link's target is
 * created), and what is there: a regular file, nothing yet, or something
 * no regular file may replace (a folder, a device, a FIFO, a socket).
 * The file calls (file-ends.ts) and the age command's -o (cli/age-io.ts)
 * both ask it, so neither puts a file of plaintext where a device, a FIFO
 * or a link was.
 */
import type { NodeFs } from './node-fs.js';
import { builtinModule } from '../runtime/host.js';

/** Where an output's bytes go, its links followed. */
export type OutputTarget =
  /** A regular file, replaced by the output; `mode` is its permissions, setuid, setgid and sticky left out. */
  | { readonly kind: 'file'; readonly path: string; readonly mode: number }
  /** Nothing yet: the output is created there. */
  | { readonly kind: 'missing'; readonly path: string }
  /** What a file may not replace: `what` says which ('a directory', 'a FIFO', ...). */
  | { readonly kind: 'other'; readonly path: string; readonly what: string };

/** Linux's limit on the links one path may go through (MAXSYMLINKS); past it, open(2) fails with ELOOP. */
const MAX_LINKS = 40;

type Stats = import('node:fs').Stats;

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

/** What `output` names once its links are followed. */
export async function outputTarget(fs: NodeFs, output: string): Promise<OutputTarget> {
  const { dirname, isAbsolute, join } = builtinModule<typeof import('node:path')>('node:path')!;
  let path = output;
  for (let links = 0; ; links++) {
    const found = await lstatIfAny(fs, path);
    if (found === undefined) return { kind: 'missing', path };
    if (found.isFile()) return { kind: 'file', path, mode: found.mode & 0o777 };
    if (!found.isSymbolicLink()) return { kind: 'other', path, what: kindOf(found) };
    if (links === MAX_LINKS) throw Object.assign(new Error(`ELOOP: too many symbolic links encountered, open '${output}'`), { code: 'ELOOP', path: output });
    // A relative target is relative to the link's folder; join, unlike resolve, needs no working directory (a permission in Deno).
    const target = await fs.promises.readlink(path);
    path = isAbsolute(target) ? target : join(dirname(path), target);
  }
}

/** `output`, and the file its links lead to where that is another path, as messages name it. */
export const describeTarget = (output: string, target: OutputTarget): string => (target.path === output ? output : `${output} (a link to ${target.path})`);
