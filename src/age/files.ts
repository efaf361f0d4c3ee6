/**
 * age files on a file system, file to file (Node, Deno, Bun): encryptFile
 * and decryptFile. The calling thread reads the header and hands out
 * pieces of chunks; each piece is read, sealed or opened and written at
 * its offsets by whoever does it (file-pieces.ts): a worker of the pool
 * (fourfold/parallel), or this thread between turns of the event loop
 * (fourfold/age). An age payload's layout is known in advance (chunk i at
 * i x 65,552 bytes after the nonce, its plaintext at i x 65,536), so no
 * piece waits for another. Armored files go through the streaming codec
 * on this thread instead.
 *
 * The output is written to a temporary file beside it and renamed over
 * it only once every piece is written and, decrypting, every chunk
 * verified: a failure (a wrong key, a changed or cut file, an abort, a
 * full disk) removes the temporary file and leaves the destination as it
 * was. Input and output may also be FileHandles the caller opened: the
 * pieces use their descriptors, and an output handle, which cannot be
 * replaced, is emptied on a failure instead.
 */
import { isArmored } from './armor.js';
import { Decryptor, Encryptor, type ReceiverOrAsk, type Tools } from './codec.js';
import { AgeFormatError } from './errors.js';
import { type FilePiece, type FileRef, openFilePiece, pieceBuffer, type PieceOutcome, sealFilePiece } from './file-pieces.js';
import { forget, openHeader, type Receiver, receiverOf, type Sender, sealHeader, senderOf } from './file-key.js';
import { HeaderReader } from './header.js';
import { CHUNK, chunkFailure, chunksOf, NONCE_BYTES, payloadKey, PIECE_CHUNKS, SEALED_CHUNK, wholePieces } from './payload.js';
import { engine, ownEngine } from '../chacha/tiers.js';
import { ticker } from '../pool/turns.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';
import { builtinModule } from '../runtime/host.js';

type Fs = typeof import('node:fs');

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

