/**
 * How a file call's output (and the age command's -o) is put in place:
 * written whole into a temporary file beside the file the output path
 * names (output-path.ts), then, once every piece is written and every
 * chunk verified, put in place; removed if anything fails, leaving the
 * output as it was. An existing output stays what it was, as age's
 * os.Create leaves it: its owner, group, mode (less setuid, setgid and
 * sticky) and other names. A new file, or an existing one of the
 * caller's with no other name, is replaced by renaming the temporary
 * over it (one step: a reader sees the old bytes or the new); any other
 * (another user's, which root may write; a file with hard links; a group
 * the caller cannot give) has the temporary's bytes copied into it in
 * place, through the descriptor open(2) gave for the output path.
 *
 * A process killed (SIGKILL) while it writes leaves its temporary file:
 * `.NAME.fourfold-XXXXXXXXXXXX`, mode 0600, beside the output
 * (docs/age.md, "Outputs", says how to find such files).
 */
import type { NodeFs } from './node-fs.js';
import { builtinModule } from '../runtime/host.js';
import { isBait, openError, type OutputTarget } from './output-path.js';

type FileHandle = import('node:fs/promises').FileHandle;
type Stats = import('node:fs').Stats;

/** The name of a temporary file beside `final`: hidden, saying whose, unique (created exclusively). */
export function temporaryBeside(final: string): string {
  const { basename, dirname, join } = builtinModule<typeof import('node:path')>('node:path')!;
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  // 255 bytes is the usual limit on a name: the output's is cut to 48 characters to leave room.
  return join(dirname(final), `.${[...basename(final)].slice(0, 48).join('')}.fourfold-${random}`);
}

/** Told of a temporary file's name before it is made; returns what to call once it is renamed or removed (the command removes it on a signal). */
export type Watch = (temporary: string) => () => void;

/** Throws `e`, an error of a file made beside `output` (the temporary file, the probe), naming the output, as opening the output itself would have failed. */
export const failingAs =
  (output: string) =>
  (e: unknown): never => {
    const error = e as { message?: unknown; path?: unknown };
    if (typeof error.path === 'string' && typeof error.message === 'string') {
      error.message = error.message.replace(error.path, output);
      error.path = output;
    }
    throw e;
  };

/**
 * The mode a new output gets: what a new file gets here (0666 less the
 * umask), asked of the file system with an empty file made and removed
 * beside it: process.umask() needs a permission in Deno (--allow-sys)
 * that a caller who granted reading and writing did not give.
 */
async function newFileMode(fs: NodeFs, output: string, watch: Watch | undefined): Promise<number> {
  const path = temporaryBeside(output);
  const stopWatching = watch?.(path);
  try {
    const probe = await fs.promises.open(path, 'wx', 0o666);
    try {
      return (await probe.stat()).mode & 0o777;
    } finally {
      await probe.close();
      await fs.promises.rm(path, { force: true });
    }
  } finally {
    stopWatching?.();
  }
}

/** An output being written: its temporary file, open for reading and writing, and the two ways it ends. */
export interface Replacement {
  readonly temporary: string;
  readonly handle: FileHandle;
  /** Puts the temporary file's bytes in place of the output and closes what was opened. */
  place(): Promise<void>;
  /** Removes the temporary file; the output is left as it was. */
  discard(): Promise<void>;
}

/** Copies `from`'s bytes over `to`'s, from its start, and cuts `to` to their length. */
async function copyInto(from: FileHandle, to: FileHandle): Promise<void> {
  const size = (await from.stat()).size;
  const buffer = new Uint8Array(Math.max(1, Math.min(size, 1 << 20)));
  for (let at = 0; at < size; ) {
    const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, size - at), at);
    if (bytesRead === 0) throw new Error('the temporary file was cut short while it was being copied');
    for (let w = 0; w < bytesRead; ) w += (await to.write(buffer, w, bytesRead - w, at + w)).bytesWritten;
    at += bytesRead;
  }
  await to.truncate(size);
}

/**
 * The existing output as open(2) opens it for writing (the kernel's own
 * reading of the path, its permissions and link rules), checked to be the
 * file output-path.ts found; and whether the output must be written in
 * place rather than replaced: another owner, another name, a group the
 * caller cannot give the temporary file.
 */
async function openExisting(
  fs: NodeFs,
  output: string,
  target: OutputTarget & { kind: 'file' },
  temporary: FileHandle,
): Promise<{ held: FileHandle; inPlace: boolean }> {
  const { stats } = target;
  // The temporary file is the caller's own: its owner is who the caller is, asked with no permission (Deno's --allow-sys).
  const own: Stats = await temporary.stat();
  if (isBait(target, own.uid)) throw openError('EACCES', 'permission denied', output);
  const held = await fs.promises.open(output, fs.constants.O_WRONLY);
  try {
    const opened = await held.stat();
    if (opened.dev !== stats.dev || opened.ino !== stats.ino)
      throw Object.assign(new Error(`output ${output} was replaced while it was being opened: nothing was written; try again`), { code: 'ECHANGED' });
    if (stats.nlink > 1 || stats.uid !== own.uid) return { held, inPlace: true };
    if (stats.gid === own.gid) return { held, inPlace: false };
    const given = await temporary.chown(own.uid, stats.gid).then(
      () => true,
      () => false,
    );
    return { held, inPlace: !given };
  } catch (e) {
    await held.close();
    throw e;
  }
}

/**
 * Starts writing an output: `target` is what output-path.ts found for
 * `output`, a regular file or nothing yet. The temporary file is made
 * with mode 0600, exclusively, and watched before it exists (a signal
 * between its creation and the watch would leave it behind).
 */
export async function beginReplacement(fs: NodeFs, output: string, target: OutputTarget & { kind: 'file' | 'missing' }, watch?: Watch): Promise<Replacement> {
  // A new file's mode first: its probe is made and removed before the temporary file exists.
  const mode = target.kind === 'file' ? target.stats.mode & 0o777 : await newFileMode(fs, target.path, watch).catch(failingAs(output));
  const temporary = temporaryBeside(target.path);
  const stopWatching = watch?.(temporary);
  let handle: FileHandle | undefined;
  let held: FileHandle | undefined;
  const discard = async (): Promise<void> => {
    await handle?.close().catch(() => {});
    await held?.close().catch(() => {});
    await fs.promises.rm(temporary, { force: true });
    stopWatching?.();
  };
  try {
    handle = await fs.promises.open(temporary, 'wx+', 0o600).catch(failingAs(output));
    const existing = target.kind === 'file' ? await openExisting(fs, output, target, handle) : undefined;
    held = existing?.held;
    const out = handle;
    const place = async (): Promise<void> => {
      let renamed = false;
      try {
        if (existing?.inPlace) {
          // Setuid and setgid off before the bytes go in: a file of plaintext never has them.
          if ((target.kind === 'file' ? target.stats.mode : 0) & 0o7000) await held!.chmod(mode).catch(() => {});
          await copyInto(out, held!);
        } else {
          await out.chmod(mode);
          await out.close();
          await held?.close();
          await fs.promises.rename(temporary, target.path);
          renamed = true;
        }
      } finally {
        // Once renamed, the temporary's name is the output's: nothing is removed.
        if (renamed) stopWatching?.();
        else await discard();
      }
    };
    return { temporary, handle: out, place, discard };
  } catch (e) {
    await discard();
    throw e;
  }
}
