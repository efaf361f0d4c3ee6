/**
 * BLAKE2b as a one-shot hash of a whole message (64-byte output), and
 * keyed (a 32-byte key, rotating among the keys of the 'keys' part).
 * Peers: @noble/hashes (the reference), libsodium's crypto_generichash,
 * hash-wasm and blakejs. hash-wasm's one-shot functions return promises,
 * so its synchronous hasher object is timed (init, update, digest),
 * created once; it takes a key only when the hasher is created, so it has
 * no keyed column. BLAKE2b has no fourfold/parallel form (no tree mode).
 */
import type { Apis } from '../libraries.js';
import { keySet, messageOf, perKey } from './shared.js';
import { defineOp, type Call, type OpDefinition, type OpEntry, type Shape } from './types.js';

interface Inputs {
  readonly keys: Uint8Array[];
  readonly message: Uint8Array;
}

type Hash = (message: Uint8Array, key?: Uint8Array) => ReturnType<Call>;

export function blake2Ops(apis: Apis): OpDefinition<unknown>[] {
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
            hash(message, keys[k]!),
      ),
    });
  };

  const fourfold = apis.fourfold?.blake2?.blake2b;
  if (fourfold !== undefined) {
    const hash: Hash = (message, key) => (key === undefined ? fourfold(message) : fourfold(message, { key }));
    add('fourfold', hash);
    add('fourfold-js', hash);
  }
  const noble = apis.nobleHashes?.blake2b;
  if (noble !== undefined) add('noble-hashes', (message, key) => (key === undefined ? noble(message) : noble(message, { key })));
  const sodium = apis.sodium;
  if (sodium !== undefined) add('sodium', (message, key) => sodium.crypto_generichash(64, message, key ?? null));
  const blakejs = apis.blakejs;
  if (blakejs !== undefined) add('blakejs', (message, key) => blakejs.blake2b(message, key, 64));
  const hasher = apis.hashWasm?.blake2b;
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

  const inputs = (shape: Shape): Inputs => ({ keys: keySet('blake2b key', shape.keys), message: messageOf('blake2b message', shape) });
  return [defineOp<Inputs>({ op: 'blake2b', inputs, entries: plain }), defineOp<Inputs>({ op: 'blake2b-keyed', inputs, entries: keyed })];
}