/** What a call does to a file on this thread: node:fs/promises' FileHandle, or the same calls over a descriptor (descriptorFile). */
interface Handle {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<unknown>;
  stat(): Promise<{ size: number; dev: number; ino: number }>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** decryptFile's options. Any other property is refused (TypeError). */
export interface FileOptions {
  /** Stops the call: it rejects with the signal's reason, and the destination is left as it was. */
  signal?: AbortSignal;
  /** Called as the work goes on: bytes of the input done, of its total. */
  onProgress?: (done: number, total: number) => void;
}

/** encryptFile's options. */
export interface EncryptFileOptions extends FileOptions {
  /** ASCII armor, as encrypt's (armored output goes through this thread). */
  armor?: boolean;
}

/**
 * A file call's payload: which way, under which key, where the input's
 * payload starts and how long it is, and where the output's starts.
 */
export interface FilePayload {
  readonly opening: boolean;
  readonly key: Uint8Array;
  readonly from: FileRef;
  readonly inputAt: number;
  readonly length: number;
  readonly to: FileRef;
  readonly outputAt: number;
}

/** Does every piece of a payload, calling `after` for each as it is done (which may throw to stop the call). */
export type FileRunner = (payload: FilePayload, after: (p: FilePiece, outcome: PieceOutcome) => void) => Promise<void>;

/** The piece of `payload` over its input's bytes [start, start + length), start on a chunk boundary. */
export function pieceOf(payload: FilePayload, start: number, length: number): FilePiece {
  const [unit, outUnit] = payload.opening ? [SEALED_CHUNK, CHUNK] : [CHUNK, SEALED_CHUNK];
  const first = start / unit;
  const total = payload.opening ? Math.ceil(payload.length / unit) : chunksOf(payload.length);
  const chunks = payload.opening ? Math.ceil(length / unit) : chunksOf(length);
  return {
    run: { counter: first, final: first + chunks === total },
    length,
    from: payload.from,
    readAt: payload.inputAt + start,
    to: payload.to,
    writeAt: payload.outputAt + first * outUnit,
  };
}

/** The pieces over a payload's input, of `chunks` chunks (an empty plaintext is one empty piece: its one empty chunk). */
export const piecesOf = (payload: FilePayload, chunks = PIECE_CHUNKS) =>
  payload.length === 0 ? [{ start: 0, length: 0 }] : wholePieces(payload.length, payload.opening ? SEALED_CHUNK : CHUNK, chunks);

/** Does `p` here, in `buffer` (a piece's sealed bytes long), on this thread's own engine (no array per chunk: chacha/tiers.ts ownEngine). */
export const filePieceHere = (payload: FilePayload, p: FilePiece, buffer: Uint8Array): PieceOutcome =>
  (payload.opening ? openFilePiece : sealFilePiece)(ownEngine(), payload.key, p, buffer);

/** This thread: one piece at a time, a turn of the event loop after each. */
export const hereFiles: FileRunner = async (payload, after) => {
  const buffer = pieceBuffer();
  const turns = ticker();
  try {
    for (const { start, length } of piecesOf(payload)) {
      const p = pieceOf(payload, start, length);
      after(p, filePieceHere(payload, p, buffer));
      await turns.tick();
    }
  } finally {
    turns.close();
  }
};

/** The tools of a file call: the age tools, and who does the pieces. */
export interface FileTools extends Tools {
  readonly files: FileRunner;
}

/** A file call, its arguments checked: what the library's calls and the age command (cli/age.ts) give sealFile and openFile. */
export interface FileCall {
  /** A path, or a FileHandle's descriptor. */
  readonly input: FileRef;
  readonly output: FileRef;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  readonly armor: boolean;
  /** Whether errors of the format and of authentication name the input (the command words them as age does instead). */
  readonly naming: boolean;
  /** Told of the temporary file once it exists; returns what to call once it is renamed or removed (the command removes it on a signal). */
  readonly watch?: (temporary: string) => () => void;
}
/** A file call with node:fs to make it (kept out of FileCall: the package's declarations name no node: module). */
interface Call extends FileCall {
  readonly fs: Fs;
}

/** node:fs, where the runtime has it. */
const fileSystem = (): Fs | undefined => builtinModule<Fs>('node:fs');

/** `c` with node:fs, which the age command's runtime has. */
function withFs(c: FileCall): Call {
  const fs = fileSystem();
  if (fs === undefined) throw new TypeError('age: the file calls need a file system (Node, Deno, Bun)');
  return { ...c, fs };
}

/** A path, or a FileHandle's descriptor (read once, here). */
function fileOf(value: unknown, name: string): FileRef {
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
const nameOf = (file: FileRef): string => (typeof file === 'string' ? file : `the file handle (descriptor ${file})`);

function callOf(name: string, input: unknown, output: unknown, options: unknown, known: string[]): FileCall {
  if (fileSystem() === undefined) throw new TypeError(`age: ${name} needs a file system (Node, Deno, Bun); here, use encryptStream / decryptStream`);
  const o = (check.options(options, 'options', known) ?? {}) as EncryptFileOptions;
  const signal = o.signal === undefined ? undefined : check.abortSignal(o.signal, 'options.signal');
  const onProgress = o.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError(`options.onProgress must be a function, got ${check.describe(onProgress)}`);
  if (o.armor !== undefined && typeof o.armor !== 'boolean') throw new TypeError(`options.armor must be a boolean, got ${check.describe(o.armor)}`);
  return { input: fileOf(input, 'input'), output: fileOf(output, 'output'), signal, onProgress, armor: o.armor === true, naming: true };
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
async function modeFor(fs: Fs, output: string): Promise<number> {
  try {
    return (await fs.promises.stat(output)).mode & 0o7777;
  } catch {
    const path = temporaryBeside(output);
    const probe = await fs.promises.open(path, 'wx', 0o666);
    try {
      return (await probe.stat()).mode & 0o7777;
    } finally {
      await probe.close();
      await fs.promises.rm(path, { force: true });
    }
  }
}

/** `e` with the file it is about in its message, for the errors of the format and of authentication. */
function naming(e: unknown, c: Call): unknown {
  if (c.naming && (e instanceof AgeFormatError || e instanceof AuthenticationError)) e.message = `${nameOf(c.input)}: ${e.message}`;
  return e;
}

/** node:fs's calls on descriptor `fd`, as a FileHandle's; closing it is its owner's. */
function descriptorFile(fs: Fs, fd: number): Handle {
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
async function replacing(c: Call, input: Handle, write: (to: FileRef, out: Handle) => Promise<void>): Promise<void> {
  if (typeof c.output === 'number') return intoHandle(c, c.output, input, write);
  const temp = temporaryBeside(c.output);
  const mode = await modeFor(c.fs, c.output);
  const out = await c.fs.promises.open(temp, 'wx', 0o600);
  const stopWatching = c.watch?.(temp);
  let done = false;
  try {
    await write(temp, out);
    await out.chmod(mode);
    await out.close();
    check.throwIfAborted(c.signal);
    await c.fs.promises.rename(temp, c.output);
    done = true;
  } finally {
    if (!done) {
      await out.close().catch(() => {});
      await c.fs.promises.rm(temp, { force: true });
    }
    stopWatching?.();
  }
}

/** replacing() for an output handle, refused where it is the input's file (emptying it would destroy the input). */
async function intoHandle(c: Call, fd: number, input: Handle, write: (to: FileRef, out: Handle) => Promise<void>): Promise<void> {
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

/** The input, opened, and its size. */
async function openInput(c: Call): Promise<{ input: Handle; size: number }> {
  const input: Handle = typeof c.input === 'number' ? descriptorFile(c.fs, c.input) : await c.fs.promises.open(c.input, 'r');
  try {
    return { input, size: (await input.stat()).size };
  } catch (e) {
    await input.close();
    throw e;
  }
}

/** Fails if the input's size is not `size` any more. */
async function sameSize(input: Handle, size: number, file: FileRef, error: (m: string) => Error): Promise<void> {
  const now = (await input.stat()).size;
  if (now !== size) throw error(`${nameOf(file)} changed size during the call (${size} bytes, then ${now})`);
}

/** Streams `input` through a codec (write, end) into `out`, in pieces of 1 MiB: for armor. */
async function throughCodec(c: Call, input: Handle, size: number, out: Handle, coder: Encryptor | Decryptor, emitted: Uint8Array[]): Promise<void> {
  const buffer = new Uint8Array(1 << 20);
  let at = 0;
  let written = 0;
  const flush = async (): Promise<void> => {
    for (const part of emitted.splice(0)) {
      await out.write(part, 0, part.length, written);
      written += part.length;
      zeroize(part);
    }
  };
  try {
    for (;;) {
      check.throwIfAborted(c.signal);
      const { bytesRead } = await input.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) break;
      at += bytesRead;
      await coder.write(buffer.subarray(0, bytesRead));
      await flush();
      c.onProgress?.(Math.min(at, size), size);
    }
    await coder.end();
    await flush();
  } finally {
    zeroize(buffer);
    for (const part of emitted.splice(0)) zeroize(part);
  }
}

/** Counts the input bytes done, reports them, and stops the call once its signal is aborted. */
function progress(c: Call, total: number): (bytes: number) => void {
  let done = 0;
  return (bytes) => {
    check.throwIfAborted(c.signal);
    done += bytes;
    c.onProgress?.(done, total);
  };
}

export async function encryptFileWith(
  tools: FileTools,
  input: unknown,
  output: unknown,
  to: unknown,
  options: unknown,
  extra: readonly unknown[],
): Promise<void> {
  check.noMoreArguments('encryptFile', ['input', 'output', 'to', 'options'], extra);
  const c = callOf('encryptFile', input, output, options, ['armor', 'signal', 'onProgress']);
  const sender = senderOf(to);
  try {
    await sealFile(tools, c, sender);
  } finally {
    forget(sender);
  }
}

/** Encrypts the file `c.input` to `sender` into `c.output`, replaced once complete. */
export async function sealFile(tools: FileTools, call: FileCall, sender: Sender): Promise<void> {
  const c = withFs(call);
  check.throwIfAborted(c.signal);
  const { input: file, size } = await openInput(c);
  try {
    await replacing(c, file, async (temp, out) => {
      if (c.armor) {
        const emitted: Uint8Array[] = [];
        return throughCodec(c, file, size, out, new Encryptor(sender, true, tools, (b) => emitted.push(b)), emitted);
      }
      const { header, fileKey } = await sealHeader(sender, tools.scrypt);
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
      const key = payloadKey(fileKey, nonce);
      zeroize(fileKey);
      try {
        await out.write(header, 0, header.length, 0);
        await out.write(nonce, 0, NONCE_BYTES, header.length);
        const payload = { opening: false, key, from: c.input, inputAt: 0, length: size, to: temp, outputAt: header.length + NONCE_BYTES };
        const done = progress(c, size);
        let short = false;
        await tools.files(payload, (p, o) => {
          short ||= o.short;
          done(p.length);
        });
        const changed = (m: string) => new Error(`age: ${m}`);
        if (short) throw changed(`${nameOf(c.input)} changed size during the call (it ended before its ${size} bytes)`);
        await sameSize(file, size, c.input, changed);
      } finally {
        zeroize(key);
      }
    });
  } finally {
    await file.close();
  }
}

/** The header of the binary file `input` (read 64 KiB at a time, within HeaderReader's bounds), and where its payload starts. */
async function readHeader(input: Handle, first: Uint8Array) {
  const reader = new HeaderReader();
  let chunk = first;
  let at = 0;
  for (;;) {
    if (chunk.length === 0) throw reader.ended();
    const read = reader.push(chunk);
    if (read !== undefined) return read.header;
    at += chunk.length;
    const buffer = new Uint8Array(1 << 16);
    const { bytesRead } = await input.read(buffer, 0, buffer.length, at);
    chunk = buffer.subarray(0, bytesRead);
  }
}

export async function decryptFileWith(
  tools: FileTools,
  input: unknown,
  output: unknown,
  from: unknown,
  options: unknown,
  extra: readonly unknown[],
): Promise<void> {
  check.noMoreArguments('decryptFile', ['input', 'output', 'from', 'options'], extra, ': decryptFile writes the plaintext to output');
  const c = callOf('decryptFile', input, output, options, ['signal', 'onProgress']);
  const receiver = receiverOf(from);
  try {
    await openFile(tools, c, receiver);
  } finally {
    forget(receiver);
  }
}

/**
 * Decrypts the file `c.input` into `c.output`, replaced once every chunk
 * verified; `from` may be a function of the header's stanzas (the
 * command asks for a passphrase once it sees an scrypt stanza).
 */
export async function openFile(tools: FileTools, call: FileCall, from: ReceiverOrAsk): Promise<void> {
  const c = withFs(call);
  check.throwIfAborted(c.signal);
  const { input: file, size } = await openInput(c);
  try {
    const start = new Uint8Array(Math.min(size, 1 << 16));
    const { bytesRead } = await file.read(start, 0, start.length, 0);
    const first = start.subarray(0, bytesRead);
    await replacing(c, file, async (temp, out) => {
      if (isArmored(first, bytesRead === size) === true) {
        const emitted: Uint8Array[] = [];
        return throughCodec(c, file, size, out, new Decryptor(from, tools, (b) => emitted.push(b)), emitted);
      }
      const header = await readHeader(file, first);
      const asked = typeof from === 'function' ? await from(header.stanzas) : undefined;
      let fileKey: Uint8Array;
      try {
        fileKey = await openHeader(header, asked ?? (from as Receiver), tools.scrypt);
      } finally {
        // A receiver made for this file is this call's to forget; one given is its caller's.
        if (asked !== undefined) forget(asked);
      }
      const nonce = new Uint8Array(NONCE_BYTES);
      const { bytesRead: nonceRead } = await file.read(nonce, 0, NONCE_BYTES, header.length);
      if (nonceRead < NONCE_BYTES) {
        zeroize(fileKey);
        throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
      }
      const key = payloadKey(fileKey, nonce);
      zeroize(fileKey);
      try {
        const inputAt = header.length + NONCE_BYTES;
        const payload = { opening: true, key, from: c.input, inputAt, length: size - inputAt, to: temp, outputAt: 0 };
        await openPayload(tools, payload, c, file, size);
      } finally {
        zeroize(key);
      }
    });
  } catch (e) {
    throw naming(e, c);
  } finally {
    await file.close();
  }
}

/** Opens every piece of `payload`; throws the AuthenticationError of the first chunk that did not verify, if any. */
async function openPayload(tools: FileTools, payload: FilePayload, c: Call, file: Handle, size: number): Promise<void> {
  const cut = (m: string) => new AuthenticationError(m);
  if (payload.length === 0) throw chunkFailure(engine(), payload.key, 0, true, new Uint8Array(0));
  const done = progress(c, payload.length);
  let first: { p: FilePiece; good: number } | undefined;
  let short = false;
  await tools.files(payload, (p, o) => {
    short ||= o.short;
    const chunks = Math.ceil(p.length / SEALED_CHUNK);
    if (o.good < chunks && (first === undefined || p.run.counter < first.p.run.counter)) first = { p, good: o.good };
    done(p.length);
  });
  if (short) throw cut(`the file changed size during the call (it ended before its ${size} bytes)`);
  await sameSize(file, size, c.input, cut);
  if (first === undefined) return;
  // The chunk that did not verify, read again here to tell why (cut short, extended, changed).
  const { p: failed, good } = first;
  const at = good * SEALED_CHUNK;
  const chunk = new Uint8Array(Math.min(SEALED_CHUNK, failed.length - at));
  await file.read(chunk, 0, chunk.length, failed.readAt + at);
  const final = failed.run.final && good === Math.ceil(failed.length / SEALED_CHUNK) - 1;
  throw chunkFailure(engine(), payload.key, failed.run.counter + good, final, chunk);
}
