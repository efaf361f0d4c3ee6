/**
 * The calls to the browser's WebAuthn (navigator.credentials) for
 * passkeys: a new credential with the PRF extension, and the PRF's two
 * outputs for a stanza's nonce (fido2prf.ts has the format), with what
 * each asks of the authenticator as typage asks it (user verification
 * required, which PRF needs; a discoverable credential for a passkey, a
 * non-discoverable one and the security-key hint for a security key).
 * Imported by webauthn.ts at the first call.
 */
import type { ObjectStanza } from './object-keys.js';
import type { Stanza } from './header.js';
import {
  FIDO2PRF_NONCE_BYTES,
  FIDO2PRF_TYPE,
  fido2prfNonce,
  fido2prfStanza,
  fido2prfUnwrap,
  PRF_OUTPUT_BYTES,
  type PrfOutputs,
  prfInputs,
} from './fido2prf.js';
import { encodeIdentity } from './webauthn-encode.js';
import { type CredentialRef, PrfUnsupportedError } from './webauthn-keys.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';

/** What a WebAuthn call needs to find the credential: the one an identity string names, or any discoverable one of a relying party. */
export interface CredentialChoice {
  readonly ref?: CredentialRef;
  readonly rpId?: string;
}

/** The options of createCredential, as typage's CreationOptions. */
export interface CreationChoice {
  readonly keyName: string;
  readonly type: 'passkey' | 'security-key';
  readonly rpId?: string;
}

/**
 * Public-key algorithms a new credential may use: the key is never used
 * (only its PRF is), so any an authenticator has will do (COSE: EdDSA,
 * ES256, RS256).
 */
const ALGORITHMS = [-8, -7, -257].map((alg) => ({ type: 'public-key' as const, alg }));

/** This runtime's CredentialsContainer, or a PrfUnsupportedError saying there is none. */
function credentials(): CredentialsContainer {
  const container = typeof navigator === 'undefined' ? undefined : (navigator as Partial<Navigator>).credentials;
  if (container === undefined || typeof PublicKeyCredential === 'undefined')
    throw new PrfUnsupportedError(
      "this runtime has no WebAuthn (navigator.credentials and PublicKeyCredential): passkeys are a browser page's, in a secure context (https:, or http://localhost)",
    );
  return container;
}

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** A new credential with PRF for the options, as its identity string (webauthn-keys.ts). */
export async function newCredential(choice: CreationChoice): Promise<string> {
  const passkey = choice.type === 'passkey';
  const created = (await credentials().create({
    publicKey: {
      rp: { name: '', ...(choice.rpId === undefined ? {} : { id: choice.rpId }) },
      // A new user handle each time: the same one would replace a passkey made before for this relying party.
      user: { name: choice.keyName, id: random(8), displayName: '' },
      pubKeyCredParams: ALGORITHMS,
      authenticatorSelection: { requireResidentKey: passkey, residentKey: passkey ? 'required' : 'discouraged', userVerification: 'required' },
      ...({ hints: passkey ? [] : ['security-key'] } as object),
      extensions: { prf: {} },
      // No attestation is asked for: the challenge signs nothing anyone checks.
      challenge: random(16),
    },
  })) as PublicKeyCredential | null;
  if (created === null) throw new PrfUnsupportedError('the browser made no credential');
  if (created.getClientExtensionResults().prf?.enabled !== true)
    throw new PrfUnsupportedError(
      'the authenticator made the credential without the PRF extension, which age needs: a browser that has it (a recent Chrome, Edge or Firefox; Safari 18) and an authenticator that has it (a platform passkey, or a security key with hmac-secret)',
    );
  const response = created.response as AuthenticatorAttestationResponse;
  // The credential does not say its relying party: it is the one asked for, or by default this page's host.
  const rpId = choice.rpId ?? location.hostname;
  return encodeIdentity({ credentialId: new Uint8Array(created.rawId), rpId, transports: response.getTransports?.() ?? [] });
}

