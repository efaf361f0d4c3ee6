/** Building the 16-word ChaCha input state (RFC 8439 §2.3). */

/** "expand 32-byte k" as four little-endian words (RFC 8439 §2.3). */
export const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;
/** "expand 16-byte k", the original ChaCha's constant for 128-bit keys. */
export const TAU = [0x61707865, 0x3120646e, 0x79622d36, 0x6b206574] as const;

/** The little-endian 32-bit word at `bytes[offset..offset+4]`, at any alignment. */
export const readWord = (bytes: Uint8Array, offset: number): number =>
  (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;

/**
 * Fills `state` with constants and key: a 32-byte key, or a 16-byte key
 * used twice under TAU (the original ChaCha's 128-bit variant).
 */
export function setKey(state: Uint32Array, key: Uint8Array): void {
  const constants = key.length === 32 ? SIGMA : TAU;
  for (let i = 0; i < 4; i++) state[i] = constants[i];
  for (let i = 0; i < 8; i++) state[4 + i] = readWord(key, (4 * i) % key.length);
}

/** Words `from..` of `state` from the nonce bytes `nonce[start..start + 4 * count]`. */
export function setWords(state: Uint32Array, from: number, nonce: Uint8Array, start: number, count: number): void {
  for (let i = 0; i < count; i++) state[from + i] = readWord(nonce, start + 4 * i);
}
