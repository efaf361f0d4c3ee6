/**
 * fourfold/parallel's age: fourfold/age's calls, with the same arguments
 * and bytes, on every core (age-pool.ts: pieces of chunks on the pool's
 * workers and the calling thread, scrypt on a worker).
 */
import { decryptStreamWith, decryptWith, type EncryptOptions, encryptStreamWith, encryptWith } from '../age/api.js';
import type { AgeFrom, AgeTo } from '../age/file-key.js';
import type { WritableFileHandle } from '../age/blob-files.js';
import { decryptFileOn, decryptRangeOn, encryptFileOn } from '../age/file-calls.js';
import type { EncryptFileOptions, FileOptions } from '../age/files.js';
import type { PathOrHandle } from '../age/file-ends.js';
import { POOL_RUNNERS } from './age-pool.js';
import type { RangeInput } from '../age/range.js';
import { openRangeReaderOn } from '../age/range-calls.js';
import type { RangeReader } from '../age/range-reader.js';
import type { Bytes } from '../runtime/bytes.js';

export { AgeFormatError, NoIdentityMatchError } from '../age/errors.js';
export type { AgeFrom, AgeTo, FromIdentities, FromPassphrase, ToPassphrase, ToRecipients } from '../age/file-key.js';
export type { ObjectIdentity, ObjectRecipient, ObjectStanza } from '../age/custom-keys.js';
/** Passkeys and security keys (WebAuthn's PRF extension) as recipients and identities, as typage's webauthn module. */
export * as webauthn from '../age/webauthn.js';
export type { EncryptOptions } from '../age/api.js';
export type { EncryptFileOptions, FileOptions } from '../age/files.js';
export type { FileHandle, PathOrHandle } from '../age/file-ends.js';
export type { WritableFile, WritableFileHandle } from '../age/blob-files.js';
export { generateHybridIdentity, generateIdentity } from '../age/keys.js';
export { identityToRecipient } from '../age/key-recipients.js';
export type { HybridIdentity, X25519Identity } from '../age/keys.js';
export type { RangeInput } from '../age/range.js';
export type { FileHandleLike, RangeSource } from '../age/range-source.js';
export { httpRangeSource, RangeRequestError, rangeResponse } from '../age/range-calls.js';
export type { HttpRangeOptions, HttpRangeSource, HttpRangeStats } from '../age/http-source.js';
export type { RangeReader } from '../age/range-reader.js';
export type { RangeResponseOptions } from '../age/range-response.js';

/**
 * fourfold/age's encrypt, on every core: the same bytes (but for the
 * random file key and nonce), the calling thread free for the most part.
 *
 * @example
 * ```ts
 * import { age } from 'fourfold/parallel';
 * const file = await age.encrypt(bytes, { recipients: ['age1...'] });
 * ```
 */
export function encrypt(data: Uint8Array, to: AgeTo, options?: EncryptOptions): Promise<Bytes>;
export function encrypt(data: Uint8Array, to: AgeTo, options?: EncryptOptions, ...extra: unknown[]): Promise<Bytes> {
  return encryptWith(POOL_RUNNERS, data, to, options, extra);
}

/** fourfold/age's decrypt, on every core. */
export function decrypt(file: Uint8Array, from: AgeFrom): Promise<Bytes>;
export function decrypt(file: Uint8Array, from: AgeFrom, ...extra: unknown[]): Promise<Bytes> {
  return decryptWith(POOL_RUNNERS, file, from, extra);
}

/**
 * fourfold/age's encryptStream, its chunks sealed on every core in
 * pieces of about 1 MiB as they come, emitted in order.
 *
 * @example
 * ```ts
 * import { age } from 'fourfold/parallel';
 * await file.stream().pipeThrough(age.encryptStream({ recipients: [recipient] })).pipeTo(writable);
 * ```
 */
export function encryptStream(to: AgeTo, options?: EncryptOptions): TransformStream<Uint8Array, Uint8Array>;
export function encryptStream(to: AgeTo, options?: EncryptOptions, ...extra: unknown[]): TransformStream<Uint8Array, Uint8Array> {
  return encryptStreamWith(POOL_RUNNERS, to, options, extra);
}

/** fourfold/age's decryptStream, its chunks opened on every core in pieces as they come, released in order, each chunk after its tag verified. */
export function decryptStream(from: AgeFrom): TransformStream<Uint8Array, Uint8Array>;
export function decryptStream(from: AgeFrom, ...extra: unknown[]): TransformStream<Uint8Array, Uint8Array> {
  return decryptStreamWith(POOL_RUNNERS, from, extra);
}

/** fourfold/age's decryptRange, the range's chunks opened on every core: read there too, from a Blob (a browser's workers) or a file. */
export function decryptRange(source: RangeInput, start: number, end: number, from: AgeFrom): Promise<Bytes>;
export function decryptRange(source: RangeInput, start: number, end: number, from: AgeFrom, ...extra: unknown[]): Promise<Bytes> {
  return decryptRangeOn(POOL_RUNNERS, source, start, end, from, extra);
}

/** fourfold/age's openRangeReader, each read's chunks opened on the pool (read on this thread, from its source). */
export function openRangeReader(source: RangeInput, from: AgeFrom): Promise<RangeReader>;
export function openRangeReader(source: RangeInput, from: AgeFrom, ...extra: unknown[]): Promise<RangeReader> {
  return openRangeReaderOn(POOL_RUNNERS, source, from, extra);
}

/**
 * fourfold/age's encryptFile on every core: the pool's workers read,
 * seal and write their own pieces of the file at their offsets; this
 * thread hands the pieces out.
 *
 * @example
 * ```ts
 * import { age } from 'fourfold/parallel';
 * await age.encryptFile('backup.tar', 'backup.tar.age', { recipients: [recipient] });
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
  return encryptFileOn(POOL_RUNNERS, input, output, to, options, extra);
}

/** fourfold/age's decryptFile on every core; `output` is put in place only once every chunk verified. */
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
  return decryptFileOn(POOL_RUNNERS, input, output, from, options, extra);
}
