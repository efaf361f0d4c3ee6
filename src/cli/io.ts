/**
 * Standard streams and files for the CLI, synchronously on file
 * descriptors (as b3sum does): nothing is lost when the process exits, and
 * a pipe a parent left non-blocking is waited on rather than failed.
 * System errors are described as Rust's std::io::Error displays them
 * (strerror text, then the errno), so messages match b3sum's.
 */
import { readSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { dieOnBrokenPipe } from './signals.js';

/** A failure b3sum reports as `Error: <message>` (its main() returning an error): exit code 1. */
export class Fatal extends Error {}

/** glibc's strerror() for the errors a file read can meet. */
const STRERROR: Record<string, string> = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  ENXIO: 'No such device or address',
  EBADF: 'Bad file descriptor',
  EAGAIN: 'Resource temporarily unavailable',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  ENODEV: 'No such device',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
  ENFILE: 'Too many open files in system',
  EMFILE: 'Too many open files',
  ETXTBSY: 'Text file busy',
  EFBIG: 'File too large',
  ENOSPC: 'No space left on device',
  ESPIPE: 'Illegal seek',
  EROFS: 'Read-only file system',
  EPIPE: 'Broken pipe',
  ENAMETOOLONG: 'File name too long',
  ELOOP: 'Too many levels of symbolic links',
  EOVERFLOW: 'Value too large for defined data type',
};

/** `no such file or directory` for an ENOENT, as Go prints a syscall.Errno (strerror's text, lowercase first); else the error's message. */
export function goErrorText(e: unknown): string {
  const text = STRERROR[(e as { code?: unknown }).code as string];
  if (text !== undefined) return text[0]!.toLowerCase() + text.slice(1);
  return e instanceof Error ? e.message : String(e);
}

/** `No such file or directory (os error 2)` for an ENOENT, as Rust prints an io::Error. */
export function ioErrorText(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    const errno = (constants.errno as Record<string, number>)[code];
    const text = STRERROR[code];
    if (errno !== undefined && text !== undefined) return `${text} (os error ${errno})`;
  }
  return e instanceof Error ? e.message : String(e);
}

const sleep = new Int32Array(new SharedArrayBuffer(4));
/** Retries a call that a non-blocking descriptor answered with EAGAIN. */
function blocking<T>(call: () => T): T {
  for (;;) {
    try {
      return call();
    } catch (e) {
      if ((e as { code?: string }).code !== 'EAGAIN') throw e;
      Atomics.wait(sleep, 0, 0, 1);
    }
  }
}

/** Reads into `into` from `fd` (at `position`, or the current one) until it is full or the end; returns the bytes read. */
export function readFull(fd: number, into: Uint8Array, position: number | null = null): number {
  let n = 0;
  while (n < into.length) {
    const got = blocking(() => readSync(fd, into, n, into.length - n, position === null ? null : position + n));
    if (got === 0) break;
    n += got;
  }
  return n;
}

const encoder = new TextEncoder();
/**
 * Line-buffered writes to a descriptor, as Rust's standard output (and so
 * b3sum's): what is written goes out at each newline, at 64 KiB and on
 * flush(), so a pipeline reads each sum as soon as it is done.
 */
export class Output {
  private readonly buf = new Uint8Array(65536);
  private used = 0;
  constructor(private readonly fd: number) {}

  write(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    if (bytes.length > this.buf.length - this.used) this.flush();
    if (bytes.length >= this.buf.length) {
      this.send(bytes);
      return;
    }
    this.buf.set(bytes, this.used);
    this.used += bytes.length;
    if (bytes.includes(10)) this.flush();
  }

  flush(): void {
    this.send(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  private send(bytes: Uint8Array): void {
    try {
      for (let at = 0; at < bytes.length; ) at += blocking(() => writeSync(this.fd, bytes, at, bytes.length - at));
    } catch (e) {
      dieOnBrokenPipe(this.fd, e);
      throw e;
    }
  }
}
