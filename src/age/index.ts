/**
 * age (C2SP age v1, age-encryption.org/v1), the file format of the Go
 * `age`, Rust `rage` and TypeScript `typage` tools: files and streams
 * encrypted to X25519 recipients ("age1...") or a passphrase (scrypt), in
 * 64 KiB chunks sealed with ChaCha20-Poly1305, armored or binary. These run
 * on the calling thread; fourfold/parallel's `age` has the same calls on
 * every core.
 */
import { decryptStreamWith, decryptWith, type EncryptOptions, encryptStreamWith, encryptWith } from './api.js';
import type { AgeFrom, AgeTo } from './file-key.js';
import type { WritableFileHandle } from './blob-files.js';
import type { AgeRunners } from './codec.js';
import { decryptFileOn, decryptRangeOn, encryptFileOn } from './file-calls.js';
import type { EncryptFileOptions, FileOptions } from './files.js';
import type { PathOrHandle } from './file-ends.js';
import { hereRunner } from './here.js';
import type { RangeInput } from './range.js';
import { openRangeReaderOn } from './range-calls.js';
import type { RangeReader } from './range-reader.js';
import { lazyScrypt } from './recipients.js';
import type { Bytes } from '../runtime/bytes.js';

export { AgeFormatError, NoIdentityMatchError } from './errors.js';
export type { AgeFrom, AgeTo, FromIdentities, FromPassphrase, ToPassphrase, ToRecipients } from './file-key.js';
export type { ObjectIdentity, ObjectRecipient, ObjectStanza } from './custom-keys.js';
/** Passkeys and security keys (WebAuthn's PRF extension) as recipients and identities, as typage's webauthn module. */
export * as webauthn from './webauthn.js';
export type { EncryptOptions } from './api.js';
export type { EncryptFileOptions, FileOptions } from './files.js';
export type { FileHandle, PathOrHandle } from './file-ends.js';
export type { WritableFile, WritableFileHandle } from './blob-files.js';
export { generateHybridIdentity, generateIdentity } from './keys.js';
export { identityToRecipient } from './key-recipients.js';
export type { HybridIdentity, SshKeyWithPassphrase, X25519Identity } from './keys.js';
export type { RangeInput } from './range.js';
export type { FileHandleLike, RangeSource } from './range-source.js';
export { httpRangeSource, RangeRequestError, rangeResponse } from './range-calls.js';
export type { HttpRangeOptions, HttpRangeSource, HttpRangeStats } from './http-source.js';
export type { RangeReader } from './range-reader.js';
export type { RangeResponseOptions } from './range-response.js';

/**
 * This thread: chunks and file pieces through the chacha engine here,
 * scrypt in short turns (fourfold/scrypt's scryptAsync, imported the first
 * time a call takes a passphrase; the specifier is in parentheses to keep
 * Vite's preload helper out, as keys.ts explains).
 */
const THIS_THREAD: AgeRunners = {
  runner: () => hereRunner,
  // biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
  scrypt: lazyScrypt(async () => (await import(('../scrypt/index.js'))).scryptAsync),
};

/**
 * `data` encrypted to `to` (X25519 recipients, or a passphrase): an age
 * file, binary, or ASCII-armored with `{ armor: true }`.
 *
 * @example
 * ```ts
 * import { encrypt, decrypt, generateIdentity, identityToRecipient } from 'fourfold/age';
 * const identity = generateIdentity();
 * const file = await encrypt(new TextEncoder().encode('hello'), { recipients: [identityToRecipient(identity)] });
 * const back = await decrypt(file, { identities: [identity] });
 * ```
 */
export function encrypt(data: Uint8Array, to: AgeTo, options?: EncryptOptions): Promise<Bytes>;
export function encrypt(data: Uint8Array, to: AgeTo, options?: EncryptOptions, ...extra: unknown[]): Promise<Bytes> {
  return encryptWith(THIS_THREAD, data, to, options, extra);
}

/**
 * The plaintext of the age file `file` (binary or armored) for `from`
 * (identities, or a passphrase). Rejects with AgeFormatError for a
 * malformed file, NoIdentityMatchError when nothing in `from` opens it,
 * AuthenticationError when it was changed, cut short or extended.
 */
export function decrypt(file: Uint8Array, from: AgeFrom): Promise<Bytes>;
export function decrypt(file: Uint8Array, from: AgeFrom, ...extra: unknown[]): Promise<Bytes> {
  return decryptWith(THIS_THREAD, file, from, extra);
}

/**
 * A TransformStream that encrypts the bytes written to it to `to`: an
 * age file of any size, in memory a couple of chunks at a time.
 *
 * @example
 * ```ts
 * import { encryptStream } from 'fourfold/age';
 * const encrypted = file.stream().pipeThrough(encryptStream({ passphrase: 'correct horse battery staple' }));
 * ```
 */
export function encryptStream(to: AgeTo, options?: EncryptOptions): TransformStream<Uint8Array, Uint8Array>;
export function encryptStream(to: AgeTo, options?: EncryptOptions, ...extra: unknown[]): TransformStream<Uint8Array, Uint8Array> {
  return encryptStreamWith(THIS_THREAD, to, options, extra);
}

