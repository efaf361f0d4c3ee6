/**
 * BLAKE3 as a one-shot hash of a whole message (32-byte output), and keyed
 * (keyed_hash with a 32-byte key, rotating among the keys of the 'keys'
 * part). Peers: @noble/hashes (the reference) and hash-wasm. hash-wasm's
 * one-shot functions return promises, so its synchronous hasher object is
 * timed (init, update, digest), created once; it takes a key only when
 * the hasher is created, so it has no keyed column. node:crypto and
 * libsodium have no BLAKE3. 'fourfold (parallel)' is fourfold/parallel's
 * blake3, as for every op it has (libraries.ts).
 */
import { PARALLEL, PARALLEL_SHARED, type Apis } from '../libraries.js';
import { hasSharedMemory, keySet, messageOf, perKey, sharedBuffer } from './shared.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Inputs {
  readonly keys: Uint8Array[];
  readonly message: Uint8Array;
}

type Hash = (message: Uint8Array, opts?: { key?: Uint8Array }) => ReturnType<Call>;

export function blake3Ops(apis: Apis): OpDefinition<unknown>[] {
  const plain: OpEntry<Inputs>[] = [];
  const keyed: OpEntry<Inputs>[] = [];
  const add = (library: string, hash: Hash) => {
    plain.push({
      library,
      bind:
        ({ message }) =>
        () =>
          hash(message),
    });
    keyed.push({
      library,
      bind: perKey(
        ({ keys, message }) =>
          (k) =>
            hash(message, { key: keys[k]! }),
      ),
    });
  };

  const fourfold = apis.fourfold?.blake3?.blake3 as Hash | undefined;
  if (fourfold !== undefined) {
    add('fourfold', fourfold);
    add('fourfold-js', fourfold);
  }
  const parallel = apis.fourfold?.parallel?.blake3;
  if (parallel !== undefined) {
    add(PARALLEL, parallel);
    // The input on a SharedArrayBuffer, which the workers read directly (a hash has no output to reuse).
    if (hasSharedMemory()) {
      plain.push({
        library: PARALLEL_SHARED,
        bind: ({ message }) => {
          const input = sharedBuffer(message.length, { size: message.length, offset: message.byteOffset, keys: 1 }, message);
          return () => parallel(input);
        },
      });
    }
  }
  if (apis.nobleHashes !== undefined) add('noble-hashes', apis.nobleHashes.blake3 as Hash);
  const hasher = apis.hashWasm?.blake3;
  if (hasher !== undefined) {
    plain.push({
      library: 'hash-wasm',
      bind:
        ({ message }) =>
        () => {
          hasher.init();
          hasher.update(message);
          return hasher.digest('binary');
        },
    });
  }

  const inputs = (shape: Shape): Inputs => ({ keys: keySet('blake3 key', shape.keys), message: messageOf('blake3 message', shape) });
  return [defineOp<Inputs>({ op: 'blake3', inputs, entries: plain }), defineOp<Inputs>({ op: 'blake3-keyed', inputs, entries: keyed })];
}
