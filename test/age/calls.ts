/**
 * Every call of fourfold/age and fourfold/parallel's age that encrypts a
 * whole input and decrypts a whole file, as a pair, for the tests that
 * check a key type through each of them.
 */
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { NO_STREAMS } from '../helpers.js';

const CHUNK = 65536;
export const NO_BLOB: false | string = typeof Blob === 'function' ? false : 'not applicable: this engine has no Blob';

/** All of a stream's output for `input`, written in pieces of `piece` bytes. */
export async function through(stream: TransformStream<Uint8Array, Uint8Array>, input: Uint8Array, piece: number): Promise<Uint8Array> {
  const reading = new Response(stream.readable).arrayBuffer();
  // A failed stream rejects both ends: the write's rejection is the one reported.
  reading.catch(() => {});
  const writer = stream.writable.getWriter();
  for (let at = 0; at < input.length; at += piece) await writer.write(input.slice(at, at + piece));
  await writer.close();
  return new Uint8Array(await reading);
}

/** A call pair: encrypt `data` to `to`, decrypt `file` with `from`; `skip` where the engine lacks what it needs. */
export interface AgeCalls {
  readonly name: string;
  readonly skip: false | string;
  seal(data: Uint8Array, to: age.AgeTo): Promise<Uint8Array>;
  open(file: Uint8Array, from: age.AgeFrom): Promise<Uint8Array>;
}

/** One-shot, streams (pieces across chunk boundaries) and Blob file calls, on this thread and on the pool. */
export const AGE_CALLS: readonly AgeCalls[] = [
  { name: 'fourfold/age one-shot', skip: false, seal: (d, to) => age.encrypt(d, to), open: (f, from) => age.decrypt(f, from) },
  { name: 'parallel one-shot', skip: false, seal: (d, to) => parallelAge.encrypt(d, to), open: (f, from) => parallelAge.decrypt(f, from) },
  {
    name: 'fourfold/age streams',
    skip: NO_STREAMS,
    seal: (d, to) => through(age.encryptStream(to), d, 50_000),
    open: (f, from) => through(age.decryptStream(from), f, 7000),
  },
  {
    name: 'parallel streams',
    skip: NO_STREAMS,
    seal: (d, to) => through(parallelAge.encryptStream(to), d, CHUNK),
    open: (f, from) => through(parallelAge.decryptStream(from), f, CHUNK + 16),
  },
  {
    name: 'parallel file calls on Blobs',
    skip: NO_BLOB,
    seal: async (d, to) => new Uint8Array(await (await parallelAge.encryptFile(new Blob([d as Uint8Array<ArrayBuffer>]), undefined, to))!.arrayBuffer()),
    open: async (f, from) => new Uint8Array(await (await parallelAge.decryptFile(new Blob([f as Uint8Array<ArrayBuffer>]), undefined, from))!.arrayBuffer()),
  },
];
