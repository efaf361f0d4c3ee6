/**
 * What the Salsa20 family's synchronous API (index.ts) and
 * fourfold/parallel's (parallel/salsa.ts) share: the variants, and where an
 * output may lie.
 */
import * as check from '../runtime/assert.js';
import type { StreamVariant } from '../runtime/stream-cipher.js';
import { DOUBLE_ROUNDS } from '../runtime/stream-cipher.js';

/** Salsa20: 64-bit block counter (words 8..9), 8-byte nonce, 32- or 16-byte key. */
export const SALSA20: StreamVariant = { nonceLength: 8, doubleRounds: DOUBLE_ROUNDS, counterBits: 64, keyLengths: [32, 16] };
/** Salsa20/12. */
export const SALSA2012: StreamVariant = { nonceLength: 8, doubleRounds: 6, counterBits: 64, keyLengths: [32, 16] };
/** Salsa20/8. */
export const SALSA208: StreamVariant = { nonceLength: 8, doubleRounds: 4, counterBits: 64, keyLengths: [32, 16] };
/** XSalsa20: 24-byte nonce, 32-byte key. */
export const XSALSA20: StreamVariant = { nonceLength: 24, doubleRounds: DOUBLE_ROUNDS, counterBits: 64, keyLengths: [32] };

/**
 * Whether writing `out` front to back while reading `input` front to back,
 * at the same positions, would overwrite input bytes before they are read:
 * `out` starts inside `input`, after its start.
 */
export function writesAhead(input: Uint8Array, out: Uint8Array): boolean {
  if (input.length === 0 || !check.sameMemory(input, out)) return false;
  return out.byteOffset > input.byteOffset && out.byteOffset < input.byteOffset + input.length;
}
