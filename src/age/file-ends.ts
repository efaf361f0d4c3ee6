/**
 * A file call's two ends (encryptFile, decryptFile, the age command):
 * the input opened and the output put in place, kept apart from the
 * payload's work (files.ts) because it is the part that touches the file
 * system. The output is written to a temporary file beside it and
 * renamed over it only once every piece is written and, decrypting,
 * every chunk verified: a failure (a wrong key, a changed or cut file, an
 * abort, a full disk) removes the temporary file and leaves the
 * destination as it was. Input and output may also be FileHandles the
 * caller opened: the pieces use their descriptors, and an output handle,
 * which cannot be replaced, is emptied on a failure instead. In a
 * browser, the input is a Blob and the output a Blob or a file of the
 * origin-private file system (blob-files.ts), through the same steps.
 */
import { blobInput, blobName, intoBlob, isWritableFileHandle, type WritableFileHandle } from './blob-files.js';
import { type FileRef, type InputFile, isBlob, type OutputFile, type PieceSink, type PieceSource } from './file-pieces.js';
import { type NodeFs, nodeFs } from './node-fs.js';
import * as check from '../runtime/assert.js';
import { builtinModule } from '../runtime/host.js';

/**
 * A file node:fs/promises' open() gave (Node, Bun, Deno): encryptFile and
 * decryptFile use only its descriptor, so it must stay open until the call
 * settles. An input handle is read from its start, whatever its position;
 * an output handle is emptied, then written from its start.
 */
export interface FileHandle {
  /** Its file descriptor (-1 once closed). */
  readonly fd: number;
}

/** A file of encryptFile and decryptFile: a path (a string or a file: URL), or a FileHandle. */
export type PathOrHandle = string | URL | FileHandle;

/** A file on this thread, read and written: node:fs/promises' FileHandle, or descriptorFile's calls. */
interface ReadWriteFile extends InputFile, OutputFile {
  truncate(length: number): Promise<void>;
}

/**
 * Runs `write` on a call's output, which is put in place only once it
 * completes; resolves to the call's value (the Blob, where the output is
 * one).
 */
export type Replacing = (write: (to: PieceSink, out: OutputFile) => Promise<void>) => Promise<Blob | undefined>;

/** A call's two ends: its input, opened, and its size; its output. */
export interface Ends {
  readonly input: InputFile;
  readonly size: number;
  readonly replacing: Replacing;
}

/** A file call, its arguments checked: what the library's calls and the age command (cli/age.ts) give sealFile and openFile. */
export interface FileCall {
  /** A path, a FileHandle's descriptor, or a Blob. */
  readonly input: PieceSource;
  /** A path or a descriptor (with a path or descriptor input); with a Blob, a file of the origin-private file system, or undefined: a Blob. */
  readonly output: FileRef | WritableFileHandle | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  readonly armor: boolean;
  /** Whether errors of the format and of authentication name the input (the command words them as age does instead). */
  readonly naming: boolean;
  /** Told of a temporary file's name before it is made; returns what to call once it is renamed or removed (the command removes it on a signal). */
  readonly watch?: (temporary: string) => () => void;
}
/** A call between files, with node:fs to make it (kept out of FileCall: the package's declarations name no node: module). */
interface FileSystemCall extends FileCall {
  readonly input: FileRef;
  readonly output: FileRef;
  readonly fs: NodeFs;
}

/** `c`, between files, with node:fs, which the age command's runtime has. */
function withFs(c: FileCall & { input: FileRef }): FileSystemCall {
  const fs = nodeFs();
  if (fs === undefined) throw new TypeError('age: the file calls need a file system (Node, Deno, Bun)');
  if (typeof c.output !== 'string' && typeof c.output !== 'number') throw new TypeError('output must be a path or a FileHandle where the input is one');
  return { ...c, output: c.output, fs };
}

/** A path, or a FileHandle's descriptor (read once, here). */
export function fileOf(value: unknown, name: string): FileRef {
  if (typeof value === 'string' && value.length > 0) return value;
  // node:url's reading of a file: URL (percent-escapes, Windows drives); any other URL is refused with its TypeError.
  if (value instanceof URL) return builtinModule<typeof import('node:url')>('node:url')!.fileURLToPath(value);
  if (typeof value === 'object' && value !== null && 'fd' in value) {
    const fd = (value as FileHandle).fd;
    // A closed FileHandle's fd is -1.
    if (Number.isSafeInteger(fd) && fd >= 0) return fd;
    throw new TypeError(`${name} is a closed file handle`);
  }
  throw new TypeError(`${name} must be a path (a non-empty string, or a file: URL) or a FileHandle, got ${check.describe(value)}`);
}

/** How messages name a file. */
export const nameOf = (file: PieceSource): string =>
  typeof file === 'string' ? file : typeof file === 'number' ? `the file handle (descriptor ${file})` : blobName(file);

/** The output for a Blob input: a file of the origin-private file system, or undefined (the call's value is a Blob). */
function blobOutputOf(value: unknown): WritableFileHandle | undefined {
  if (value === undefined || isWritableFileHandle(value)) return value;
  throw new TypeError(`output must be a FileSystemFileHandle, or undefined for a Blob, where the input is a Blob; got ${check.describe(value)}`);
}

