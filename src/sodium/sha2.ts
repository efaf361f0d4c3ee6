/**
 * SHA-256, SHA-512 (FIPS 180-4) and their HMACs (RFC 2104) as
 * fourfold/sodium's calls use them: node:crypto's where the runtime has it
 * (native.ts: 5 to 10 times @noble/hashes' speed from 64 bytes on),
 * else @noble/hashes'. The same bytes either way.
 */
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { nativeHashes } from './native.js';

/** A SHA-2 function's name, as node:crypto takes it. */
export type Sha2 = 'sha256' | 'sha512';

/** An incremental hash or HMAC. */
export interface Incremental {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
}

const NOBLE = { sha256: nobleSha256, sha512: nobleSha512 } as const;

/** SHA-256 or SHA-512 of `message`. */
export function hash(algorithm: Sha2, message: Uint8Array): Uint8Array {
  const native = nativeHashes();
  return native === undefined ? NOBLE[algorithm](message) : native.hash(algorithm, message);
}

/** HMAC-SHA-256 or HMAC-SHA-512 of `message` under `key`. */
export function hmac(algorithm: Sha2, key: Uint8Array, message: Uint8Array): Uint8Array {
  const native = nativeHashes();
  return native === undefined ? nobleHmac(NOBLE[algorithm], key, message) : native.hmac(algorithm, key, message);
}

/** An incremental hash, or an HMAC under `key` when given. */
export function start(algorithm: Sha2, key?: Uint8Array): Incremental {
  const native = nativeHashes();
  if (native !== undefined) return native.start(algorithm, key);
  return key === undefined ? NOBLE[algorithm].create() : nobleHmac.create(NOBLE[algorithm], key);
}

/** SHA-512 of `message`. */
export const sha512 = (message: Uint8Array): Uint8Array => hash('sha512', message);
