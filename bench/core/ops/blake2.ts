/**
 * BLAKE2b as a one-shot hash of a whole message (64-byte output), and
 * keyed (a 32-byte key). Peers: @noble/hashes (the reference), libsodium's
 * crypto_generichash, blakejs and hash-wasm (its hasher object, plain
 * only). BLAKE2b has no fourfold/parallel form (no tree mode).
 */
import type { Apis } from '../libraries.js';
import { hasher, hashOps, keyedHash } from './table.js';
import type { OpDefinition } from './types.js';

export function blake2Ops({ fourfold, nobleHashes, sodium, blakejs, hashWasm }: Apis): OpDefinition<unknown>[] {
  const ours = fourfold?.blake2?.blake2b;
  return hashOps(
    'blake2b',
    [
      ours && ['fourfold', keyedHash(ours)],
      ours && ['fourfold-js', keyedHash(ours)],
      nobleHashes && ['noble-hashes', keyedHash(nobleHashes.blake2b)],
      sodium && ['sodium', (message, key) => sodium.crypto_generichash(64, message, key ?? null)],
      blakejs && ['blakejs', (message, key) => blakejs.blake2b(message, key, 64)],
    ],
    [hashWasm && ['hash-wasm', hasher(hashWasm.blake2b)]],
  );
}
