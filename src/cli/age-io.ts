/**
 * The age command's input and output: standard input, taken once (the
 * input, a recipients file or an identity file may be it, not two of
 * them); the input read in large pieces while the last is being
 * encrypted; the output written as the codec hands it on, to standard
 * output or to a file created at the first write (as age's lazy opener,
 * so that a decryption that fails at once leaves no file); a progress
 * line for large files.
 */
import { closeSync, fstatSync, openSync, read, write } from 'node:fs';
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

/** The output: standard output, or a file created (truncated) at the first write, as age's lazy opener. */
export class Output {
  private fd: number | undefined;
  private queue: Uint8Array[] = [];
  private queued = 0;
  private flushing: Promise<void> | undefined;
  private failed: unknown;

  constructor(private readonly path: string | undefined) {}

  /** Hands bytes on; they are written in order as the descriptor takes them. */
  write(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.queue.push(bytes);
    this.queued += bytes.length;
    this.flushing ??= this.flush();
  }

  /** Waits while more than `limit` bytes wait to be written: the output's backpressure. */
  async drain(limit = 8 << 20): Promise<void> {
    while (this.queued > limit && this.flushing !== undefined) await this.flushing;
    if (this.failed !== undefined) throw this.failed;
  }

  /** Creates the file even when nothing is written (age does, for an empty plaintext). */
  async close(): Promise<void> {
    this.open();
    await this.drain(0);
    if (this.path !== undefined && this.fd !== undefined) closeSync(this.fd);
  }

  private open(): number {
    if (this.fd === undefined) {
      try {
        this.fd = this.path === undefined ? 1 : openSync(this.path, 'w');
      } catch (e) {
        throw new Failure(`failed to open output file ${JSON.stringify(this.path)}: ${(e as Error).message}`);
      }
    }
    return this.fd;
  }

  private async flush(): Promise<void> {
    try {
      const fd = this.open();
      while (this.queue.length > 0) {
        const bytes = this.queue.shift()!;
        for (let at = 0; at < bytes.length; ) at += await writeSome(fd, bytes, at);
        this.queued -= bytes.length;
      }
    } catch (e) {
      this.failed = e;
    } finally {
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

/** A progress line for an input file of `fd` when standard error is a terminal and the file is large. */
export function progressFor(fd: number, label: string): Progress | undefined {
  if (!isTerminal(2)) return undefined;
  const size = fstatSync(fd).size;
  return size >= 64 << 20 ? new Progress(label, size) : undefined;
}
