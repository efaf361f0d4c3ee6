/**
 * The decrypting entries of the age family that take their bytes some
 * other way than a Uint8Array argument, for the class tests of shared
 * input (read-once.test.ts) and of results (results.test.ts): the typage
 * API (fourfold/age/typage: Decrypter.decrypt of bytes, of armored text
 * and of a ReadableStream, decryptHeader) and the reads by range
 * (openRangeReader, rangeResponse, httpRangeSource). Where an entry
 * cannot be given a SharedArrayBuffer itself, it is given the form that
 * carries shared bytes there: a source whose reads are views of the
 * shared file, a stream whose chunks are, a fetch whose Response bodies
 * are; another thread changing that memory changes what the entry reads.
 */
import * as age from 'fourfold/age';
import * as typage from 'fourfold/age/typage';
import { concat, ENGINE_HAS_FETCH_API, NO_STREAMS } from '../helpers.js';

/** A decryption: seal makes a ciphertext of `plain`; open decrypts one, into `out` when given, and returns the plaintext. */
export interface Opener {
  name: string;
  seal(plain: Uint8Array): Uint8Array | Promise<Uint8Array>;
  open(ciphertext: Uint8Array, out?: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Whether open takes an output. */
  output: boolean;
  /** The message sizes it is raced at (default: the test's). */
  sizes?: readonly number[];
  /** Skip it, and why (an engine without web streams). */
  skip?: false | string;
  /** Whether its pieces may all go to workers at these sizes (then none may reach this thread's node:crypto). */
  workers?: boolean;
  /**
   * Whether it copies the caller's bytes into shared buffers of its own,
   * which OpenSSL may read in place (no thread writes them while a result
   * read from them may be used): fourfold/parallel's age decryptStream.
   */
  ownShared?: boolean;
  /** Whether it has no native path (XSalsa20, secretstream, a header's MAC): node:crypto has neither. */
  ownOnly?: boolean;
  /** The byte another thread changes (default the middle: a byte of the message). */
  spot?(sealed: Uint8Array): number;
  /** What open resolves to for `sealed` as sealed (default the plaintext): decryptHeader's file key. */
  expect?(sealed: Uint8Array): Promise<Uint8Array>;
}

/**
 * The bytes a decryptStream gives for `file`, or its error: written as its
 * first 1000 bytes (the header, the nonce, the payload's start), then the
 * rest, views of the caller's (shared) memory, which the stream may read
 * in place.
 */
export async function streamed(stream: TransformStream<Uint8Array, Uint8Array>, file: Uint8Array): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const writing = (async () => {
    await writer.write(file.subarray(0, 1000));
    await writer.write(file.subarray(1000));
    await writer.close();
  })();
  const parts: Uint8Array[] = [];
  try {
    parts.push(...(await readAll(stream.readable)));
  } finally {
    await writing.catch(() => {});
  }
  await writing;
  return concat(...parts);
}

/** Every chunk of `readable`, or its error. */
async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  const reader = readable.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}

/**
 * `file` as a ReadableStream of views of its memory, as streamed() writes
 * it: what a stream over shared memory gives (a stream cannot be a
 * SharedArrayBuffer, its chunks can), so another thread writes what the
 * decryption reads.
 */
export const chunksOf = (file: Uint8Array): ReadableStream<Uint8Array> => {
  const pieces = [file.subarray(0, 1000), file.subarray(1000)];
  return new ReadableStream<Uint8Array>({ pull: (c) => (pieces.length > 0 ? c.enqueue(pieces.shift()!) : c.close()) });
};

/** A RangeSource whose reads are views of `file`, as one over shared memory may give. */
export const viewSource = (file: Uint8Array) => ({ size: file.length, read: async (at: number, n: number) => file.subarray(at, at + n) });

/**
 * A fetch (httpRangeSource's option) that answers Range requests from
 * `file`, each body a stream of views of its memory: bytes arriving in a
 * Response, which another thread can change until the source has read them.
 */
export function rangeFetch(file: Uint8Array): (url: string, init: RequestInit) => Promise<Response> {
  return async (_url, init) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(new Headers(init.headers).get('range') ?? '');
    if (range === null) return new Response(null, { status: 400 });
    const start = Number(range[1]);
    const end = Math.min(file.length, Number(range[2]) + 1);
    if (start >= file.length) return new Response(null, { status: 416, headers: { 'content-range': `bytes */${file.length}` } });
    const headers = { 'content-range': `bytes ${start}-${end - 1}/${file.length}`, 'content-length': String(end - start) };
    return new Response(chunksOf(file.subarray(start, end)), { status: 206, headers });
  };
}

/** The first ASCII letter at or after `at`: a base64 character whose case another thread can flip and leave base64. */
export function letterFrom(bytes: Uint8Array, at: number): number {
  for (let i = at; i < bytes.length; i++) if ((bytes[i]! | 0x20) >= 0x61 && (bytes[i]! | 0x20) <= 0x7a) return i;
  throw new Error(`no letter from byte ${at}`);
}

