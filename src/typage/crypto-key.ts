/**
 * X25519 identities held as WebCrypto keys (typage's Decrypter.addIdentity
 * and identityToRecipient take a private CryptoKey whose algorithm is
 * X25519): the key never leaves WebCrypto, and multiplies there, as a
 * multiplier of fourfold's (src/age/x25519.ts) that the X25519 stanza's
 * unwrapping takes.
 */
import { encodeRecipient } from '../age/keys.js';
import { type Multiplier, publicKeyWith } from '../age/x25519.js';

/** Whether `value` is a WebCrypto key (the platform may have none). */
export const isCryptoKey = (value: unknown): value is CryptoKey => typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;

/** The multiplier of a private X25519 CryptoKey, all zeros for a low-order point (as fourfold's own: the stanza's check then refuses it). */
export function cryptoKeyMultiplier(key: CryptoKey): Multiplier {
  if (key.type !== 'private' || key.algorithm.name !== 'X25519' || !key.usages.includes('deriveBits'))
    throw new TypeError(
      `a CryptoKey identity must be a private X25519 key with the deriveBits usage, got a ${key.type} ${key.algorithm.name} key (${key.usages.join(', ')})`,
    );
  return async (u) => {
    try {
      const point = await crypto.subtle.importKey('raw', u.slice(), { name: 'X25519' }, false, []);
      return new Uint8Array(await crypto.subtle.deriveBits({ name: 'X25519', public: point }, key, 256));
    } catch {
      return new Uint8Array(32);
    }
  };
}

/** The recipient ("age1...") of a private X25519 CryptoKey. */
export const cryptoKeyRecipient = async (key: CryptoKey): Promise<string> => encodeRecipient(await publicKeyWith(cryptoKeyMultiplier(key)));
