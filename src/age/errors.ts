/**
 * What an age file can fail with, besides AuthenticationError (a header
 * MAC or a payload chunk that does not verify: a changed, cut short or
 * extended file): the file is not a well-formed age file, or none of the
 * given identities or passphrases opens it.
 */
import { AuthenticationError } from '../runtime/errors.js';

/**
 * The input is not a well-formed age file (C2SP age v1): not an age file
 * at all, a header or ASCII armor that breaks a rule of the format, a
 * stanza the identity's type rejects. Nothing was decrypted.
 */
export class AgeFormatError extends Error {
  /** An error whose message says which rule the input breaks. */
  constructor(message: string) {
    super(message);
    this.name = 'AgeFormatError';
  }
}

/**
 * None of the identities (or the passphrase) unwraps the file key: the
 * file is for someone else, or the passphrase is wrong. An
 * AuthenticationError, so code that catches those around untrusted input
 * catches this too.
 */
export class NoIdentityMatchError extends AuthenticationError {
  /** An error whose message says what did not match (the identities, or the passphrase). */
  constructor(message: string) {
    super(message);
    this.name = 'NoIdentityMatchError';
  }
}
