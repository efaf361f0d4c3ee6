/**
 * BLAKE2b as a one-shot hash of a whole message (64-byte output), and
 * keyed (a 32-byte key, rotating among the keys of the 'keys' part).
 * Peers: @noble/hashes (the reference), libsodium's crypto_generichash,
 * hash-wasm (its hasher object, plain only: shared.ts hashPair) and
 * blakejs. BLAKE2b has no fourfold/parallel form (no tree mode).
 */
import type { Apis } from '../libraries.js';
import { hashPair } from './shared.js';
import type { OpDefinition } from './types.js';

export function blake2Ops(apis: Apis): OpDefinition<unknown>[] {
  const pair = hashPair('blake2b');
  const fourfold = apis.fourfold?.blake2?.blake2b;
  if (fourfold !== undefined) {
    for (const library of ['fourfold', 'fourfold-js'])
      pair.add(library, (message, key) => (key === undefined ? fourfold(message) : fourfold(message, { key })));
  }
  const noble = apis.nobleHashes?.blake2b;
  if (noble !== undefined) pair.add('noble-hashes', (message, key) => (key === undefined ? noble(message) : noble(message, { key })));
  const sodium = apis.sodium;
  if (sodium !== undefined) pair.add('sodium', (message, key) => sodium.crypto_generichash(64, message, key ?? null));
  const blakejs = apis.blakejs;
  if (blakejs !== undefined) pair.add('blakejs', (message, key) => blakejs.blake2b(message, key, 64));
  if (apis.hashWasm !== undefined) pair.hasher('hash-wasm', apis.hashWasm.blake2b);
  return pair.ops();
}
