/**
 * BLAKE3 as a one-shot hash of a whole message (32-byte output), and keyed
 * (keyed_hash with a 32-byte key, rotating among the keys of the 'keys'
 * part). Peers: @noble/hashes (the reference) and hash-wasm (its hasher
 * object, plain only: shared.ts hashPair). node:crypto and libsodium have
 * no BLAKE3. 'fourfold (parallel)' is fourfold/parallel's blake3, as for
 * every op it has (libraries.ts).
 */
import { PARALLEL, PARALLEL_SHARED, type Apis } from '../libraries.js';
import { hashPair, hasSharedMemory, type KeyedHash, sharedBuffer } from './shared.js';
import type { OpDefinition } from './types.js';

/** A BLAKE3 of fourfold's or @noble's shape: the key in an options object. */
const keyedHash =
  (hash: (message: Uint8Array, opts?: { key?: Uint8Array }) => ReturnType<KeyedHash>): KeyedHash =>
  (message, key) =>
    key === undefined ? hash(message) : hash(message, { key });

export function blake3Ops(apis: Apis): OpDefinition<unknown>[] {
  const pair = hashPair('blake3');
  const fourfold = apis.fourfold?.blake3?.blake3;
  if (fourfold !== undefined) {
    pair.add('fourfold', keyedHash(fourfold));
    pair.add('fourfold-js', keyedHash(fourfold));
  }
  const parallel = apis.fourfold?.parallel?.blake3;
  if (parallel !== undefined) {
    pair.add(PARALLEL, keyedHash(parallel));
    // The input on a SharedArrayBuffer, which the workers read directly (a hash has no output to reuse).
    if (hasSharedMemory()) {
      pair.plain({
        library: PARALLEL_SHARED,
        bind: ({ message }) => {
          const input = sharedBuffer(message.length, { size: message.length, offset: message.byteOffset, keys: 1 }, message);
          return () => parallel(input);
        },
      });
    }
  }
  if (apis.nobleHashes !== undefined) pair.add('noble-hashes', keyedHash(apis.nobleHashes.blake3));
  if (apis.hashWasm !== undefined) pair.hasher('hash-wasm', apis.hashWasm.blake3);
  return pair.ops();
}