/** The input and output of a call: a Blob into a Blob or a FileSystemFileHandle; else files, on a file system. */
export function endsOf(name: string, input: unknown, output: unknown): Pick<FileCall, 'input' | 'output'> {
  if (isBlob(input)) return { input, output: blobOutputOf(output) };
  if (nodeFs() === undefined) throw new TypeError(`age: ${name} needs a file system (Node, Deno, Bun) for paths; here, give it a Blob or File`);
  return { input: fileOf(input, 'input'), output: fileOf(output, 'output') };
}

/** The name of a temporary file beside `final`: hidden, saying whose, unique (created exclusively); the age command's -o too. */
export function temporaryBeside(final: string): string {
  const { basename, dirname, join } = builtinModule<typeof import('node:path')>('node:path')!;
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  // 255 bytes is the usual limit on a name: the output's is cut to 48 characters to leave room.
  return join(dirname(final), `.${[...basename(final)].slice(0, 48).join('')}.fourfold-${random}`);
}

/**
 * The mode the output gets: an existing file's, else what a new file gets
 * here (0666 less the umask), asked of the file system with an empty file
 * made and removed beside it: process.umask() needs a permission in Deno
 * (--allow-sys) that a caller who granted reading and writing did not give.
 */
async function modeFor(fs: NodeFs, output: string, watch: FileCall['watch']): Promise<number> {
  try {
    return (await fs.promises.stat(output)).mode & 0o7777;
  } catch {
    const path = temporaryBeside(output);
    const stopWatching = watch?.(path);
    try {
      const probe = await fs.promises.open(path, 'wx', 0o666);
      try {
        return (await probe.stat()).mode & 0o7777;
      } finally {
        await probe.close();
        await fs.promises.rm(path, { force: true });
      }
    } finally {
      stopWatching?.();
    }
  }
}

/** node:fs's calls on descriptor `fd`, as a FileHandle's; closing it is its owner's. */
function descriptorFile(fs: NodeFs, fd: number): ReadWriteFile {
  const done = <T>(start: (callback: (e: Error | null, value: T) => void) => void) =>
    new Promise<T>((resolve, reject) => start((e, value) => (e === null ? resolve(value) : reject(e))));
  return {
    read: (buffer, offset, length, position) =>
      done<{ bytesRead: number }>((cb) => fs.read(fd, buffer, offset, length, position, (e, bytesRead) => cb(e, { bytesRead }))),
    write: (buffer, offset, length, position) => done<number>((cb) => fs.write(fd, buffer, offset, length, position, cb)),
    stat: () => done((cb) => fs.fstat(fd, cb)),
    truncate: (length) => done<void>((cb) => fs.ftruncate(fd, length, (e) => cb(e, undefined))),
    close: async () => {},
  };
}

/**
 * Runs `write` on the output: a new temporary file beside `c.output`, put
 * in place once written and removed if anything fails; or the caller's
 * handle, written in place (it cannot be replaced), emptied first and
 * again on a failure, so that no partial or unverified output stays in it.
 */
async function replacingFile(c: FileSystemCall, input: InputFile, write: (to: FileRef, out: ReadWriteFile) => Promise<void>): Promise<void> {
  if (typeof c.output === 'number') return intoHandle(c, c.output, input, write);
  const temp = temporaryBeside(c.output);
  const mode = await modeFor(c.fs, c.output, c.watch);
  // Watched before it exists: a signal between its creation and the watch would leave it behind.
  const stopWatching = c.watch?.(temp);
  let out: Awaited<ReturnType<NodeFs['promises']['open']>> | undefined;
  let done = false;
  try {
    out = await c.fs.promises.open(temp, 'wx', 0o600);
    await write(temp, out);
    await out.chmod(mode);
    await out.close();
    check.throwIfAborted(c.signal);
    await c.fs.promises.rename(temp, c.output);
    done = true;
  } finally {
    if (!done && out !== undefined) {
      await out.close().catch(() => {});
      await c.fs.promises.rm(temp, { force: true });
    }
    stopWatching?.();
  }
}

/** replacingFile() for an output handle, refused where it is the input's file (emptying it would destroy the input). */
async function intoHandle(c: FileSystemCall, fd: number, input: InputFile, write: (to: FileRef, out: ReadWriteFile) => Promise<void>): Promise<void> {
  const out = descriptorFile(c.fs, fd);
  const [a, b] = await Promise.all([input.stat(), out.stat()]);
  if (a.dev === b.dev && a.ino === b.ino)
    throw new TypeError('output is the input file: write to another file, or give its path (the output then replaces it once complete)');
  await out.truncate(0);
  let done = false;
  try {
    await write(fd, out);
    check.throwIfAborted(c.signal);
    done = true;
  } finally {
    if (!done) await out.truncate(0).catch(() => {});
  }
}

/** Opens a call's ends: a Blob's (blob-files.ts), or files'. */
export async function openEnds(call: FileCall): Promise<Ends> {
  const { input } = call;
  if (isBlob(input)) {
    const file = call.output as WritableFileHandle | undefined;
    return { input: blobInput(input), size: input.size, replacing: (write) => intoBlob(file, call.signal, write) };
  }
  const c = withFs({ ...call, input });
  const file: InputFile = typeof input === 'number' ? descriptorFile(c.fs, input) : await c.fs.promises.open(input, 'r');
  try {
    return { input: file, size: (await file.stat()).size, replacing: async (write) => void (await replacingFile(c, file, write)) };
  } catch (e) {
    await file.close();
    throw e;
  }
}
