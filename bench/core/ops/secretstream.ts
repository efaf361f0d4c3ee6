/**
 * crypto_secretstream_xchacha20poly1305: fourfold/secretstream against
 * libsodium-wrappers. 'secretstream-push' pushes one message a call on a
 * running stream (headers are random, so libsodium pulling it back is the
 * check); 'secretstream-pull' inits from the header and pulls one message a
 * call; 'secretstream-encryptStream' pipes the message in 64 KiB pieces
 * through encryptStream, with no peer and no output check (the tests check
 * the stream). Throughput counts message bytes only. Without libsodium the
 * ops are left out.
 */
import type { Apis } from '../libraries.js';
import { inputsOf, piecesOf } from './table.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Inputs {
  readonly key: Uint8Array;
  readonly message: Uint8Array;
  /** For the pull: the stream's header, and its first message, sealed. */
  readonly header: Uint8Array;
  readonly sealed: Uint8Array;
}

/** libsodium.js's API, as fourfold/sodium types it (sodium.ts). */
type Sodium = typeof import('fourfold/sodium');

/** A library's stream: opened for a key, its header, and its push and pull. */
interface Library {
  push(key: Uint8Array): { header: Uint8Array; push(message: Uint8Array): Uint8Array };
  pull(header: Uint8Array, key: Uint8Array, sealed: Uint8Array): Uint8Array;
}

const MESSAGE = 0;
/** encryptStream's chunk size and the size of the pieces fed to it. */
const STREAM_CHUNK = 65536;

export function secretstreamOps(apis: Apis): OpDefinition<unknown>[] {
  const fourfold = apis.fourfold?.secretstream;
  const stream: OpEntry<Inputs>[] = [];
  if (fourfold !== undefined) {
    const bind = (i: Inputs) => async () => {
      let last: Uint8Array = new Uint8Array(0);
      await piecesOf(i.message, STREAM_CHUNK)
        .pipeThrough(fourfold.encryptStream(i.key, { chunkSize: STREAM_CHUNK }))
        .pipeTo(new WritableStream({ write: (chunk) => void (last = chunk) }));
      return last;
    };
    stream.push({ library: 'fourfold', bind }, { library: 'fourfold-js', bind });
  }
  const plain = (shape: Shape) => ({ ...inputsOf('secretstream', shape, 0), header: new Uint8Array(0), sealed: new Uint8Array(0) });
  const encryptStream = defineOp<Inputs>({ op: 'secretstream-encryptStream', inputs: plain, entries: stream });
  if (apis.sodium === undefined) return [encryptStream];

  const s = apis.sodium as unknown as Sodium;
  const sodium: Library = {
    push: (key) => {
      const { state, header } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
      return { header, push: (m) => s.crypto_secretstream_xchacha20poly1305_push(state, m, null, MESSAGE) };
    },
    pull: (header, key, sealed) => {
      const pulled = s.crypto_secretstream_xchacha20poly1305_pull(s.crypto_secretstream_xchacha20poly1305_init_pull(header, key), sealed, null);
      if (pulled === false || pulled.tag !== MESSAGE) throw new Error('sodium: the pull failed');
      return pulled.message;
    },
  };
  const columns: [string, Library][] = [['sodium', sodium]];
  if (fourfold !== undefined) {
    const ours: Library = { push: (key) => fourfold.initPush(key), pull: (header, key, sealed) => fourfold.initPull(header, key).pull(sealed).message };
    columns.push(['fourfold', ours], ['fourfold-js', ours]);
  }
  // libsodium pushes the pull inputs: it is the trusted peer.
  const pulled = (shape: Shape): Inputs => {
    const i = plain(shape);
    const { header, push } = sodium.push(i.key);
    return { ...i, header, sealed: push(i.message) };
  };
  return [
    defineOp<Inputs>({
      op: 'secretstream-push',
      inputs: plain,
      entries: columns.map(([library, lib]) => ({
        library,
        bind: ({ key, message }) => {
          const opened = lib.push(key);
          return () => opened.push(message);
        },
        checkedOutput: ({ key, message }) => {
          const opened = lib.push(key);
          return sodium.pull(opened.header, key, opened.push(message));
        },
      })),
    }),
    encryptStream,
    defineOp<Inputs>({
      op: 'secretstream-pull',
      inputs: pulled,
      entries: columns.map(([library, lib]) => ({
        library,
        bind: (i) => () => lib.pull(i.header, i.key, i.sealed),
      })),
    }),
  ];
}
