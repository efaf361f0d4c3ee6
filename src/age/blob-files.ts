/**
 * The file calls in a browser (and anywhere with Blobs): encryptFile and
 * decryptFile from a Blob or File into a Blob, or into a file of the
 * origin-private file system (a FileSystemFileHandle). The pieces read
 * their slices of the input themselves (a worker with FileReaderSync, or
 * the calling thread asynchronously) and each makes a Blob of its output;
 * this thread only puts those Blobs in order, so it never holds the file.
 *
 * Nothing is released before it is complete: the Blob is made once every
 * piece is done and, decrypting, every chunk verified; a file of the
 * origin-private file system is written through createWritable(), whose
 * writes go to a swap file that close() puts in place (File System
 * standard, "FileSystemWritableFileStream"), and abort() drops on a
 * failure, so the file keeps what it had.
 */
import { type InputFile, INTO_BLOB, type OutputFile, type PieceSink } from './file-pieces.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';

/** The writable stream of a file of the origin-private file system (the calls this module makes). */
export interface WritableFile {
  /** Writes `data` at the stream's position (into its swap file). */
  write(data: Blob): Promise<void>;
  /** Puts what was written in place of the file's contents. */
  close(): Promise<void>;
  /** Drops what was written: the file keeps its contents. */
  abort(reason?: unknown): Promise<void>;
}

/**
 * A file of the origin-private file system (a FileSystemFileHandle, from
 * navigator.storage.getDirectory()), as encryptFile and decryptFile use
 * it: its contents are replaced once the output is complete, and kept as
 * they were on any failure.
 */
export interface WritableFileHandle {
  /** 'file' (a directory's handle is 'directory'). */
  readonly kind: 'file';
  /** A stream that writes a copy of the file, put in place by close(). */
  createWritable(options?: {
    /** Whether the copy starts as the file's contents (false: empty). */
    keepExistingData?: boolean;
  }): Promise<WritableFile>;
}

/** Whether `value` is a FileSystemFileHandle (or anything with its calls). */
export const isWritableFileHandle = (value: unknown): value is WritableFileHandle =>
  typeof value === 'object' &&
  value !== null &&
  (value as WritableFileHandle).kind === 'file' &&
  typeof (value as WritableFileHandle).createWritable === 'function';

/** How messages name a Blob: a File by its name. */
export const blobName = (blob: Blob): string => (typeof File === 'function' && blob instanceof File ? `the File "${blob.name}"` : 'the Blob');

/** A Blob read as a file: its slices, read asynchronously (a Blob does not change; a File whose file changed fails to read). */
export function blobInput(blob: Blob): InputFile {
  return {
    async read(buffer, offset, length, position) {
      const bytes = new Uint8Array(await blob.slice(position, position + length).arrayBuffer());
      buffer.set(bytes, offset);
      zeroize(bytes);
      return { bytesRead: bytes.length };
    },
    stat: async () => ({ size: blob.size, dev: 0, ino: 0 }),
    close: async () => {},
  };
}

/** An output made of Blobs at their positions: the pieces', and copies of what is written here (the header, armor). */
class BlobParts implements OutputFile {
  private readonly parts = new Map<number, Blob>();

  async write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<void> {
    // The Blob copies the bytes (File API, "process blob parts").
    this.put(new Blob([buffer.subarray(offset, offset + length) as Uint8Array<ArrayBuffer>]), position);
  }

  put(part: Blob, position: number): void {
    this.parts.set(position, part);
  }

  /** The parts, one after another: each must start where the one before it ended. */
  joined(): Blob {
    const positions = [...this.parts.keys()].sort((a, b) => a - b);
    let end = 0;
    const parts = positions.map((at) => {
      if (at !== end) throw new Error(`fourfold: the output has a gap or an overlap at byte ${end} (a part at ${at})`);
      const part = this.parts.get(at)!;
      end += part.size;
      return part;
    });
    return new Blob(parts);
  }
}

/**
 * Runs `write` on an output of Blob parts, then makes the Blob: the
 * call's value, or the new contents of `file`, written through a swap
 * file and put in place by close() (abort() on a failure).
 */
export async function intoBlob(
  file: WritableFileHandle | undefined,
  signal: AbortSignal | undefined,
  write: (to: PieceSink, out: OutputFile) => Promise<void>,
): Promise<Blob | undefined> {
  // Opened first: a file that cannot be written fails the call before any work.
  const writable = await file?.createWritable({ keepExistingData: false });
  let done = false;
  try {
    const out = new BlobParts();
    await write(INTO_BLOB, out);
    check.throwIfAborted(signal);
    const blob = out.joined();
    if (writable === undefined) return blob;
    await writable.write(blob);
    check.throwIfAborted(signal);
    await writable.close();
    done = true;
    return undefined;
  } finally {
    if (!done) await writable?.abort().catch(() => {});
  }
}
