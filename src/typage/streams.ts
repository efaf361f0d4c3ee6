/**
 * typage's streams on fourfold's coders (src/age/codec.ts): a ReadableStream
 * in, a ReadableStreamWithSize out, pulled, so that the source is read
 * only as fast as the output is (a couple of chunks in memory, whatever
 * the file's size). Its promise resolves once the header is made
 * (encryption) or opened (decryption), as typage's does: a file for
 * other keys rejects it before any plaintext is asked for. Imported the
 * first time a call is given a stream (runners.ts streamCode): a page
 * of whole files never loads it, nor the coders.
 */
import { Decryptor, Encryptor } from '../age/codec.js';
import { AgeFormatError } from '../age/errors.js';
import { engineReady } from '../age/pipeline.js';
import type { AgeRunners } from '../age/codec.js';
import type { Receiver, Sender } from '../age/file-key.js';
import { plainLength, SEALED_CHUNK, sealedLength, TAG_BYTES } from '../age/payload.js';
import * as check from '../runtime/assert.js';
import { EMPTY } from '../runtime/bytes.js';
import type { Emit } from '../runtime/releasing-stream.js';
import type { ReadableStreamWithSize } from './stanza.js';

/** Where a coder's output goes: held while the call prepares, then the output stream's queue. */
interface Outlet {
  emit: Emit;
  readonly held: Uint8Array[];
}

const newOutlet = (): Outlet => {
  const held: Uint8Array[] = [];
  return { emit: (b) => held.push(b), held };
};

/** Reads the source's next chunk into `coder`; false once the source ended (and the coder with it). */
async function step(reader: ReadableStreamDefaultReader<Uint8Array>, coder: Encryptor | Decryptor): Promise<boolean> {
  const { done, value } = await reader.read();
  // The tier may change between writes (ready()): the js tier's code is imported first where it is now the one.
  await engineReady();
  if (done) {
    await coder.end();
    return false;
  }
  await coder.write(check.byteSource(value, 'chunk'));
  return true;
}

/**
 * The stream of `coder`'s output for the rest of `reader`'s chunks, after
 * what `outlet` holds; the coder forgets its keys however the stream ends.
 * A pull reads until the coder emits or the source ends: a pull that
 * enqueues nothing is not pulled again (WHATWG Streams' pullAgain is set
 * only by a read or an enqueue during it), which would leave the reader
 * waiting forever on a chunk smaller than age's.
 */
function pulledStream(reader: ReadableStreamDefaultReader<Uint8Array>, coder: Encryptor | Decryptor, outlet: Outlet): ReadableStream<Uint8Array> {
  let emitted = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const b of outlet.held.splice(0)) controller.enqueue(b);
      outlet.emit = (b) => {
        emitted++;
        controller.enqueue(b);
      };
    },
    async pull(controller) {
      const before = emitted;
      try {
        while (emitted === before) {
          if (!(await step(reader, coder))) {
            coder.forget();
            return controller.close();
          }
        }
      } catch (e) {
        coder.forget();
        reader.cancel(e).catch(() => {});
        throw e;
      }
    },
    cancel(reason) {
      coder.forget();
      return reader.cancel(reason);
    },
  });
}

/**
 * Feeds `coder` from `reader` until `ready()` (the header made or
 * opened); the coder forgotten and the source cancelled on a failure.
 */
async function prepare(reader: ReadableStreamDefaultReader<Uint8Array>, coder: Encryptor | Decryptor, ready: () => boolean): Promise<void> {
  try {
    while (!ready()) if (!(await step(reader, coder))) throw new AgeFormatError('the file ends inside its header');
  } catch (e) {
    coder.forget();
    reader.cancel(e).catch(() => {});
    throw e;
  }
}

/** `stream` with a size(): what typage's ReadableStreamWithSize adds. */
const withSize = (stream: ReadableStream<Uint8Array>, size: (n: number) => number): ReadableStreamWithSize => Object.assign(stream, { size });

/** The ciphertext's size of a plaintext of `n` bytes after a header and nonce of `head` bytes. */
const encryptedSize = (head: number) => (n: number) => head + sealedLength(check.count(n, 'sourceSize'));

/**
 * The plaintext's size of a binary file of `n` bytes whose header and
 * nonce take `head`; a RangeError where no payload has that size (shorter
 * than a tag, or a last chunk of a tag or less after a full one).
 */
const decryptedSize = (head: number) => (n: number) => {
  const sealed = check.count(n, 'sourceSize') - head;
  if (sealed < TAG_BYTES) throw new RangeError(`a file of ${n} bytes is too short for its ${head}-byte header and nonce and a ${TAG_BYTES}-byte tag`);
  const last = sealed % SEALED_CHUNK;
  if (sealed > TAG_BYTES && last > 0 && last <= TAG_BYTES) throw new RangeError(`no age payload is ${sealed} bytes: its last chunk would hold no plaintext`);
  return plainLength(sealed);
};

/** Encrypter.encrypt of a stream, for `sender` (whose keys it wipes) on `runners`: resolves once the header is made. */
export async function encryptedStream(sender: Sender, runners: AgeRunners, file: ReadableStream<Uint8Array>): Promise<ReadableStreamWithSize> {
  await engineReady();
  const outlet = newOutlet();
  const encryptor = new Encryptor(sender, false, runners, (b) => outlet.emit(b));
  const reader = file.getReader();
  // An empty write waits for the header and emits it with the nonce, before any of the source is read.
  try {
    await encryptor.write(EMPTY);
  } catch (e) {
    encryptor.forget();
    reader.cancel(e).catch(() => {});
    throw e;
  }
  const head = outlet.held.reduce((n, b) => n + b.length, 0);
  return withSize(pulledStream(reader, encryptor, outlet), encryptedSize(head));
}

/** Decrypter.decrypt of a stream, for `receiver` on `runners`: resolves once the header is opened. */
export async function decryptedStream(receiver: Receiver, runners: AgeRunners, file: ReadableStream<Uint8Array>): Promise<ReadableStreamWithSize> {
  await engineReady();
  const outlet = newOutlet();
  const decryptor = new Decryptor(receiver, runners, (b) => outlet.emit(b));
  const reader = file.getReader();
  await prepare(reader, decryptor, () => decryptor.payloadStart !== undefined);
  return withSize(pulledStream(reader, decryptor, outlet), decryptedSize(decryptor.payloadStart!));
}
