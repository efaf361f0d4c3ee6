/**
 * The age command's input and output: standard input, taken once (the
 * input, a recipients file or an identity file may be it, not two of
 * them); the input read in large pieces while the last is being
 * encrypted; the output written as the codec hands it on, to standard
 * output, or to a file put in place only once the command succeeded (a
 * decryption that fails leaves no plaintext); a progress line for large
 * files.
 */
import * as fs from 'node:fs';
import { closeSync, openSync, read, write } from 'node:fs';
import { goErrorText } from './io.js';
import { dieOnBrokenPipe, removeOnSignal } from './signals.js';
import type { Replacement } from '../age/output-file.js';
import { isTerminal, Progress } from './terminal.js';

/** An error the command reports and exits on (code 1), with hints, as age's errorf and errorWithHint. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly hints: string[] = [],
  ) {
    super(message);
  }
}

/** Standard input, once: only one of the input, a recipients file and an identity file may be it. */
let stdinTaken = false;
export function takeStdin(): number {
  if (stdinTaken) throw new Failure('standard input is used for multiple purposes');
  stdinTaken = true;
  return 0;
}

/**
 * Where an -o file's bytes go: a temporary file beside the file OUTPUT
 * names (its links followed), put in place once the command succeeded
 * (age/output-file.ts), so that a decryption that fails (a file cut short
 * or changed, a signal) leaves no plaintext and the file that was there
 * as it was; or, when OUTPUT is no regular file (a device, a FIFO),
 * OUTPUT itself, written through in order, as age writes it.
 */
interface Target {
  fd: number;
  /** The temporary file and how it ends; absent for a file written through. */
  replacement?: Replacement;
}

/**
 * Opens an -o file. An existing regular file (or the one a link points
 * to) is replaced, keeping what it is (owner, group, mode less setuid,
 * setgid and sticky, other names), if this user may write it (age opens
 * it for writing, and so refuses otherwise); a new one gets 0666 less the
 * umask, as age's. What fails is worded as age's os.Create: `open OUTPUT:
 * permission denied`.
 */
async function openTarget(path: string): Promise<Target> {
  // -o's modules, loaded only for an -o file (age-files.ts).
  const { beginReplacement, outputTarget } = await import('./age-files.js');
  const target = await outputTarget(fs, path);
  if (target.kind === 'other') return { fd: openSync(path, 'w') };
  const replacement = await beginReplacement(fs, path, target, removeOnSignal);
  return { fd: replacement.handle.fd, replacement };
}

/**
 * The output: standard output, streamed as the codec hands bytes on (as
 * age's: a decryption that fails has written the chunks that verified);
 * or an -o file, written whole or not at all (openTarget), created at the
 * first write, as age's lazy opener, or at the end. An -o file that cannot
 * be opened fails the command with age's words: its open error, after
 * "failed to write header: " when encrypting (age.Encrypt's first write).
 */
export class AgeOutput {
  private target: Promise<Target> | undefined;
  private queue: Uint8Array[] = [];
  private queued = 0;
  private flushing: Promise<void> | undefined;
  private failed: unknown;

  constructor(
    private readonly path: string | undefined,
    private readonly encrypting: boolean,
  ) {}

  /** Hands bytes on; they are written in order as the descriptor takes them. */
  write(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.queue.push(bytes);
    this.queued += bytes.length;
    // flush() awaits before it can end, so it clears `flushing` only after this assignment.
    this.flushing ??= this.flush();
  }

  /** Waits while more than `limit` bytes wait to be written: the output's backpressure. */
  async drain(limit = 8 << 20): Promise<void> {
    while (this.queued > limit && this.flushing !== undefined) await this.flushing;
    if (this.failed !== undefined) throw this.failed;
  }

  /** The command succeeded: the last bytes written and an -o file put in place (created even when empty, as age does). */
  async close(): Promise<void> {
    const target = await this.open();
    await this.drain(0);
    if (target.replacement !== undefined) return target.replacement.place();
    this.closeFile(target);
  }

  /** The command failed: an -o file's temporary removed, and what was at OUTPUT left as it was. */
  async abort(): Promise<void> {
    this.queue = [];
    // A write in flight finishes before its descriptor closes.
    while (this.flushing !== undefined) await this.flushing;
    const target = await this.target?.catch(() => undefined);
    if (target === undefined) return;
    if (target.replacement !== undefined) return target.replacement.discard();
    this.closeFile(target);
  }

  private closed = false;
  /** Closes the descriptor of an -o file written through, once. */
  private closeFile(target: Target): void {
    if (this.closed || target.fd === 1) return;
    this.closed = true;
    closeSync(target.fd);
  }

  private open(): Promise<Target> {
    const path = this.path;
    if (path === undefined) return (this.target ??= Promise.resolve({ fd: 1 }));
    return (this.target ??= openTarget(path).catch((e: unknown) => {
      throw new Failure(`${this.encrypting ? 'failed to write header: ' : ''}open ${path}: ${goErrorText(e)}`);
    }));
  }

  private async flush(): Promise<void> {
    try {
      const { fd } = await this.open();
      while (this.queue.length > 0) {
        const bytes = this.queue.shift()!;
        try {
          for (let at = 0; at < bytes.length; ) at += await writeSome(fd, bytes, at);
        } catch (e) {
          dieOnBrokenPipe(fd, e);
          throw e;
        }
        this.queued -= bytes.length;
      }
    } catch (e) {
      this.failed = e;
    } finally {
      // In the turn that found the queue empty: bytes written after it start a new flush (cleared any later, they would wait for none).
      this.flushing = undefined;
    }
  }
}

/** write(2) through libuv's pool (a pipe's EAGAIN retried), so the calling thread goes on while the output takes the bytes. */
function writeSome(fd: number, bytes: Uint8Array, at: number): Promise<number> {
  return new Promise((done, fail) =>
    write(fd, bytes, at, bytes.length - at, null, (e, n) => {
      if (e !== null && (e as { code?: string }).code === 'EAGAIN') return setTimeout(() => done(0), 1);
      if (e !== null) fail(e);
      else done(n);
    }),
  );
}

function readSome(fd: number, into: Uint8Array): Promise<number> {
  return new Promise((done, fail) =>
    read(fd, into, 0, into.length, null, (e, n) => {
      if (e !== null && (e as { code?: string }).code === 'EAGAIN') return setTimeout(() => done(-1), 1);
      if (e !== null) fail(e);
      else done(n);
    }),
  );
}

/** Bytes read at once: large reads cost the calling thread least per byte, and the codec seals or opens most of each in place. */
const READ = 4 << 20;

/**
 * Reads `fd` to its end, handing each read to `take` while the next read
 * goes on (two buffers in turn: `take` reads its bytes before it waits,
 * the pipeline's rule).
 */
export async function pump(fd: number, take: (bytes: Uint8Array) => Promise<void>, progress?: Progress): Promise<void> {
  const buffers = [new Uint8Array(READ), new Uint8Array(READ)];
  let turn = 0;
  let done = 0;
  let next = readSome(fd, buffers[0]!);
  for (;;) {
    const n = await next;
    if (n === 0) break;
    const current = buffers[turn]!;
    turn ^= 1;
    next = readSome(fd, buffers[turn]!);
    if (n < 0) continue;
    await take(current.subarray(0, n));
    done += n;
    progress?.update(done);
  }
  progress?.end();
}

/** A progress line for an input file of `size` bytes when standard error is a terminal and the file is large. */
export function progressFor(size: number, label: string): Progress | undefined {
  return isTerminal(2) && size >= 64 << 20 ? new Progress(label, size) : undefined;
}
