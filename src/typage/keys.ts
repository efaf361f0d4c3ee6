/**
 * typage's key calls, which return promises: new identities from the
 * platform's CSPRNG as age-keygen makes them, and an identity's recipient
 * (of a string, an identity file's text, or a private X25519 CryptoKey).
 * Being asynchronous, the recipient comes from the platform's X25519
 * (age/x25519.ts: WebCrypto, @noble/curves imported only where it has
 * none), not fourfold/age's synchronous call, which holds @noble/curves:
 * a page of typage's calls loads no curve code where WebCrypto has X25519.
 */
import { generateHybridIdentity as hybridIdentity, recipientOfKey, singleIdentityKey, generateIdentity as x25519Identity } from '../age/keys.js';
import { cryptoKeyRecipient, isCryptoKey } from './crypto-key.js';

/** A new identity, "AGE-SECRET-KEY-1..." (X25519; typage's default, which may become post-quantum, as its own docs say). */
export const generateIdentity = (): Promise<string> => generateX25519Identity();

/** A new X25519 identity, "AGE-SECRET-KEY-1...". */
export const generateX25519Identity = async (): Promise<string> => x25519Identity();

/** A new post-quantum hybrid identity (ML-KEM-768 + X25519), "AGE-SECRET-KEY-PQ-1...", whose recipient is "age1pq1...". */
export const generateHybridIdentity = async (): Promise<string> => hybridIdentity();

/**
 * The recipient of an identity: "age1..." of "AGE-SECRET-KEY-1..." or of a
 * private X25519 CryptoKey, "age1pq1..." of "AGE-SECRET-KEY-PQ-1...".
 */
export async function identityToRecipient(identity: string | CryptoKey): Promise<string> {
  return isCryptoKey(identity) ? cryptoKeyRecipient(identity) : recipientOfKey(singleIdentityKey(identity, 'identity'));
}
