/**
 * The stanza of a passkey or security key, "age-encryption.org/fido2prf",
 * as typage's webauthn module and the age-plugin-fido2prf plugin write it:
 *
 *     -> age-encryption.org/fido2prf <nonce: 16 random bytes, unpadded base64>
 *     <ChaCha20-Poly1305(wrap key, nonce = 12 zero bytes, file key): 32 bytes>
 *
 * The credential is asked for two outputs of its PRF (WebAuthn Level 3,
 * "Pseudo-random function extension (prf)"), on
 *
 *     "age-encryption.org/fido2prf" || 0x01 || nonce   and
 *     "age-encryption.org/fido2prf" || 0x02 || nonce,
 *
 * two rather than one so that one touch of the authenticator opens one
 * file, not two (each file's nonce is its own). The wrap key is
 * HKDF-Extract (RFC 5869 §2.2) with the type as salt over both outputs:
 * HMAC-SHA-256(key = "age-encryption.org/fido2prf", first || second). A
 * security key computes the PRF as CTAP2's hmac-secret over
 * SHA-256("WebAuthn PRF" || 0x00 || input): the same secret through the
 * browser or the plugin. The PRF is symmetric: the stanza names nothing
 * about the credential, and only the credential that wrapped it unwraps it.
 */
import { AgeFormatError } from './errors.js';
import { decodeBase64, encodeBase64, type Stanza } from './header.js';
import { checkBody, unwrap } from './identities.js';
import { utf8, wrap } from './recipients.js';
import { hmacSha256, sha256Ready } from './sha256.js';
import { zeroize } from '../runtime/bytes.js';

/** The stanza type, also the PRF inputs' prefix and the extraction's salt. */
export const FIDO2PRF_TYPE = 'age-encryption.org/fido2prf';
const LABEL = utf8(FIDO2PRF_TYPE);
/** A stanza's nonce: the PRF inputs' own part, new for each file. */
export const FIDO2PRF_NONCE_BYTES = 16;
/** A PRF output (WebAuthn: 32 bytes; CTAP2 hmac-secret: HMAC-SHA-256). */
export const PRF_OUTPUT_BYTES = 32;

/** The two PRF inputs of a stanza's nonce, `first` ending 0x01 || nonce and `second` 0x02 || nonce. */
export function prfInputs(nonce: Uint8Array): { first: Uint8Array; second: Uint8Array } {
  const input = (n: number): Uint8Array => {
    const bytes = new Uint8Array(LABEL.length + 1 + nonce.length);
    bytes.set(LABEL);
    bytes[LABEL.length] = n;
    bytes.set(nonce, LABEL.length + 1);
    return bytes;
  };
  return { first: input(1), second: input(2) };
}

/** The PRF's two outputs for a stanza's inputs, each PRF_OUTPUT_BYTES. */
export interface PrfOutputs {
  readonly first: Uint8Array;
  readonly second: Uint8Array;
}

/** The wrap key: HKDF-Extract(salt = the type, IKM = first || second), which is HMAC-SHA-256 under the salt. Call after sha256Ready(). */
export function fido2prfWrapKey(outputs: PrfOutputs): Uint8Array {
  const ikm = new Uint8Array(outputs.first.length + outputs.second.length);
  ikm.set(outputs.first);
  ikm.set(outputs.second, outputs.first.length);
  try {
    return hmacSha256(LABEL, ikm);
  } finally {
    zeroize(ikm);
  }
}

/** The stanza wrapping `fileKey` for the credential whose PRF gave `outputs` on `nonce`'s inputs. */
export async function fido2prfStanza(nonce: Uint8Array, outputs: PrfOutputs, fileKey: Uint8Array): Promise<Stanza> {
  if (nonce.length !== FIDO2PRF_NONCE_BYTES) throw new RangeError(`a fido2prf nonce of ${nonce.length} bytes (${FIDO2PRF_NONCE_BYTES} expected)`);
  await sha256Ready();
  return { type: FIDO2PRF_TYPE, args: [encodeBase64(nonce)], body: wrap(fido2prfWrapKey(outputs), fileKey) };
}

/**
 * The nonce of a fido2prf stanza, or an AgeFormatError naming the rule it
 * breaks (one argument, canonical base64 of 16 bytes, a 32-byte body), as
 * the plugin refuses such a stanza rather than passing over it.
 */
export function fido2prfNonce(s: Stanza): Uint8Array {
  if (s.args.length !== 1) throw new AgeFormatError(`a ${FIDO2PRF_TYPE} stanza of ${s.args.length} arguments after its type (1 expected: the nonce)`);
  const nonce = decodeBase64(s.args[0]!, `a ${FIDO2PRF_TYPE} stanza's nonce`);
  if (nonce.length !== FIDO2PRF_NONCE_BYTES)
    throw new AgeFormatError(`a ${FIDO2PRF_TYPE} stanza's nonce of ${nonce.length} bytes (${FIDO2PRF_NONCE_BYTES} expected)`);
  checkBody(s);
  return nonce;
}

/** The file key of a checked stanza (fido2prfNonce) under the PRF's `outputs` for its nonce, or undefined when they are another credential's. */
export async function fido2prfUnwrap(s: Stanza, outputs: PrfOutputs): Promise<Uint8Array | undefined> {
  await sha256Ready();
  return unwrap(fido2prfWrapKey(outputs), s.body);
}