/**
 * A TransformStream that decrypts an age file (binary or armored) written
 * to it, releasing plaintext a piece of chunks at a time, each chunk only
 * after its tag verified; a file cut short, extended or changed errors the
 * stream (AuthenticationError) after the plaintext that did verify.
 */
export function decryptStream(from: AgeFrom): TransformStream<Uint8Array, Uint8Array>;
export function decryptStream(from: AgeFrom, ...extra: unknown[]): TransformStream<Uint8Array, Uint8Array> {
  return decryptStreamWith(THIS_THREAD, from, extra);
}

/**
 * The plaintext bytes [start, end) of a binary age file (clamped to its
 * length), reading only the header, the chunks the range needs and the
 * final chunk: `source` is a Blob or File, a path (Node, Deno, Bun), a
 * Node file handle (node:fs/promises open()), or { size, read(offset,
 * length) }.
 *
 * @example
 * ```ts
 * import { decryptRange } from 'fourfold/age';
 * const part = await decryptRange(file, 1_000_000, 2_000_000, { identities: [identity] }); // 1 MB from 1 MB in
 * ```
 */
export function decryptRange(source: RangeInput, start: number, end: number, from: AgeFrom): Promise<Bytes>;
export function decryptRange(source: RangeInput, start: number, end: number, from: AgeFrom, ...extra: unknown[]): Promise<Bytes> {
  return decryptRangeOn(THIS_THREAD, source, start, end, from, extra);
}

/**
 * The age file `source` (what decryptRange reads: a Blob, a path, a file
 * handle, { size, read }, or httpRangeSource's file on a server) opened
 * once for many reads by range: its header is read and unwrapped and its
 * final chunk verified now, then each read or stream of the RangeReader
 * reads and opens only the chunks its range needs. rangeResponse answers
 * a Service Worker's Range requests with one. close() wipes its key.
 *
 * @example
 * ```ts
 * import { httpRangeSource, openRangeReader } from 'fourfold/age';
 * const reader = await openRangeReader(await httpRangeSource('/film.webm.age'), { identities: [identity] });
 * const part = await reader.read(1_000_000, 2_000_000);
 * ```
 */
export function openRangeReader(source: RangeInput, from: AgeFrom): Promise<RangeReader>;
export function openRangeReader(source: RangeInput, from: AgeFrom, ...extra: unknown[]): Promise<RangeReader> {
  return openRangeReaderOn(THIS_THREAD, source, from, extra);
}

/**
 * Encrypts the file at `input` to `to` into the file at `output` (Node,
 * Deno, Bun): binary, or armored with `{ armor: true }`. The output is
 * written beside `output` and renamed over it once complete; a failure or
 * an abort (`signal`) leaves `output` as it was. `onProgress(done, total)`
 * follows the input's bytes. fourfold/parallel's age does it on every core.
 * Either file may be a FileHandle (node:fs/promises open()) instead, kept
 * open until the call settles: an output handle is written from its start
 * and, as it cannot be replaced, emptied on a failure.
 *
 * @example
 * ```ts
 * import { encryptFile } from 'fourfold/age';
 * await encryptFile('report.pdf', 'report.pdf.age', { recipients: ['age1...'] });
 * ```
 */
export function encryptFile(input: PathOrHandle, output: PathOrHandle, to: AgeTo, options?: EncryptFileOptions): Promise<void>;
/** encryptFile in a browser: a Blob or File into a Blob, resolved once complete (the workers read the input and make the Blob's parts). */
export function encryptFile(input: Blob, output: undefined, to: AgeTo, options?: EncryptFileOptions): Promise<Blob>;
/** encryptFile into a FileSystemFileHandle, whose contents are replaced once the output is complete and kept as they were on a failure. */
export function encryptFile(input: Blob, output: WritableFileHandle, to: AgeTo, options?: EncryptFileOptions): Promise<void>;
export function encryptFile(
  input: PathOrHandle | Blob,
  output: PathOrHandle | WritableFileHandle | undefined,
  to: AgeTo,
  options?: EncryptFileOptions,
  ...extra: unknown[]
): Promise<unknown> {
  return encryptFileOn(THIS_THREAD, input, output, to, options, extra);
}

/**
 * Decrypts the age file at `input` (binary or armored) for `from` into the
 * file at `output`, which is put in place only once every chunk verified:
 * a wrong key, a changed or cut file, or an abort leaves `output` as it was
 * and no plaintext anywhere. Rejects as decrypt does, the message naming
 * the file.
 */
export function decryptFile(input: PathOrHandle, output: PathOrHandle, from: AgeFrom, options?: FileOptions): Promise<void>;
/** decryptFile in a browser: a Blob or File into a Blob, resolved only once every chunk verified. */
export function decryptFile(input: Blob, output: undefined, from: AgeFrom, options?: FileOptions): Promise<Blob>;
/** decryptFile into a FileSystemFileHandle, replaced only once every chunk verified and kept as it was on a failure. */
export function decryptFile(input: Blob, output: WritableFileHandle, from: AgeFrom, options?: FileOptions): Promise<void>;
export function decryptFile(
  input: PathOrHandle | Blob,
  output: PathOrHandle | WritableFileHandle | undefined,
  from: AgeFrom,
  options?: FileOptions,
  ...extra: unknown[]
): Promise<unknown> {
  return decryptFileOn(THIS_THREAD, input, output, from, options, extra);
}
