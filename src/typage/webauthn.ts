/**
 * typage's `webauthn` namespace: passkeys and security keys (WebAuthn
 * credentials with the PRF extension) as age recipients and identities,
 * fourfold/age's (createCredential, WebAuthnRecipient, WebAuthnIdentity,
 * their option types, and PrfUnsupportedError), which the Encrypter and
 * Decrypter take as they take any Recipient or Identity.
 */
export * from '../age/webauthn.js';
