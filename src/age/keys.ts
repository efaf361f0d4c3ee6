/**
 * age's X25519 keys (C2SP age, "The X25519 recipient type"): an identity
 * is 32 random bytes, Bech32-encoded with the human-readable part
 * AGE-SECRET-KEY- in upper case; its recipient is X25519(identity,
 * basepoint), Bech32 with age. Bech32 is BIP 173's without its length
 * limit, from @scure/base; X25519 (RFC 7748) from @noble/curves.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { bech32 } from '@scure/base';
import { zeroize } from '../runtime/bytes.js';

const IDENTITY_PREFIX = 'age-secret-key-';
const RECIPIENT_PREFIX = 'age';

/** The 32 bytes of a Bech32 string with human-readable part `prefix` (either case, not mixed), or undefined. */
function decodeKey(text: string, prefix: string): Uint8Array | undefined {
  try {
    const { prefix: found, words } = bech32.decode(text as `${string}1${string}`, false);
    const bytes = bech32.fromWords(words);
    return found === prefix && bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The secret scalar of an identity string ("AGE-SECRET-KEY-1..."), or a RangeError naming `name`. */
export function identityKey(identity: unknown, name: string): Uint8Array {
  if (typeof identity !== 'string') throw new TypeError(`${name} must be a string ("AGE-SECRET-KEY-1..."), got ${typeof identity}`);
  const key = decodeKey(identity, IDENTITY_PREFIX);
  if (key === undefined) throw new RangeError(`${name} is not an age X25519 identity ("AGE-SECRET-KEY-1..." with a valid checksum)`);
  return key;
}

/** The public key of a recipient string ("age1..."), or a RangeError naming `name`. */
export function recipientKey(recipient: unknown, name: string): Uint8Array {
  if (typeof recipient !== 'string') throw new TypeError(`${name} must be a string ("age1..."), got ${typeof recipient}`);
  const key = decodeKey(recipient, RECIPIENT_PREFIX);
  if (key === undefined) throw new RangeError(`${name} is not an age X25519 recipient ("age1..." with a valid checksum)`);
  return key;
}

const encodeIdentity = (secret: Uint8Array): string => bech32.encode(IDENTITY_PREFIX, bech32.toWords(secret), false).toUpperCase();
const encodeRecipient = (publicKey: Uint8Array): string => bech32.encode(RECIPIENT_PREFIX, bech32.toWords(publicKey), false);

/**
 * A new X25519 identity, "AGE-SECRET-KEY-1...", from the platform's
 * CSPRNG (crypto.getRandomValues), as age-keygen makes them.
 *
 * @example
 * ```ts
 * import { generateIdentity, identityToRecipient } from 'fourfold/age';
 * const identity = generateIdentity(); // keep it secret: it decrypts
 * const recipient = identityToRecipient(identity); // "age1...": give it to whoever encrypts to you
 * ```
 */
export function generateIdentity(): string {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  try {
    return encodeIdentity(secret);
  } finally {
    zeroize(secret);
  }
}

/** The recipient ("age1...") of an X25519 identity ("AGE-SECRET-KEY-1..."): X25519(identity, basepoint). */
export function identityToRecipient(identity: string): string {
  const secret = identityKey(identity, 'identity');
  try {
    return encodeRecipient(x25519.getPublicKey(secret));
  } finally {
    zeroize(secret);
  }
}
