/**
 * BLAKE3 as a one-shot hash of a whole message (32-byte output), and keyed
 * (keyed_hash with a 32-byte key). Peers: @noble/hashes (the reference)
 * and hash-wasm (its hasher object, plain only). node:crypto and
 * libsodium have no BLAKE3. fourfold/parallel's blake3 has a column, and
 * one with its message on a SharedArrayBuffer (plain only).
 */
import { type Apis, PARALLEL, PARALLEL_SHARED } from '../libraries.js';
import { hasher, hashOps, hasSharedMemory, keyedHash } from './table.js';
import type { OpDefinition } from './types.js';

export function blake3Ops({ fourfold, nobleHashes, hashWasm }: Apis): OpDefinition<unknown>[] {
  const ours = fourfold?.blake3?.blake3;
  const parallel = fourfold?.parallel?.blake3;
  return hashOps(
    'blake3',
    [
      ours && ['fourfold', keyedHash(ours)],
      ours && ['fourfold-js', keyedHash(ours)],
      parallel && [PARALLEL, keyedHash(parallel)],
      nobleHashes && ['noble-hashes', keyedHash(nobleHashes.blake3)],
    ],
    [parallel && hasSharedMemory() && [PARALLEL_SHARED, keyedHash(parallel), 'shared'], hashWasm && ['hash-wasm', hasher(hashWasm.blake3)]],
  );
}
