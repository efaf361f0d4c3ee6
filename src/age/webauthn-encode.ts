/**
 * A passkey's identity string as createCredential writes it: Bech32 of
 * the CBOR sequence webauthn-keys.ts reads (the version, the credential
 * ID, the relying party ID, the transports), each length in its shortest
 * form (RFC 8949 §4.2.1), as typage and age-plugin-fido2prf write it.
 * Apart from the reader, so that a page loads it only with the calls that
 * make a credential (webauthn-calls.ts).
 */
import { bech32 } from './text-encodings.js';
import { ARRAY, BYTES, type CredentialRef, IDENTITY_PREFIX, TEXT, UNSIGNED, VERSION } from './webauthn-keys.js';

/** A CBOR head: major type `major` and argument `n` (at most 16 bits), in its shortest form. */
function head(major: number, n: number): number[] {
  if (n > 0xffff) throw new RangeError(`a length of ${n} in a passkey identity, more than its 16 bits allow`);
  if (n <= 23) return [(major << 5) | n];
  if (n <= 0xff) return [(major << 5) | 24, n];
  return [(major << 5) | 25, n >> 8, n & 0xff];
}

const text = (s: string): number[] => {
  const bytes = new TextEncoder().encode(s);
  return [...head(TEXT, bytes.length), ...bytes];
};

/** The identity string of `ref`, in upper case as age writes identities. */
export function encodeIdentity(ref: CredentialRef): string {
  const data = [
    ...head(UNSIGNED, VERSION),
    ...head(BYTES, ref.credentialId.length),
    ...ref.credentialId,
    ...text(ref.rpId),
    ...head(ARRAY, ref.transports.length),
    ...ref.transports.flatMap(text),
  ];
  return bech32.encode(IDENTITY_PREFIX, bech32.toWords(Uint8Array.from(data)), false).toUpperCase();
}
