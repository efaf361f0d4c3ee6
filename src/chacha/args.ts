/**
 * The checks of the ChaCha family's functions, shared by the synchronous
 * API (index.ts) and fourfold/parallel's (parallel/chacha.ts).
 */
import * as check from '../runtime/assert.js';
import { TAG_LENGTH, tooShort } from '../runtime/aead.js';
import { EMPTY } from '../runtime/bytes.js';
import type { StreamVariant } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** ChaCha20 of RFC 8439: 32-byte key, 12-byte nonce, 32-bit block counter. */
export const CHACHA20: StreamVariant = { nonceLength: 12, doubleRounds: DOUBLE_ROUNDS, counterBits: 32, keyLengths: [32] };
/** ChaCha with 8 rounds, RFC 8439 layout. */
export const CHACHA8: StreamVariant = { nonceLength: 12, doubleRounds: 4, counterBits: 32, keyLengths: [32] };
/** ChaCha with 12 rounds, RFC 8439 layout. */
export const CHACHA12: StreamVariant = { nonceLength: 12, doubleRounds: 6, counterBits: 32, keyLengths: [32] };
/** The original ChaCha20: 8-byte nonce, 64-bit block counter (carrying from word 12 into 13); 32-byte (or 16-byte) key. */
export const CHACHA20_ORIG: StreamVariant = { nonceLength: 8, doubleRounds: DOUBLE_ROUNDS, counterBits: 64, keyLengths: [32, 16] };
/** XChaCha20 (as libsodium's crypto_stream_xchacha20): 24-byte nonce, 64-bit block counter. */
export const XCHACHA20: StreamVariant = { nonceLength: 24, doubleRounds: DOUBLE_ROUNDS, counterBits: 64, keyLengths: [32] };

/** RFC 8439 §2.8: blocks 1 to 2^32 - 1 of the keystream, 64 bytes each. */
const MAX_PLAINTEXT = (2 ** 32 - 1) * 64;
/** An encryption's checked arguments: the plaintext, and the output when given (plaintext.length + 16 bytes). */
export function sealArgs(plaintext: unknown, output: unknown): { input: Uint8Array; output: Uint8Array | undefined } {
  const input = check.bytes(plaintext, 'plaintext');
  if (input.length > MAX_PLAINTEXT) throw new RangeError('plaintext is longer than RFC 8439 allows (2^32 - 1 blocks)');
  if (output === undefined) return { input, output: undefined };
  const out = check.output(output, input.length + TAG_LENGTH);
  check.noPartialOverlap(input, out.subarray(0, input.length));
  return { input, output: out };
}

/**
 * A decryption's checked arguments: the ciphertext without its tag, the
 * tag, and the output when given. The tag is a copy (an output inside the
 * ciphertext's buffer may overwrite it, and a call that awaits may find
 * the caller's array changed), except for a `synchronous` call without
 * an output, which reads it once where it is: Deno allocates every
 * typed array off V8's heap, 0.8 us for 16 bytes.
 */
export function openArgs(ciphertext: unknown, output: unknown, synchronous = false): { body: Uint8Array; tag: Uint8Array; output: Uint8Array | undefined } {
  const input = check.bytes(ciphertext, 'ciphertext');
  if (input.length < TAG_LENGTH) throw tooShort(input.length);
  const length = input.length - TAG_LENGTH;
  if (length > MAX_PLAINTEXT) throw new RangeError('ciphertext is longer than RFC 8439 allows (2^32 - 1 blocks)');
  const body = input.subarray(0, length);
  const out = output === undefined ? undefined : check.output(output, length);
  if (out !== undefined) check.noPartialOverlap(body, out);
  return { body, tag: synchronous && out === undefined ? input.subarray(length) : input.slice(length), output: out };
}

export function aadOf(aad: unknown): Uint8Array {
  return aad === undefined ? EMPTY : check.bytes(aad, 'aad');
}

/**
 * The factory of the AEAD named `name` (its function's name, for stack
 * traces): a 32-byte key, a `nonceLength`-byte nonce and optional aad,
 * checked by name, then handed to `make` (which copies what it keeps).
 * The synchronous and the parallel AEADs (index.ts, parallel/chacha.ts)
 * share it.
 */
export function chachaAead<M>(name: string, nonceLength: 12 | 24, make: (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array) => M) {
  const factory = (key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array): M => make(check.key(key, [32]), check.bytes(nonce, 'nonce', nonceLength), aadOf(aad));
  return Object.defineProperty(factory, 'name', { value: name });
}
