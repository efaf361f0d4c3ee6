/** The ChaCha input block (RFC 8439 §2.3), for the pure-JS tier. */
import { readLE32 } from '../runtime/bytes.js';

/** "expand 32-byte k" as four little-endian words (RFC 8439 §2.3). */
export const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;
/** "expand 16-byte k", the original ChaCha's constant for 128-bit keys. */
export const TAU = [0x61707865, 0x3120646e, 0x79622d36, 0x6b206574] as const;


/**
 * The 16 input words for a key (32 bytes, or 16 used twice under TAU), a
 * 12- or 8-byte nonce and a counter, laid out as ChachaEngine.xor describes.
 */
export function inputBlock(key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): Uint32Array {
  const state = new Uint32Array(16);
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) state[i] = constants[i];
  for (let i = 0; i < 8; i++) state[4 + i] = readLE32(key, (4 * i) % key.length);
  state[12] = counterLow;
  if (nonce.length === 8) state[13] = counterHigh;
  for (let i = 0; i < nonce.length / 4; i++) state[16 - nonce.length / 4 + i] = readLE32(nonce, 4 * i);
  return state;
}
