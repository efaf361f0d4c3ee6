/**
 * age's X25519 keys (C2SP age, "The X25519 recipient type"): an identity
 * is 32 random bytes, Bech32-encoded with the human-readable part
 * AGE-SECRET-KEY- in upper case; its recipient is X25519(identity,
 * basepoint), Bech32 with age in lower case. Each is read only in the
 * case age writes it, as age's own parsers read them; key-types.ts says
 * what any other string is. Bech32 is BIP 173's without its length limit,
 * from @scure/base; X25519 (RFC 7748) from @noble/curves.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { bech32 } from '@scure/base';
import { notAnIdentity, notARecipient } from './key-types.js';
import { zeroize } from '../runtime/bytes.js';

const IDENTITY_PREFIX = 'age-secret-key-';
const RECIPIENT_PREFIX = 'age';

/**
 * The 32 bytes of `text` when it is Bech32 with human-readable part
 * `prefix`, written as age writes it (`prefix1` at its start, in `upper`
 * case or lower), or undefined.
 */
function decodeKey(text: string, prefix: string, upper: boolean): Uint8Array | undefined {
  const written = upper ? text.toUpperCase() : text.toLowerCase();
  if (text !== written || !written.startsWith(upper ? `${prefix.toUpperCase()}1` : `${prefix}1`)) return undefined;
  try {
    const { prefix: found, words } = bech32.decode(text as `${string}1${string}`, false);
    const bytes = bech32.fromWords(words);
    return found === prefix && bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** The secret scalar of an identity string ("AGE-SECRET-KEY-1...", upper case), or a RangeError naming `name` and what the string is instead. */
export function identityKey(identity: unknown, name: string): Uint8Array {
  if (typeof identity !== 'string') throw new TypeError(`${name} must be a string ("AGE-SECRET-KEY-1..."), got ${typeof identity}`);
  const key = decodeKey(identity, IDENTITY_PREFIX, true);
  if (key === undefined) throw new RangeError(`${name} is ${notAnIdentity(identity)}`);
  return key;
}

/** The public key of a recipient string ("age1...", lower case), or a RangeError naming `name` and what the string is instead. */
export function recipientKey(recipient: unknown, name: string): Uint8Array {
  if (typeof recipient !== 'string') throw new TypeError(`${name} must be a string ("age1..."), got ${typeof recipient}`);
  const key = decodeKey(recipient, RECIPIENT_PREFIX, false);
  if (key === undefined) throw new RangeError(`${name} is ${notARecipient(recipient)}`);
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
  return recipientOf(identity, 'identity');
}

/** identityToRecipient, its errors naming the identity `name`. */
export function recipientOf(identity: unknown, name: string): string {
  const secret = identityKey(identity, name);
  try {
    return encodeRecipient(x25519.getPublicKey(secret));
  } finally {
    zeroize(secret);
  }
}
