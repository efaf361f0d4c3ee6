/**
 * BLAKE2b, plain and keyed (32-byte key), one-shot: @noble/hashes (the
 * reference), libsodium, blakejs, hash-wasm (plain only); no parallel form.
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
