/**
 * Passkeys and security keys as age recipients and identities, with the
 * names of typage's `webauthn` module: createCredential makes a WebAuthn
 * credential with the PRF extension and gives its identity string
 * ("AGE-PLUGIN-FIDO2PRF-1..."); WebAuthnRecipient encrypts to it and
 * WebAuthnIdentity decrypts with it, each asking the authenticator for
 * its PRF on the file's own nonce (fido2prf.ts: the stanza typage and
 * age-plugin-fido2prf write, so files move between the three). They are
 * objects of typage's Recipient and Identity interfaces, given in
 * fourfold/age's `recipients` and `identities` (custom-keys.ts). An
 * identity string is read when the object is made (webauthn-keys.ts);
 * the code that calls the authenticator, at the first call.
 */
import type { ObjectStanza } from './object-keys.js';
import type { Stanza } from './header.js';
import { FILE_KEY_BYTES } from './recipients.js';
import type { CredentialChoice } from './webauthn-calls.js';
import { decodeIdentity } from './webauthn-keys.js';
import * as check from '../runtime/assert.js';
import { zeroize } from '../runtime/bytes.js';

export { PrfUnsupportedError } from './webauthn-keys.js';

// biome-ignore format: the parentheses keep Vite's preload helper out (keys.ts)
const calls = () => import(('./webauthn-calls.js'));

/** createCredential's options (typage's CreationOptions). */
export interface CreationOptions {
  /** The credential's name, which the browser and the authenticator show (WebAuthn's user.name). */
  keyName: string;
  /**
   * 'passkey' (the default): a discoverable credential, which the user can
   * pick without its identity string. 'security-key': a credential the
   * authenticator does not store, found only through its identity string
   * (keep it: it cannot be made again), with the browser told to ask for a
   * hardware key; age-plugin-fido2prf can use it outside the browser.
   */
  type?: 'passkey' | 'security-key';
  /** The relying party ID: this page's domain (the default) or a parent of it; the credential works on that domain and its subdomains. */
  rpId?: string;
}

/** WebAuthnRecipient's and WebAuthnIdentity's options (typage's Options). */
export interface Options {
  /** The identity string createCredential gave: this credential and no other is asked. Without it the user picks a discoverable one. */
  identity?: string;
  /** The relying party ID to pick a discoverable credential from, when there is no identity (whose own it takes). */
  rpId?: string;
}

/**
 * A new WebAuthn credential with the PRF extension, as its identity string
 * ("AGE-PLUGIN-FIDO2PRF-1...": the credential ID, the relying party ID and
 * the transports). Rejects with PrfUnsupportedError where there is no
 * WebAuthn or the authenticator has no PRF, and with the browser's
 * DOMException when the user cancels.
 *
 * @example
 * ```ts
 * import { encrypt, decrypt, webauthn } from 'fourfold/age';
 * const identity = await webauthn.createCredential({ keyName: 'my files' });
 * const file = await encrypt(data, { recipients: [new webauthn.WebAuthnRecipient({ identity })] });
 * const back = await decrypt(file, { identities: [new webauthn.WebAuthnIdentity({ identity })] });
 * ```
 */
export async function createCredential(options: CreationOptions): Promise<string> {
  const o = check.options(options, 'options', ['keyName', 'type', 'rpId']) as Partial<CreationOptions> | undefined;
  const keyName = o?.keyName;
  if (typeof keyName !== 'string') throw new TypeError(`options.keyName must be a string, got ${check.describe(keyName)}`);
  const type = o?.type ?? 'passkey';
  if (type !== 'passkey' && type !== 'security-key') throw new TypeError(`options.type must be 'passkey' or 'security-key', got ${JSON.stringify(type)}`);
  const rpId = rpIdOf(o?.rpId);
  return (await calls()).newCredential({ keyName, type, ...(rpId === undefined ? {} : { rpId }) });
}

function rpIdOf(value: unknown): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`options.rpId must be a string, got ${check.describe(value)}`);
  return value;
}

/** The credential the options name: an identity string's (read now), or any discoverable one of the relying party. */
function choiceOf(options: unknown): CredentialChoice {
  const o = check.options(options, 'options', ['identity', 'rpId']) as Options | undefined;
  const rpId = rpIdOf(o?.rpId);
  if (o?.identity !== undefined) return { ref: decodeIdentity(o.identity) };
  return rpId === undefined ? {} : { rpId };
}

/**
 * A recipient that encrypts to a passkey or security key: each file's
 * key is wrapped under the credential's PRF on a new nonce, which asks
 * the user to verify with the authenticator once per file. Give it in
 * `recipients`; typage's Encrypter takes it too.
 */
export class WebAuthnRecipient {
  readonly #choice: CredentialChoice;
  /** A recipient for the credential `options.identity` names, or the one the user picks among the relying party's passkeys. */
  constructor(options?: Options) {
    this.#choice = choiceOf(options);
  }

  /** The file key (16 bytes) in a stanza "age-encryption.org/fido2prf" (typage's Recipient interface). */
  async wrapFileKey(fileKey: Uint8Array): Promise<ObjectStanza[]> {
    // Copied now (and wiped by the calls once wrapped): the caller's array may change while the code loads.
    const key = check.bytes(fileKey, 'fileKey', FILE_KEY_BYTES).slice();
    const code = await calls().catch((e: unknown) => {
      zeroize(key);
      throw e;
    });
    return code.wrapForObject(this.#choice, key);
  }
}

/**
 * An identity that decrypts with a passkey or security key: for each
 * passkey stanza of the file (checked first, all of them), the user
 * verifies with the authenticator, until one opens. Give it in
 * `identities`; typage's Decrypter takes it too.
 */
export class WebAuthnIdentity {
  readonly #choice: CredentialChoice;
  /** An identity for the credential `options.identity` names, or the one the user picks among the relying party's passkeys. */
  constructor(options?: Options) {
    this.#choice = choiceOf(options);
  }

  /** The file key a passkey stanza among `stanzas` gives this credential, or null (typage's Identity interface). */
  async unwrapFileKey(stanzas: readonly ObjectStanza[]): Promise<Uint8Array | null> {
    if (!Array.isArray(stanzas)) throw new TypeError(`stanzas must be an array, got ${check.describe(stanzas)}`);
    const read: Stanza[] = [...stanzas].map((s, i) => {
      const args = Array.isArray(s?.args) ? [...s.args] : [];
      if (args.length === 0 || args.some((a) => typeof a !== 'string')) throw new TypeError(`stanzas[${i}] must have its type first among its args`);
      return { type: args[0]!, args: args.slice(1), body: check.bytes(s.body, `stanzas[${i}].body`).slice() };
    });
    return (await (await calls()).unwrapWithCredential(this.#choice, read)) ?? null;
  }
}
