/**
 * An age file opened once for many reads by range: decryptRange's work
 * (range.ts) split in two, so that the header is read and unwrapped (an
 * X25519 exchange, or scrypt for a passphrase) and the final chunk opened
 * once, and then each read reads and opens only the chunks its range
 * needs (C2SP age, "Payload": the payload can be seeked in chunk
 * increments). The payload key stays in memory until close(). A media
 * player reading a file bit by bit (rangeResponse, range-response.ts)
 * needs this: a decryptRange per piece would redo the header each time.
 */
import { AgeFormatError } from './errors.js';
import type { AgeRunners } from './codec.js';
import { forgetKeys, openHeader, receiverOf } from './file-key.js';
import { NONCE_BYTES, PLAIN_CHUNK, payloadKey } from './payload.js';
import { finalChunk, openSource, type RangeOpened, rangeOf, readAndOpen } from './range.js';
import { readExactly, readHeader } from './range-source.js';
import * as check from '../runtime/assert.js';
import { type Bytes, zeroize } from '../runtime/bytes.js';

/** An age file opened for reads by range (openRangeReader). */
export interface RangeReader {
  /** The plaintext's length, from the header's end and the final chunk (which opened). */
  readonly size: number;
  /** Plaintext bytes [start, end), clamped to the size; rejects with AuthenticationError where a chunk they need does not verify. */
  read(start: number, end: number): Promise<Bytes>;
  /**
   * Plaintext bytes [start, end) (default: all of it) as a stream, read
   * and opened a chunk at a time as it is read; a chunk that does not
   * verify errors the stream (AuthenticationError), its bytes never sent.
   */
  stream(start?: number, end?: number): ReadableStream<Uint8Array>;
  /** Wipes the payload key once the reads in flight have settled, and closes what the reader opened (a path's file). Reads after it reject. */
  close(): Promise<void>;
}

/** openRangeReader: the header opened, the final chunk verified, then a RangeReader. */
export async function openRangeReaderWith(runners: AgeRunners, input: unknown, from: unknown, extra: readonly unknown[]): Promise<RangeReader> {
  check.noMoreArguments('openRangeReader', ['source', 'from'], extra);
  const receiver = receiverOf(from);
  let key: Uint8Array | undefined;
  let opened: RangeOpened | undefined;
  try {
    opened = await openSource(input);
    const { source } = opened;
    const header = await readHeader(source);
    const fileKey = await openHeader(header, receiver, runners.scrypt);
    const payloadAt = header.length + NONCE_BYTES;
    if (source.size < payloadAt) {
      zeroize(fileKey);
      throw new AgeFormatError(`the file ends before its ${NONCE_BYTES}-byte payload nonce`);
    }
    key = payloadKey(fileKey, await readExactly(source, header.length, NONCE_BYTES));
    zeroize(fileKey);
    const size = await finalChunk(source, payloadAt, key);
    return new OpenedRange(runners, opened, payloadAt, key, size);
  } catch (e) {
    if (key !== undefined) zeroize(key);
    await opened?.close();
    throw e;
  } finally {
    forgetKeys(receiver);
  }
}

/** The RangeReader of an opened file: its source, where its payload starts, its payload key and plaintext length. */
class OpenedRange implements RangeReader {
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly runners: AgeRunners,
    private readonly opened: RangeOpened,
    private readonly payloadAt: number,
    private readonly key: Uint8Array,
    readonly size: number,
  ) {}

  read(start: number, end: number, ...extra: unknown[]): Promise<Bytes> {
    check.noMoreArguments('read', ['start', 'end'], extra);
    const first = check.count(start, 'start');
    const last = check.count(end, 'end');
    if (last < first) throw new RangeError(`end (${last}) must not be below start (${first})`);
    if (this.closing !== undefined) return Promise.reject(new TypeError('the reader was closed'));
    const from = Math.min(first, this.size);
    const to = Math.min(last, this.size);
    if (from === to) return Promise.resolve(new Uint8Array(0));
    const reading = readAndOpen(this.runners, this.opened.source, this.key, rangeOf(this.opened.source, this.payloadAt, from, to, this.size));
    this.inFlight.add(reading);
    const forget = () => this.inFlight.delete(reading);
    reading.then(forget, forget);
    return reading;
  }

  stream(start = 0, end = this.size, ...extra: unknown[]): ReadableStream<Uint8Array> {
    check.noMoreArguments('stream', ['start', 'end'], extra);
    let at = Math.min(check.count(start, 'start'), this.size);
    const to = Math.min(check.count(end, 'end'), this.size);
    if (to < at) throw new RangeError(`end (${to}) must not be below start (${at})`);
    let cancelled = false;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          // A chunk's plaintext at a time, each when the reader asks for it (highWaterMark 0: an error
          // empties a stream's queue, so none is held there); the source fetches the next ones ahead.
          const next = Math.min(to, (Math.floor(at / PLAIN_CHUNK) + 1) * PLAIN_CHUNK);
          const bytes = at < next ? await this.read(at, next) : undefined;
          if (cancelled) return; // a read that was under way when the reader went away
          if (bytes !== undefined) controller.enqueue(bytes);
          at = next;
          if (at >= to) controller.close();
        },
        cancel: () => {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
  }

  close(): Promise<void> {
    // Each read settled, failed or not; Promise.all over caught ones, as Hermes has no Promise.allSettled.
    this.closing ??= Promise.all([...this.inFlight].map((read) => read.catch(() => undefined))).then(async () => {
      zeroize(this.key);
      await this.opened.close();
    });
    return this.closing;
  }
}
