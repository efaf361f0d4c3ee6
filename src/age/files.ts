/**
 * age files on a file system, file to file (Node, Deno, Bun): encryptFile
 * and decryptFile. The calling thread reads the header and hands out
 * pieces of chunks; each piece is read, sealed or opened and written at
 * its offsets by whoever does it (file-pieces.ts): a worker of the pool
 * (fourfold/parallel), or this thread between turns of the event loop
 * (fourfold/age). An age payload's layout is known in advance (chunk i at
 * i x 65,552 bytes after the nonce, its plaintext at i x 65,536), so no
 * piece waits for another. Armored output too: a base64 line holds 48
 * bytes, so each piece writes the lines it holds whole at their offsets
 * in the text, and this thread the lines two pieces share (armor-lines.ts
 * ArmoredRun, ArmoredLines). Armored input, and armor into a Blob, go
 * through the streaming codec on this thread instead. The call's ends,
 * its input opened and its output put in place, are file-ends.ts's.
 */
import { isArmored } from './armor-begin.js';
import { ArmoredLines, headLength } from './armor-lines.js';
import { Decryptor, Encryptor, type ReceiverOrAsk, type AgeRunners } from './codec.js';
import { AgeFormatError } from './errors.js';
import { type FilePayload, type FilePiece, type InputFile, type OutputFile, type PieceOutcome, type PieceSource, sinkFile, WHOLE } from './file-pieces.js';
import { forgetKeys, openHeader, type Receiver, receiverOf, type Sender, sealHeader, senderOf } from './file-key.js';
import { handleSource, readHeader } from './range-source.js';
import { endsOf, type FileCall, nameOf, openEnds } from './file-ends.js';
import { chunkFailure, NONCE_BYTES, payloadKey, SEALED_CHUNK, sealedLength } from './payload.js';
import { engine } from '../chacha/tiers.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';
import { AuthenticationError } from '../runtime/errors.js';

/** decryptFile's options. Any other property is refused (TypeError). */
export interface FileOptions {
  /** Stops the call: it rejects with the signal's reason, and the destination is left as it was. */
  signal?: AbortSignal;
  /** Called as the work goes on: bytes of the input done, of its total. */
  onProgress?: (done: number, total: number) => void;
}

/** encryptFile's options. */
export interface EncryptFileOptions extends FileOptions {
  /** ASCII armor, as encrypt's. */
  armor?: boolean;
}

function callOf(name: string, input: unknown, output: unknown, options: unknown, known: string[]): FileCall {
  const ends = endsOf(name, input, output);
  const o = (check.options(options, 'options', known) ?? {}) as EncryptFileOptions;
  const signal = o.signal === undefined ? undefined : check.abortSignal(o.signal, 'options.signal');
  const onProgress = o.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError(`options.onProgress must be a function, got ${check.describe(onProgress)}`);
  if (o.armor !== undefined && typeof o.armor !== 'boolean') throw new TypeError(`options.armor must be a boolean, got ${check.describe(o.armor)}`);
  return { ...ends, signal, onProgress, armor: o.armor === true, naming: true };
}

/** `e` with the file it is about in its message, for the errors of the format and of authentication. */
function naming(e: unknown, c: FileCall): unknown {
  if (c.naming && (e instanceof AgeFormatError || e instanceof AuthenticationError)) e.message = `${nameOf(c.input)}: ${e.message}`;
  return e;
}

/** Fails if the input's size is not `size` any more. */
async function sameSize(input: InputFile, size: number, file: PieceSource, error: (m: string) => Error): Promise<void> {
  const now = (await input.stat()).size;
  if (now !== size) throw error(`${nameOf(file)} changed size during the call (${size} bytes, then ${now})`);
}

