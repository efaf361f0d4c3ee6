/**
 * BLAKE3, plain and keyed, one-shot: @noble/hashes (the reference), hash-wasm
 * (plain only), fourfold/parallel (plain on shared memory too); node:crypto
 * and libsodium have none.
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
