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
import { beginReplacement } from './output-file.js';
import { describeTarget, kindOf, type OutputTarget, outputTarget } from './output-path.js';

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
  stat(): Promise<import('node:fs').Stats>;
  truncate(length: number): Promise<void>;
  chmod(mode: number): Promise<void>;
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
  /**
   * Told of a temporary file's name before it is made; returns what to call once it is renamed or removed (the command
   * removes it on a signal). Written out rather than output-file.ts's Watch: this interface is in the package's
   * declarations, which name no node: module.
   */
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
    chmod: (mode) => done<void>((cb) => fs.fchmod(fd, mode, (e) => cb(e, undefined))),
    close: async () => {},
  };
}

/** Where to stream into what a file call cannot write (docs/age.md, "Outputs"). */
const STREAM_INSTEAD = 'pipe encryptStream() or decryptStream() into it instead (docs/age.md#outputs)';

/** The refusal of an output a regular file may not replace. */
function notAFile(name: string, target: OutputTarget & { kind: 'other' }): TypeError {
  const output = describeTarget(name, target);
  if (target.what === 'a directory') return new TypeError(`output ${output} is a directory: give the path of a file in it`);
  return new TypeError(`output ${output} is ${target.what}, not a regular file: a file call writes a regular file whole or not at all; ${STREAM_INSTEAD}`);
}

/**
 * Runs `write` on the output: a new temporary file beside the file the
 * output path names (its links followed, so a link's target is what
 * changes), put in place once written and removed if anything fails
 * (output-file.ts); or the caller's handle, written in place (it cannot
 * be replaced), emptied first and again on a failure, so that no partial
 * or unverified output stays in it. A folder, a device, a FIFO or a
 * socket is refused before anything is written, and so is a file this
 * user may not write, as opening it is.
 */
async function replacingFile(c: FileSystemCall, input: InputFile, write: (to: FileRef, out: ReadWriteFile) => Promise<void>): Promise<void> {
  if (typeof c.output === 'number') return intoHandle(c, c.output, input, write);
  const target = await outputTarget(c.fs, c.output);
  if (target.kind === 'other') throw notAFile(c.output, target);
  const replacement = await beginReplacement(c.fs, c.output, target, c.watch);
  let written = false;
  try {
    await write(replacement.temporary, replacement.handle);
    check.throwIfAborted(c.signal);
    written = true;
  } finally {
    if (!written) await replacement.discard();
  }
  await replacement.place();
}

/**
 * Whether writes to `out` all land at its end whatever their position: a
 * handle opened for appending ('a', 'a+'), on Linux, whose pwrite(2)
 * appends there (POSIX would have it write at the position, and macOS
 * does). Asked by writing a byte one past the end: appended, the file
 * grows by one byte, else by two; the file is cut back to `size` after.
 */
async function appendsAnywhere(out: ReadWriteFile, size: number): Promise<boolean> {
  await out.write(new Uint8Array(1), 0, 1, size + 1);
  const grown = (await out.stat()).size;
  await out.truncate(size);
  return grown === size + 1;
}

/**
 * replacingFile() for an output handle. Refused, before anything in it
 * changes: a handle of anything but a regular file, one on the input's
 * own file (emptying it would destroy the input), and one opened for
 * appending, where the pieces' writes at their offsets would land out of
 * order.
 */
async function intoHandle(c: FileSystemCall, fd: number, input: InputFile, write: (to: FileRef, out: ReadWriteFile) => Promise<void>): Promise<void> {
  const out = descriptorFile(c.fs, fd);
  const [a, b] = await Promise.all([input.stat(), out.stat()]);
  const name = `the file handle (descriptor ${fd})`;
  if (!b.isFile()) throw notAFile(name, { kind: 'other', path: name, linked: false, what: kindOf(b) });
  if (a.dev === b.dev && a.ino === b.ino)
    throw new TypeError('output is the input file: write to another file, or give its path (the output then replaces it once complete)');
  if (await appendsAnywhere(out, b.size).catch((e) => Promise.reject(notWritable(e, name))))
    throw new TypeError(
      `output ${name} was opened for appending ('a' or 'a+'), where every write lands at the end: open it with 'w' or 'r+', or give its path`,
    );
  if ((b.mode & 0o7000) !== 0) await out.chmod(b.mode & 0o777);
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

/** A handle's write refused as not open for writing (EBADF) says so; any other error is as it came. */
function notWritable(e: unknown, name: string): unknown {
  return (e as { code?: unknown }).code === 'EBADF' ? new TypeError(`output ${name} is not open for writing: open it with 'w' or 'r+'`) : e;
}

/** Refuses an input that is not a regular file: a file call reads its input at offsets, and only a regular file's size says where it ends. */
function refuseInput(name: string, stats: import('node:fs').Stats): void {
  if (stats.isFile()) return;
  const what = kindOf(stats);
  if (what === 'a directory') throw new TypeError(`input ${name} is a directory: give the path of a file in it`);
  throw new TypeError(
    `input ${name} is ${what}, not a regular file: a file call reads a regular file at offsets; pipe it into encryptStream() or decryptStream() instead (docs/age.md#outputs)`,
  );
}

/** Opens a call's ends: a Blob's (blob-files.ts), or files'. */
export async function openEnds(call: FileCall): Promise<Ends> {
  const { input } = call;
  if (isBlob(input)) {
    const file = call.output as WritableFileHandle | undefined;
    return { input: blobInput(input), size: input.size, replacing: (write) => intoBlob(file, call.signal, write) };
  }
  const c = withFs({ ...call, input });
  // Asked before opening: opening a FIFO waits for a writer.
  if (typeof input === 'string') refuseInput(input, await c.fs.promises.stat(input));
  const file: Pick<ReadWriteFile, 'read' | 'stat' | 'close'> = typeof input === 'number' ? descriptorFile(c.fs, input) : await c.fs.promises.open(input, 'r');
  try {
    const stats = await file.stat();
    refuseInput(nameOf(input), stats);
    return { input: file, size: stats.size, replacing: async (write) => void (await replacingFile(c, file, write)) };
  } catch (e) {
    await file.close();
    throw e;
  }
}
