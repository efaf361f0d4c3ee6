/**
 * An age file read by byte ranges: a RangeSource (decryptRange's input),
 * a file handle's positioned reads as one, exact reads, and the header at
 * the start of one, read until it parses. decryptRange (range.ts) and the
 * file calls (files.ts) both read a binary file's header through it.
 */
import { isArmored } from './armor-begin.js';
import { AgeFormatError } from './errors.js';
import { type Header, HeaderReader } from './header.js';
import * as check from '../runtime/assert.js';

/** Anything that reads byte ranges of a file of known size. */
export interface RangeSource {
  /** The file's bytes. */
  readonly size: number;
  /** `length` bytes from `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** The methods of a Node FileHandle (node:fs/promises open()) that decryptRange uses. */
export interface FileHandleLike {
  /** The file's size. */
  stat(): Promise<{
    /** Bytes. */
    size: number | bigint;
  }>;
  /** Reads `length` bytes at `position` into `buffer` from `offset`. */
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{
    /** Bytes read: fewer than asked only at the end of the file. */
    bytesRead: number;
  }>;
}

/** `handle`'s positioned reads as a RangeSource, of the size it has now. */
export async function handleSource(handle: FileHandleLike): Promise<RangeSource> {
  const size = Number((await handle.stat()).size);
  return {
    size,
    read: async (offset, length) => {
      const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      let got = 0;
      while (got < buffer.length) {
        const { bytesRead } = await handle.read(buffer, got, buffer.length - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buffer.subarray(0, got);
    },
  };
}

/** Exactly `length` bytes at `offset`, or an AgeFormatError: the source gave fewer than its size promised. */
export async function readExactly(source: RangeSource, offset: number, length: number): Promise<Uint8Array> {
  const bytes = check.bytes(await source.read(offset, length), 'what source.read returned');
  if (bytes.length !== length) throw new AgeFormatError(`the source gave ${bytes.length} bytes at ${offset}, not the ${length} its size promises`);
  return bytes;
}

/**
 * The header at the start of `source`: reads more until it parses, each
 * byte once. Binary files only: an armored one is refused (the file calls
 * send armor through the codec before they get here).
 */
export async function readHeader(source: RangeSource): Promise<Header> {
  const reader = new HeaderReader();
  for (let at = 0, length = 4096; ; at += length, length *= 2) {
    const bytes = await readExactly(source, at, Math.min(length, source.size - at));
    const ended = at + bytes.length === source.size;
    if (at === 0 && isArmored(bytes, ended)) throw new AgeFormatError('an armored file: random access needs the binary form (decrypt it whole instead)');
    const read = reader.push(bytes);
    if (read !== undefined) return read.header;
    if (ended) throw reader.ended();
  }
}
