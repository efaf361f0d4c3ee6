/**
 * The age calls on a given set of runners (codec.ts AgeRunners): fourfold/age's
 * on this thread (index.ts), fourfold/parallel's on the worker pool
 * (parallel/age.ts), with the same arguments and the same bytes.
 */
import { Decryptor, Encryptor, type AgeRunners } from './codec.js';
import { receiverOf, senderOf } from './file-key.js';
import { decryptFor, encryptFor } from './whole.js';
import * as check from '../runtime/assert.js';
import type { Bytes } from '../runtime/bytes.js';
import { type Emit, needTransformStream, releasingStream } from '../runtime/releasing-stream.js';

/** encrypt's and encryptStream's options. Any other property is refused (TypeError). */
export interface EncryptOptions {
  /** ASCII armor (PEM, "-----BEGIN AGE ENCRYPTED FILE-----"), for text channels; the default is the binary format. */
  armor?: boolean;
}

function armorOf(options: unknown): boolean {
  const armor = (check.options(options, 'options', ['armor']) as EncryptOptions | undefined)?.armor;
  if (armor !== undefined && typeof armor !== 'boolean') throw new TypeError(`options.armor must be a boolean, got ${check.describe(armor)}`);
  return armor === true;
}

export async function encryptWith(runners: AgeRunners, data: unknown, to: unknown, options: unknown, extra: readonly unknown[]): Promise<Bytes> {
  check.noMoreArguments('encrypt', ['data', 'to', 'options'], extra);
  const input = check.bytes(data, 'data');
  const armored = armorOf(options);
  return encryptFor(runners, senderOf(to), input, armored);
}

/** What a caller who passes decrypt a format (typage's `decrypt(file, 'text')`) is told. */
export const BYTES_NOT_TEXT = ': the plaintext is bytes; for text, new TextDecoder().decode(plaintext)';

export async function decryptWith(runners: AgeRunners, file: unknown, from: unknown, extra: readonly unknown[]): Promise<Bytes> {
  check.noMoreArguments('decrypt', ['file', 'from'], extra, BYTES_NOT_TEXT);
  const input = check.bytes(file, 'file');
  return decryptFor(runners, input, receiverOf(from));
}

/** A stream's chunk as a plain view of its bytes, read until its write resolves (pipeline.ts). */
const chunkOf = (chunk: unknown): Uint8Array => check.byteSource(chunk, 'chunk');

/** `coder` (made with its output's emit) as a TransformStream: each chunk written, the end at flush, forgotten however the stream ends. */
export function codecStream(make: (emit: Emit) => Encryptor | Decryptor): TransformStream<Uint8Array, Uint8Array> {
  let emit: Emit = () => {};
  const coder = make((b) => emit(b));
  return releasingStream<Uint8Array, Uint8Array>({
    async transform(chunk, out) {
      emit = out;
      await coder.write(chunkOf(chunk));
    },
    async flush(out) {
      emit = out;
      await coder.end();
    },
    release: () => coder.forget(),
  });
}

export function encryptStreamWith(runners: AgeRunners, to: unknown, options: unknown, extra: readonly unknown[]): TransformStream<Uint8Array, Uint8Array> {
  check.noMoreArguments('encryptStream', ['to', 'options'], extra);
  needTransformStream('age: encryptStream', 'encrypt / decrypt');
  const armored = armorOf(options);
  const sender = senderOf(to);
  return codecStream((emit) => new Encryptor(sender, armored, runners, emit));
}

export function decryptStreamWith(runners: AgeRunners, from: unknown, extra: readonly unknown[]): TransformStream<Uint8Array, Uint8Array> {
  check.noMoreArguments('decryptStream', ['from'], extra, ': the plaintext is bytes; for text, pipe it through a TextDecoderStream');
  needTransformStream('age: decryptStream', 'encrypt / decrypt');
  return codecStream((emit) => new Decryptor(receiverOf(from), runners, emit));
}
