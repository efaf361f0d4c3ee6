/**
 * fourfold/age/typage's exports, whose Encrypter and Decrypter run chunks
 * on the pool without its Web Worker form: the entry where the host has
 * no workers (dist/edge/age-typage.js, package.json's workerd and
 * edge-light conditions). index.ts, the default entry, gives the pool
 * that form (web-workers.ts).
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
