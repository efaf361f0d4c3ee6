/**
 * An identity's recipient (identityToRecipient): an X25519 identity's
 * public key, X25519(identity, basepoint) from @noble/curves, at once; a
 * hybrid one's from its type's code (hybrid.ts). Apart from keys.ts, so
 * that what only reads keys (encrypting, decrypting) loads no curve code:
 * @noble/curves' Ed25519 module builds its tables as it loads, and its
 * first multiplication more, some 40 ms of a fresh process. The command
 * and the typage API (src/typage/keys.ts) take keys.ts's recipientOfKey,
 * on the platform's X25519.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { KEY_HYBRID } from './key-types.js';
import { encodeRecipient, type HybridIdentity, hybridRecipientOf, singleIdentityKey, type X25519Identity } from './keys.js';
import { zeroize } from '../runtime/bytes.js';

/**
 * The recipient of an identity: of an X25519 one ("AGE-SECRET-KEY-1..."),
 * "age1...", at once; of a hybrid one ("AGE-SECRET-KEY-PQ-1..."), a
 * promise of "age1pq1...", as its ML-KEM code is loaded on first use.
 * `await` gives the recipient either way.
 */
export function identityToRecipient(identity: X25519Identity): string;
/** The recipient ("age1pq1...") of a post-quantum hybrid identity, once ML-KEM's code is loaded. */
export function identityToRecipient(identity: HybridIdentity): Promise<string>;
/**
 * The recipient of an identity of either kind, or of the one an identity
 * file's text holds (age-keygen's, comments and all): a string for
 * X25519, a Promise for a hybrid one. `await` gives it either way.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { identityToRecipient } from 'fourfold/age';
 * const recipient = await identityToRecipient(readFileSync('key.txt', 'utf8')); // age1... or age1pq1...
 * ```
 */
export function identityToRecipient(identity: string): string | Promise<string>;
export function identityToRecipient(identity: string): string | Promise<string> {
  const key = singleIdentityKey(identity, 'identity');
  if (key.type === KEY_HYBRID) return hybridRecipientOf(key.bytes);
  try {
    return encodeRecipient(x25519.getPublicKey(key.bytes));
  } finally {
    zeroize(key.bytes);
  }
}