/** A PRF result as bytes of our own: a BufferSource as the specification has it, or the array of numbers some password managers give. */
function outputBytes(result: unknown, which: string): Uint8Array {
  let bytes: Uint8Array;
  if (result instanceof ArrayBuffer) bytes = new Uint8Array(result).slice();
  else if (ArrayBuffer.isView(result)) bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength).slice();
  else if (Array.isArray(result)) bytes = Uint8Array.from(result as number[]);
  else throw new PrfUnsupportedError(`the authenticator gave no ${which} PRF output (got ${check.describe(result)})`);
  if (bytes.length !== PRF_OUTPUT_BYTES)
    throw new RangeError(`the authenticator's ${which} PRF output is ${bytes.length} bytes (${PRF_OUTPUT_BYTES} expected)`);
  return bytes;
}

/** The credential's two PRF outputs on `nonce`'s inputs (fido2prf.ts), after the user's verification. */
export async function prfOutputs(choice: CredentialChoice, nonce: Uint8Array): Promise<PrfOutputs> {
  const { ref } = choice;
  const allow =
    ref === undefined ? [] : [{ type: 'public-key' as const, id: ref.credentialId.slice(), transports: [...ref.transports] as AuthenticatorTransport[] }];
  const inputs = prfInputs(nonce);
  const assertion = (await credentials().get({
    publicKey: {
      allowCredentials: allow,
      challenge: random(16),
      // Arrays of our own, on an ArrayBuffer: BufferSources as WebAuthn's types have them.
      extensions: { prf: { eval: inputs as AuthenticationExtensionsPRFValues } },
      userVerification: 'required',
      ...((ref?.rpId ?? choice.rpId) === undefined ? {} : { rpId: ref?.rpId ?? choice.rpId }),
    },
  })) as PublicKeyCredential | null;
  const results = assertion?.getClientExtensionResults().prf?.results;
  if (results === undefined)
    throw new PrfUnsupportedError(
      "the credential gave no PRF output: this browser or authenticator lacks WebAuthn's PRF extension, which age needs (a recent Chrome, Edge or Firefox, or Safari 18; a platform passkey, or a security key with hmac-secret)",
    );
  const first = outputBytes(results.first, 'first');
  if (results.second === undefined) throw new PrfUnsupportedError('the authenticator gave one PRF output, and age asks for two');
  return { first, second: outputBytes(results.second, 'second') };
}

const forget = (outputs: PrfOutputs): void => {
  zeroize(outputs.first);
  zeroize(outputs.second);
};

/** The stanza that wraps `fileKey` for the credential. */
export async function wrapWithCredential(choice: CredentialChoice, fileKey: Uint8Array): Promise<Stanza> {
  const nonce = random(FIDO2PRF_NONCE_BYTES);
  const outputs = await prfOutputs(choice, nonce);
  try {
    return await fido2prfStanza(nonce, outputs, fileKey);
  } finally {
    forget(outputs);
  }
}

/** WebAuthnRecipient's wrapFileKey: the stanza for `fileKey` (a copy, wiped here once done) as typage's Stanza holds it. */
export async function wrapForObject(choice: CredentialChoice, fileKey: Uint8Array): Promise<ObjectStanza[]> {
  try {
    const s = await wrapWithCredential(choice, fileKey);
    return [{ args: [s.type, ...s.args], body: s.body }];
  } finally {
    zeroize(fileKey);
  }
}

/**
 * The file key the credential unwraps from one of `stanzas`, or undefined
 * when none is its. Every fido2prf stanza is checked before the user is
 * asked anything; then each asks the authenticator once, in order.
 */
export async function unwrapWithCredential(choice: CredentialChoice, stanzas: readonly Stanza[]): Promise<Uint8Array | undefined> {
  const mine = stanzas.filter((s) => s.type === FIDO2PRF_TYPE).map((s) => ({ s, nonce: fido2prfNonce(s) }));
  for (const { s, nonce } of mine) {
    const outputs = await prfOutputs(choice, nonce);
    try {
      const fileKey = await fido2prfUnwrap(s, outputs);
      if (fileKey !== undefined) return fileKey;
    } finally {
      forget(outputs);
    }
  }
  return undefined;
}
