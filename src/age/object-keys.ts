/**
 * Recipients and identities given as objects (typage's `Recipient` and
 * `Identity` interfaces): their types, and what tells one from a key
 * string. The code that calls them and checks what they give is
 * custom-keys.ts, imported only when a call is given such an object.
 */

/** A stanza as typage's Stanza class holds it: every argument, the type first, and the body (an instance of that class is one). */
export interface ObjectStanza {
  /** The arguments of the stanza's first line, its type first ("X25519", "example.com/..."): each one or more visible ASCII characters. */
  args: string[];
  /** The body's bytes (base64 lines in the header). */
  body: Uint8Array;
}

/** A recipient of typage's interface: wraps a file key (16 bytes, not to be kept) into one or more stanzas. */
export interface ObjectRecipient {
  /** The stanzas that carry `fileKey` (a copy, wiped once this settles) for this recipient: one or more, for each file. */
  wrapFileKey(fileKey: Uint8Array): ObjectStanza[] | Promise<ObjectStanza[]>;
}

/** An identity of typage's interface: the file key (16 bytes) one of the stanzas gives it, or null when none is for it. */
export interface ObjectIdentity {
  /** The file key a stanza of this identity's among `stanzas` (copies) gives, or null when none is its: a file for other keys. */
  unwrapFileKey(stanzas: ObjectStanza[]): Uint8Array | null | Promise<Uint8Array | null>;
}

/** Whether `value` is a recipient object (a `wrapFileKey` method) rather than a key string. */
export const isObjectRecipient = (value: unknown): value is ObjectRecipient =>
  typeof value === 'object' && value !== null && typeof (value as Partial<ObjectRecipient>).wrapFileKey === 'function';

/** Whether `value` is an identity object (an `unwrapFileKey` method) rather than a key string or { sshKey, passphrase }. */
export const isObjectIdentity = (value: unknown): value is ObjectIdentity =>
  typeof value === 'object' && value !== null && typeof (value as Partial<ObjectIdentity>).unwrapFileKey === 'function';
