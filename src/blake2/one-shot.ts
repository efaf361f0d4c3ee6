/**
 * BLAKE2b's start and its one-shot call on arguments already checked:
 * the public API (index.ts) checks the caller's options first, and
 * fourfold/sodium's calls, whose arguments libsodium's rules have checked,
 * come here without a second options object to read.
 */
import { BLOCK, IV_BYTES, PERSONALIZATION, SALT } from './layout.js';
import { engine } from './tiers.js';
import type { Bytes } from '../runtime/bytes.js';

/**
 * Writes into `h0` (64 bytes) the IV XOR the parameter block (RFC 7693
 * §2.5; BLAKE2 §2.8 for the salt and personalization, 16 bytes each) of a
 * `dkLen`-byte digest (1..64) under a key of `keyLength` bytes (0..64).
 */
export function parameterState(h0: Uint8Array, dkLen: number, keyLength: number, salt?: Uint8Array, personalization?: Uint8Array): Uint8Array {
  h0.set(IV_BYTES);
  h0[0] ^= dkLen;
  h0[1] ^= keyLength;
  // Fanout 1, depth 1: sequential mode.
  h0[2] ^= 1;
  h0[3] ^= 1;
  if (salt !== undefined) for (let i = 0; i < SALT; i++) h0[32 + i] ^= salt[i];
  if (personalization !== undefined) for (let i = 0; i < PERSONALIZATION; i++) h0[48 + i] ^= personalization[i];
  return h0;
}

/**
 * The key block of one-shot calls: a key of up to 64 bytes, zero-padded,
 * wiped when the call ends. One array for every call (no call re-enters:
 * the engines run no caller code), since an array past 64 bytes lives
 * outside V8's heap and costs about a microsecond to allocate.
 */
const keyBlock = new Uint8Array(BLOCK);

/**
 * The first `dkLen` bytes of BLAKE2b of `data` from the initial state
 * `h0`, with `key` (1..64 bytes, as h0 says) as its first block when
 * given. Both engines copy h0 and the key in and keep no reference.
 */
export function hashFrom(h0: Uint8Array, key: Uint8Array | undefined, data: Uint8Array, dkLen: number): Bytes {
  if (key === undefined) return engine().hash(h0, undefined, data, dkLen) as Bytes;
  try {
    keyBlock.set(key);
    return engine().hash(h0, keyBlock, data, dkLen) as Bytes;
  } finally {
    // Ours, never on shared memory: fill, without zeroize's check for it.
    keyBlock.fill(0);
  }
}
