/**
 * A passkey or security key as age names it: the identity string
 * "AGE-PLUGIN-FIDO2PRF-1..." that typage's createCredential and the
 * age-plugin-fido2prf plugin write, and the error of a runtime or an
 * authenticator without WebAuthn's PRF extension. The string is Bech32
 * (no length limit: a credential ID may be up to 1,023 bytes) of a
 * sequence in CTAP2's subset of CBOR (RFC 8949 §3; CTAP 2.1 §8
 * "Message Encoding"): the version 1 (an unsigned integer), the
 * credential ID (a byte string), the relying party ID (a text string) and
 * the transports to hint (an array of text strings). Both writers encode
 * each length in its shortest form, within 16 bits; this reads the longer
 * forms too, as both readers do, and nothing after the array, as the
 * plugin does. Read where a recipient or identity object is made, as
 * typage reads it; written by webauthn-encode.ts, which comes with the code
 * that calls the authenticator (webauthn-calls.ts, imported at the first
 * call).
 */
import { bech32 } from './text-encodings.js';

/** The plugin's name in its identity string (age's plugin identities: AGE-PLUGIN-<NAME>-1...). */
export const IDENTITY_PREFIX = 'AGE-PLUGIN-FIDO2PRF-';
export const VERSION = 1;

/** CBOR's major types used here (RFC 8949 §3.1). */
export const UNSIGNED = 0;
export const BYTES = 2;
export const TEXT = 3;
export const ARRAY = 4;

/**
 * This runtime or authenticator cannot give age a key from a credential:
 * no WebAuthn (navigator.credentials: Node, a worker, an insecure page),
 * or a browser or authenticator without the PRF extension (which a recent
 * Chrome, Edge or Firefox and Safari 18 have, with a platform passkey or a
 * security key with CTAP2's hmac-secret). Nothing was encrypted or
 * decrypted.
 */
export class PrfUnsupportedError extends Error {
  /** An error whose message says what is missing. */
  constructor(message: string) {
    super(message);
    this.name = 'PrfUnsupportedError';
  }
}

/** What an identity string names: the credential, the relying party it belongs to, and how to reach its authenticator. */
export interface CredentialRef {
  readonly credentialId: Uint8Array;
  readonly rpId: string;
  readonly transports: readonly string[];
}

/** A reader over CBOR items of the kinds above; each read names what it expected in its error. */
class CborReader {
  private at = 0;
  constructor(private readonly data: Uint8Array) {}

  /** The argument of the next head, which must be of major type `major`. */
  private head(major: number, what: string): number {
    const first = this.data[this.at];
    if (first === undefined || first >> 5 !== major) throw malformed(`${what} expected`);
    const minor = first & 0x1f;
    const extra = minor <= 23 ? 0 : minor === 24 ? 1 : minor === 25 ? 2 : -1;
    if (extra < 0) throw malformed(`${what} with a length of more than 16 bits`);
    if (this.at + 1 + extra > this.data.length) throw malformed(`it ends inside ${what}`);
    const n = extra === 0 ? minor : extra === 1 ? this.data[this.at + 1]! : (this.data[this.at + 1]! << 8) | this.data[this.at + 2]!;
    this.at += 1 + extra;
    return n;
  }

  private take(n: number, what: string): Uint8Array {
    if (this.at + n > this.data.length) throw malformed(`it ends inside ${what}`);
    this.at += n;
    return this.data.slice(this.at - n, this.at);
  }

  uint(what: string): number {
    return this.head(UNSIGNED, what);
  }

  bytes(what: string): Uint8Array {
    return this.take(this.head(BYTES, what), what);
  }

  text(what: string): string {
    const bytes = this.take(this.head(TEXT, what), what);
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw malformed(`${what} is not UTF-8`);
    }
  }

  texts(what: string): string[] {
    const n = this.head(ARRAY, what);
    return Array.from({ length: n }, (_, i) => this.text(`${what}[${i}]`));
  }

  end(): void {
    if (this.at !== this.data.length) throw malformed(`${this.data.length - this.at} bytes after its transports`);
  }
}

const malformed = (why: string): RangeError => new RangeError(`a malformed passkey identity (AGE-PLUGIN-FIDO2PRF-1...): ${why}`);

/** What the identity string `identity` names, or a TypeError or RangeError saying why it is not one. */
export function decodeIdentity(identity: unknown): CredentialRef {
  if (typeof identity !== 'string') throw new TypeError(`options.identity must be a string ("AGE-PLUGIN-FIDO2PRF-1..."), got ${typeof identity}`);
  if (!identity.startsWith(`${IDENTITY_PREFIX}1`) || identity !== identity.toUpperCase())
    throw new RangeError('options.identity is not a passkey identity: those start with "AGE-PLUGIN-FIDO2PRF-1", in upper case');
  let data: Uint8Array;
  try {
    data = bech32.fromWords(bech32.decode(identity as `${string}1${string}`, false).words);
  } catch {
    throw malformed('its Bech32 does not decode (a character changed or missing)');
  }
  const reader = new CborReader(data);
  const version = reader.uint('a version');
  if (version !== VERSION) throw new RangeError(`a passkey identity of version ${version}: fourfold reads version ${VERSION}`);
  const ref = { credentialId: reader.bytes('a credential ID'), rpId: reader.text('a relying party ID'), transports: reader.texts('transports') };
  reader.end();
  return ref;
}
