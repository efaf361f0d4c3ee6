/**
 * fourfold/age/typage: the API of typage (npm `age-encryption`, the
 * TypeScript age of age's author), on fourfold's age: a program written
 * for typage changes its import and nothing else. Encrypter and
 * Decrypter, Stanza and the Recipient and Identity interfaces for keys of
 * your own, the key calls, `armor` and `webauthn`; every key type
 * fourfold reads and writes (X25519, post-quantum hybrid, tag, SSH,
 * age-keygen files), chunks on the worker pool where it helps.
 *
 * @example
 * ```ts
 * import { Decrypter, Encrypter, generateIdentity, identityToRecipient } from 'fourfold/age/typage';
 * const identity = await generateIdentity();
 * const e = new Encrypter();
 * e.addRecipient(await identityToRecipient(identity));
 * const file = await e.encrypt('hello');
 * const d = new Decrypter();
 * d.addIdentity(identity);
 * const text = await d.decrypt(file, 'text');
 * ```
 */
/** ASCII armor: encode(file) to a string, decode(text) to the binary file. */
export * as armor from './armor.js';
/** Passkeys and security keys (WebAuthn with PRF) as recipients and identities: createCredential, WebAuthnRecipient, WebAuthnIdentity (fourfold/age's). */
export * as webauthn from './webauthn.js';
export { Decrypter } from './decrypter.js';
export { Encrypter } from './encrypter.js';
export { generateHybridIdentity, generateIdentity, generateX25519Identity, identityToRecipient } from './keys.js';
export { type Identity, type ReadableStreamWithSize, type Recipient, Stanza } from './stanza.js';
export { AgeFormatError, NoIdentityMatchError } from '../age/errors.js';
export { AuthenticationError } from '../runtime/errors.js';
export type { SshKeyWithPassphrase } from '../age/keys.js';