/** Streams `input` through a codec (write, end) into `out`, in pieces of 1 MiB: for armor. */
async function throughCodec(c: FileCall, input: InputFile, size: number, out: OutputFile, coder: Encryptor | Decryptor, emitted: Uint8Array[]): Promise<void> {
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
function progress(c: FileCall, total: number): (bytes: number) => void {
  let done = 0;
  return (bytes) => {
    check.throwIfAborted(c.signal);
    done += bytes;
    c.onProgress?.(done, total);
  };
}

export async function encryptFileWith(
  runners: AgeRunners,
  input: unknown,
  output: unknown,
  to: unknown,
  options: unknown,
  extra: readonly unknown[],
): Promise<Blob | undefined> {
  check.noMoreArguments('encryptFile', ['input', 'output', 'to', 'options'], extra);
  const c = callOf('encryptFile', input, output, options, ['armor', 'signal', 'onProgress']);
  const sender = senderOf(to);
  try {
    return await sealFile(runners, c, sender);
  } finally {
    forgetKeys(sender);
  }
}

/** Encrypts the file `c.input` to `sender` into `c.output`, replaced once complete; resolves to the Blob, where the output is one. */
export async function sealFile(runners: AgeRunners, c: FileCall, sender: Sender): Promise<Blob | undefined> {
  check.throwIfAborted(c.signal);
  const { input: file, size, replacing } = await openEnds(c);
  try {
    return await replacing(async (to, out) => {
      // Armor into a Blob goes through the codec; into a file, each piece writes its own lines.
      if (c.armor && sinkFile(to) === undefined) {
        const emitted: Uint8Array[] = [];
        return throughCodec(c, file, size, out, new Encryptor(sender, true, runners, (b) => emitted.push(b)), emitted);
      }
      const { header, fileKey } = await sealHeader(sender, runners.scrypt);
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
      const key = payloadKey(fileKey, nonce);
      zeroize(fileKey);
      const outputAt = header.length + NONCE_BYTES;
      const lines = c.armor ? new ArmoredLines(outputAt + sealedLength(size), (text, at) => out.write(text, 0, text.length, at)) : undefined;
      try {
        if (lines === undefined) {
          await out.write(header, 0, header.length, 0);
          await out.write(nonce, 0, NONCE_BYTES, header.length);
        } else {
          lines.add(header, 0);
          lines.add(nonce, header.length);
        }
        const payload = { opening: false, key, run: WHOLE, from: c.input, inputAt: 0, length: size, to: c.armor ? { armored: sinkFile(to)! } : to, outputAt };
        const done = progress(c, size);
        let short = false;
        await runFiles(runners, payload, (p, o) => {
          short ||= o.short;
          if (o.part !== undefined) out.put!(o.part, p.writeAt);
          if (lines !== undefined && o.bytes !== undefined) addEdges(lines, o.bytes, p.writeAt, p.writeAt + sealedLength(p.length));
          done(p.length);
        });
        const changed = (m: string) => new Error(`age: ${m}`);
        if (short) throw changed(`${nameOf(c.input)} changed size during the call (it ended before its ${size} bytes)`);
        await sameSize(file, size, c.input, changed);
        await lines?.finish();
      } finally {
        zeroize(key);
        await lines?.settled();
      }
    });
  } finally {
    await file.close();
  }
}

/** Does every piece of `payload` on the runners' runner (pipeline.ts Runner.files), wiping what its threads hold of it after. */
export async function runFiles(runners: AgeRunners, payload: FilePayload, after: (p: FilePiece, outcome: PieceOutcome) => void): Promise<void> {
  const runner = runners.runner();
  try {
    await runner.files(payload, after);
  } finally {
    runner.done();
  }
}

/** An armored piece's edges (armor-lines.ts ArmoredRun.edges), binary bytes [start, end) of the file, given to the lines the call writes. */
function addEdges(lines: ArmoredLines, edges: Uint8Array, start: number, end: number): void {
  const head = headLength(start, end);
  lines.add(edges.subarray(0, head), start);
  lines.add(edges.subarray(head), end - (edges.length - head));
}

export async function decryptFileWith(
  runners: AgeRunners,
  input: unknown,
  output: unknown,
  from: unknown,
  options: unknown,
  extra: readonly unknown[],
): Promise<Blob | undefined> {
  check.noMoreArguments('decryptFile', ['input', 'output', 'from', 'options'], extra, ': decryptFile writes the plaintext to output');
  const c = callOf('decryptFile', input, output, options, ['signal', 'onProgress']);
  const receiver = receiverOf(from);
  try {
    return await openFile(runners, c, receiver);
  } finally {
    forgetKeys(receiver);
  }
}

/**
 * Decrypts the file `c.input` into `c.output`, replaced once every chunk
 * verified; `from` may be a function of the header's stanzas (the
 * command asks for a passphrase once it sees an scrypt stanza). Resolves
 * to the Blob, where the output is one.
 */
export async function openFile(runners: AgeRunners, c: FileCall, from: ReceiverOrAsk): Promise<Blob | undefined> {
  check.throwIfAborted(c.signal);
  const { input: file, size, replacing } = await openEnds(c);
  try {
    const start = new Uint8Array(Math.min(size, 1 << 16));
    const { bytesRead } = await file.read(start, 0, start.length, 0);
    const first = start.subarray(0, bytesRead);
    return await replacing(async (to, out) => {
      if (isArmored(first, bytesRead === size) === true) {
        const emitted: Uint8Array[] = [];
        return throughCodec(c, file, size, out, new Decryptor(from, runners, (b) => emitted.push(b)), emitted);
      }
      const header = await readHeader(await handleSource(file));
      const asked = typeof from === 'function' ? await from(header.stanzas) : undefined;
      let fileKey: Uint8Array;
      try {
        fileKey = await openHeader(header, asked ?? (from as Receiver), runners.scrypt);
      } finally {
        // A receiver made for this file is this call's to forget; one given is its caller's.
        if (asked !== undefined) forgetKeys(asked);
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
        const payload = { opening: true, key, run: WHOLE, from: c.input, inputAt, length: size - inputAt, to, outputAt: 0 };
        await openPayload(runners, payload, c, file, out, size);
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

/** The first piece of an open, by counter, in which a chunk did not verify, and how many of its chunks before it did. */
export type FirstFailure = { readonly p: FilePiece; readonly good: number } | undefined;

/** `first`, or piece `p` where it failed earlier in the payload. */
export function firstFailure(first: FirstFailure, p: FilePiece, o: PieceOutcome): FirstFailure {
  const failed = o.good < Math.ceil(p.length / SEALED_CHUNK);
  return failed && (first === undefined || p.run.counter < first.p.run.counter) ? { p, good: o.good } : first;
}

/** The AuthenticationError of the chunk that did not verify, read again through `read` to tell why (cut short, extended, changed). */
export async function firstFailureError(
  key: Uint8Array,
  { p, good }: NonNullable<FirstFailure>,
  read: (into: Uint8Array, at: number) => Promise<unknown>,
): Promise<Error> {
  const at = good * SEALED_CHUNK;
  const chunk = new Uint8Array(Math.min(SEALED_CHUNK, p.length - at));
  await read(chunk, p.readAt + at);
  const final = p.run.final && good === Math.ceil(p.length / SEALED_CHUNK) - 1;
  return chunkFailure(engine(), key, p.run.counter + good, final, chunk);
}

/** Opens every piece of `payload`; throws the AuthenticationError of the first chunk that did not verify, if any. */
async function openPayload(runners: AgeRunners, payload: FilePayload, c: FileCall, file: InputFile, out: OutputFile, size: number): Promise<void> {
  const cut = (m: string) => new AuthenticationError(m);
  if (payload.length === 0) throw chunkFailure(engine(), payload.key, 0, true, new Uint8Array(0));
  const done = progress(c, payload.length);
  let first: FirstFailure;
  let short = false;
  await runFiles(runners, payload, (p, o) => {
    short ||= o.short;
    first = firstFailure(first, p, o);
    if (o.part !== undefined) out.put!(o.part, p.writeAt);
    done(p.length);
  });
  if (short) throw cut(`the file changed size during the call (it ended before its ${size} bytes)`);
  await sameSize(file, size, c.input, cut);
  if (first !== undefined) throw await firstFailureError(payload.key, first, (into, at) => file.read(into, 0, into.length, at));
}
