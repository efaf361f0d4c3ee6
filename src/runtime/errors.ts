/**
 * Thrown when an AEAD tag does not verify. The plaintext is never returned,
 * and a caller-supplied output buffer is wiped before this is thrown.
 */
export class AuthenticationError extends Error {
  /** An error whose message says what may have happened (the default names every cause). */
  constructor(message = 'invalid tag: ciphertext or associated data was modified, or the key or nonce is wrong') {
    super(message);
    this.name = 'AuthenticationError';
  }
}
