/**
 * Poly1305 (RFC 8439 §2.5) as a one-shot MAC. node:crypto has none of its
 * own and libsodium-wrappers has crypto_onetimeauth only in -sumo, so the
 * sodium column is there only when the function is; no library takes an
 * output buffer for the tag.
 */
import { type Apis, PARALLEL, PARALLEL_SHARED } from '../libraries.js';
import { hasSharedMemory, type KeyCall, keyedOp, ours } from './table.js';
import type { OpDefinition } from './types.js';

type Mac = (message: Uint8Array, key: Uint8Array) => ReturnType<KeyCall>;
function macCall(mac: Mac): KeyCall {
  return (key, _nonce, data) => mac(data, key);
}

export function poly1305Ops(apis: Apis): OpDefinition<unknown>[] {
  const fourfold = apis.fourfold?.poly1305?.poly1305;
  const parallel = apis.fourfold?.parallel?.poly1305;
  const sodium = (apis.sodium as unknown as { crypto_onetimeauth?: Mac } | undefined)?.crypto_onetimeauth;
  const columns = [
    ...ours(fourfold && macCall(fourfold), { output: false }),
    parallel && ([PARALLEL, macCall(parallel)] as const),
    parallel && hasSharedMemory() && ([PARALLEL_SHARED, macCall(parallel), 'shared'] as const),
    ['noble', macCall(apis.noble.poly1305.poly1305)] as const,
    sodium && (['sodium', macCall(sodium)] as const),
  ];
  return [keyedOp('poly1305', 0, columns, { mac: true })];
}