/** A letter of the header's MAC (past its first character, before its last, which carries padding bits). */
const macLetter = (file: Uint8Array): number => letterFrom(file, new TextDecoder('latin1').decode(file.subarray(0, 4096)).indexOf('\n--- ') + 8);

/** Where Response and Request are missing (node --jitless, Hermes), why the reads over HTTP do not apply. */
export const NO_FETCH: false | string = NO_STREAMS || (ENGINE_HAS_FETCH_API ? false : 'not applicable: this engine has no Response or Request');

/** A range's plaintext as rangeResponse serves it: the body's bytes, or the error a 502 reports (nothing of the range verified). */
async function served(reader: age.RangeReader): Promise<Uint8Array> {
  const response = await age.rangeResponse(new Request('https://fourfold.test/file', { headers: { range: 'bytes=0-' } }), reader);
  if (response.status === 502) {
    const text = await response.text();
    // The 502 names the first chunk's error: an AuthenticationError there is the refusal the race counts.
    if (text.startsWith('AuthenticationError: ')) throw new typage.AuthenticationError(text.slice('AuthenticationError: '.length));
    throw new Error(`rangeResponse: 502 ${text}`);
  }
  return concat(...(await readAll(response.body!)));
}

/** `read` of the RangeReader of `source`, which is closed after. */
export async function withReader(source: Parameters<typeof age.openRangeReader>[0], from: age.AgeFrom, read: (r: age.RangeReader) => Promise<Uint8Array>) {
  const reader = await age.openRangeReader(source, from);
  try {
    return await read(reader);
  } finally {
    await reader.close();
  }
}

/** A typage Decrypter with `identity`. */
export function decrypterOf(identity: string): typage.Decrypter {
  const d = new typage.Decrypter();
  d.addIdentity(identity);
  return d;
}

/**
 * The typage API's and the range reads' openers for files to `identity`
 * (an X25519 identity string), at `sizes` (the test's own) and `large`
 * (past PARALLEL_MIN: the typage API then opens chunks on the pool).
 */
export function ageApiOpeners(
  identity: ReturnType<typeof age.generateIdentity>,
  sizes: readonly number[],
  large: number,
  streamSizes: readonly number[],
): Opener[] {
  const to = { recipients: [age.identityToRecipient(identity)] };
  const from = { identities: [identity] };
  const decrypter = () => decrypterOf(identity);
  const seal = (m: Uint8Array) => age.encrypt(m, to);
  return [
    { name: 'typage Decrypter.decrypt', seal, open: (c) => decrypter().decrypt(c), output: false, sizes: [...sizes, large] },
    {
      name: 'typage Decrypter.decrypt, "text"',
      // Printable ASCII, which UTF-8 decodes and encodes back byte for byte.
      seal: (m) => seal(m.map((b) => 0x20 + (b & 0x3f))),
      open: async (c) => new TextEncoder().encode(await decrypterOf(identity).decrypt(c, 'text')),
      output: false,
      expect: async (c) => new TextEncoder().encode(await decrypterOf(identity).decrypt(c.slice(), 'text')),
    },
    {
      name: 'typage Decrypter.decrypt, armored',
      seal: async (m) => new TextEncoder().encode(typage.armor.encode(await seal(m))),
      open: (c) => decrypter().decrypt(c),
      output: false,
      // A letter of the armor's base64 (its case flipped, it is still base64): the file decodes to another ciphertext.
      spot: (c) => letterFrom(c, c.length >> 1),
    },
    {
      name: 'typage Decrypter.decrypt, a ReadableStream',
      seal,
      open: async (c) => concat(...(await readAll(await decrypter().decrypt(chunksOf(c))))),
      output: false,
      sizes: streamSizes,
      skip: NO_STREAMS,
    },
    {
      name: 'typage Decrypter.decryptHeader',
      seal,
      open: (c) => decrypter().decryptHeader(c),
      output: false,
      sizes: [sizes[0]!],
      spot: macLetter,
      // The file key the header gives when no thread changes it.
      expect: (c) => decrypter().decryptHeader(c.slice()),
      // An HMAC and a 32-byte stanza body: nothing reaches node:crypto's ChaCha.
      ownOnly: true,
    },
    {
      name: 'age openRangeReader read',
      seal,
      open: (c) => withReader(viewSource(c), from, (r) => r.read(0, r.size)),
      output: false,
    },
    {
      name: 'age rangeResponse',
      seal,
      open: (c) => withReader(viewSource(c), from, served),
      output: false,
      skip: NO_FETCH,
    },
    {
      name: 'age httpRangeSource',
      seal,
      open: async (c) => {
        const source = await age.httpRangeSource('https://fourfold.test/file.age', { fetch: rangeFetch(c) });
        return withReader(source, from, (r) => r.read(0, r.size));
      },
      output: false,
      skip: NO_FETCH,
    },
  ];
}
