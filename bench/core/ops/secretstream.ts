/**
 * libsodium's crypto_secretstream_xchacha20poly1305 (fourfold/secretstream
 * against libsodium-wrappers; @noble/ciphers and node:crypto have none).
 *
 * - 'secretstream-push': one message (TAG_MESSAGE, no aad) pushed onto a
 *   running stream per call, as a sender of a long stream does; each key
 *   has its stream, opened when the call is bound. Headers are random, so
 *   outputs differ between libraries; what is checked instead is that
 *   libsodium pulls the first message back (checkedOutput returns what it
 *   recovers, the message itself for every correct library).
 * - 'secretstream-pull': init_pull from the header and pull of one message
 *   per call (a pull state cannot pull the same message twice); the
 *   messages are pushed by libsodium, each key with its own stream.
 *
 * - 'secretstream-encryptStream': one call pipes the message, in pieces of
 *   64 KiB, through encryptStream (chunkSize 64 KiB) into a sink, and is
 *   awaited. No peer has a stream API, so there is no reference column and
 *   no output check (the tests check the stream); compare it with
 *   'secretstream-push' at 64 KiB. bench/harness/streams.ts times it
 *   against push on the very same data, with the memory it uses.
 *
 * Throughput counts message bytes only (not the 24-byte header or the 17
 * bytes a message grows by).
 */
import type { Apis } from '../libraries.js';
import { keySet, messageOf, packed, perKey } from './shared.js';
import { defineOp, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Inputs {
  readonly keys: Uint8Array[];
  readonly message: Uint8Array;
}

/** Pull inputs: under keys[i], headers[i] starts a stream whose first message is sealed[i]. */
interface PulledInputs extends Inputs {
  readonly headers: Uint8Array[];
  readonly sealed: Uint8Array[];
}

type SodiumState = unknown;
interface Sodium {
  crypto_secretstream_xchacha20poly1305_init_push(key: Uint8Array): { state: SodiumState; header: Uint8Array };
  crypto_secretstream_xchacha20poly1305_push(state: SodiumState, message: Uint8Array, ad: null, tag: number): Uint8Array;
  crypto_secretstream_xchacha20poly1305_init_pull(header: Uint8Array, key: Uint8Array): SodiumState;
  crypto_secretstream_xchacha20poly1305_pull(state: SodiumState, sealed: Uint8Array, ad: null): { message: Uint8Array; tag: number } | false;
}

/** A library's push side: a stream opened per key, and its push. */
interface Pusher {
  open(key: Uint8Array): { header: Uint8Array; push(message: Uint8Array): Uint8Array };
}

const MESSAGE = 0;
const ABYTES = 17;
/** encryptStream's chunk size and the size of the pieces fed to it. */
const STREAM_CHUNK = 65536;

/** Streams opened lazily, one per key, so binding a million keys opens only those used. */
function lazyStreams<S>(keys: Uint8Array[], open: (key: Uint8Array) => S): (k: number) => S {
  const streams: (S | undefined)[] = new Array(keys.length);
  return (k) => (streams[k] ??= open(keys[k]!));
}

export function secretstreamOps(apis: Apis): OpDefinition<unknown>[] {
  const sodium = apis.sodium as unknown as Sodium;
  const fourfold = apis.fourfold?.secretstream;

  /** What libsodium recovers from the first message `pusher` pushes under keys[0]. */
  const sodiumPullsBack = (pusher: Pusher, { keys, message }: Inputs): Uint8Array => {
    const stream = pusher.open(keys[0]!);
    const sealed = stream.push(message);
    const state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(stream.header, keys[0]!);
    const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(state, sealed, null);
    return pulled === false || pulled.tag !== MESSAGE ? new Uint8Array(0) : pulled.message;
  };

  const push: OpEntry<Inputs>[] = [];
  const pull: OpEntry<PulledInputs>[] = [];
  const addPush = (library: string, pusher: Pusher) =>
    push.push({
      library,
      bind: perKey(({ keys, message }) => {
        const stream = lazyStreams(keys, pusher.open);
        return (k) => stream(k).push(message);
      }),
      checkedOutput: (inputs) => sodiumPullsBack(pusher, inputs),
    });

  const sodiumPusher: Pusher = {
    open: (key) => {
      const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
      return { header, push: (m) => sodium.crypto_secretstream_xchacha20poly1305_push(state, m, null, MESSAGE) };
    },
  };

  if (fourfold !== undefined) {
    const fourfoldPusher: Pusher = { open: (key) => fourfold.initPush(key) };
    addPush('fourfold', fourfoldPusher);
    addPush('fourfold-js', fourfoldPusher);
    const fourfoldPull = perKey(
      ({ keys, headers, sealed }: PulledInputs) =>
        (k) =>
          fourfold.initPull(headers[k]!, keys[k]!).pull(sealed[k]!).message,
    );
    pull.push({ library: 'fourfold', bind: fourfoldPull }, { library: 'fourfold-js', bind: fourfoldPull });
  }
  addPush('sodium', sodiumPusher);
  pull.push({
    library: 'sodium',
    bind: perKey(({ keys, headers, sealed }) => (k) => {
      const state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(headers[k]!, keys[k]!);
      const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(state, sealed[k]!, null);
      if (pulled === false) throw new Error('sodium: pull failed');
      return pulled.message;
    }),
  });

  const plain = (shape: Shape): Inputs => ({ keys: keySet('secretstream key', shape.keys), message: messageOf('secretstream message', shape) });
  // libsodium pushes the pull inputs: it is the trusted peer.
  const pulled = (shape: Shape): PulledInputs => {
    const i = plain(shape);
    const headers: Uint8Array[] = [];
    const sealed = packed(i.keys.length, shape.size + ABYTES, shape.offset, (k, view) => {
      const stream = sodiumPusher.open(i.keys[k]!);
      headers.push(stream.header);
      view.set(stream.push(i.message));
    });
    return { ...i, headers, sealed };
  };
  const stream: OpEntry<Inputs>[] = [];
  if (fourfold !== undefined) {
    const bind = perKey(({ keys, message }: Inputs) => async (k) => {
      let last: Uint8Array = new Uint8Array(0);
      await new ReadableStream<Uint8Array>({
        start(controller) {
          for (let pos = 0; pos < message.length; pos += STREAM_CHUNK) controller.enqueue(message.subarray(pos, pos + STREAM_CHUNK));
          controller.close();
        },
      })
        .pipeThrough(fourfold.encryptStream(keys[k]!, { chunkSize: STREAM_CHUNK }))
        .pipeTo(new WritableStream({ write: (chunk) => void (last = chunk) }));
      return last;
    });
    stream.push({ library: 'fourfold', bind }, { library: 'fourfold-js', bind });
  }

  // Without libsodium (an engine without WebAssembly) nothing checks a push or makes the pull inputs: those ops are left out.
  const checked = apis.sodium !== undefined;
  return [
    ...(checked ? [defineOp<Inputs>({ op: 'secretstream-push', inputs: plain, entries: push })] : []),
    defineOp<Inputs>({ op: 'secretstream-encryptStream', inputs: plain, entries: stream }),
    ...(checked ? [defineOp<PulledInputs>({ op: 'secretstream-pull', inputs: pulled, entries: pull })] : []),
  ];
}
