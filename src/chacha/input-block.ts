/** The ChaCha input block (RFC 8439 §2.3), for the pure-JS tier. */
import { COUNTER_WORD, KEY_WORD } from '../chachapoly/layout.js';
import { readLE32 } from '../runtime/bytes.js';
import { SIGMA, TAU } from '../salsa/constants.js';

/**
 * ChaCha's constants are Salsa20's (RFC 8439 §2.3: "expand 32-byte k"; the
 * original ChaCha's "expand 16-byte k" for 128-bit keys), defined once in
 * salsa/constants.ts.
 */
export { SIGMA, TAU };

/**
 * The 16 input words for a key (32 bytes, or 16 used twice under TAU), a
 * 12- or 8-byte nonce and a counter, laid out as ChachaEngine.xor describes.
 */
export function inputBlock(key: Uint8Array, nonce: Uint8Array, counterLow: number, counterHigh: number): Uint32Array {
  const state = new Uint32Array(16);
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) state[i] = constants[i];
  for (let i = 0; i < 8; i++) state[KEY_WORD + i] = readLE32(key, (4 * i) % key.length);
  state[COUNTER_WORD] = counterLow;
  if (nonce.length === 8) state[COUNTER_WORD + 1] = counterHigh;
  for (let i = 0; i < nonce.length / 4; i++) state[16 - nonce.length / 4 + i] = readLE32(nonce, 4 * i);
  return state;
}
