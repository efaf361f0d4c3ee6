/**
 * A software authenticator behind navigator.credentials, for the passkey
 * tests where no browser is (Node, Deno, Bun): credentials made with
 * create() and asserted with get(), each with a random secret whose PRF is
 * what WebAuthn Level 3 defines over CTAP2's hmac-secret,
 * HMAC-SHA-256(secret, SHA-256("WebAuthn PRF" || 0x00 || input)), so that
 * typage and fourfold ask the same thing of it. Without `prf` it makes
 * credentials as an authenticator without the extension does (prf.enabled
 * false, no results). It counts the assertions it gives. Chromium's
 * virtual authenticator plays this part in test/age-browser/.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

interface Credential {
  readonly id: Uint8Array;
  readonly secret: Uint8Array;
  readonly rpId: string;
  readonly resident: boolean;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const bytesOf = (b: BufferSource): Uint8Array => (b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The PRF of a credential's secret on `input`, as an authenticator with hmac-secret computes it for WebAuthn. */
export function prfOf(secret: Uint8Array, input: Uint8Array): Uint8Array {
  const salt = sha256(new Uint8Array([...utf8('WebAuthn PRF'), 0, ...input]));
  return hmac(sha256, secret, salt);
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  /** Assertions given (get() calls that found a credential). */
  assertions = 0;
  constructor(private readonly prf = true) {}

  async create(options: CredentialCreationOptions): Promise<unknown> {
    const o = options.publicKey!;
    const credential = {
      id: crypto.getRandomValues(new Uint8Array(16)),
      secret: crypto.getRandomValues(new Uint8Array(32)),
      rpId: o.rp.id ?? 'localhost',
      resident: o.authenticatorSelection?.residentKey === 'required',
    };
    this.credentials.push(credential);
    const prf = this.prf;
    return {
      rawId: credential.id.slice().buffer,
      response: { getTransports: () => ['internal'] },
      getClientExtensionResults: () => ({ prf: { enabled: prf } }),
    };
  }

  async get(options: CredentialRequestOptions): Promise<unknown> {
    const o = options.publicKey!;
    const allowed = (o.allowCredentials ?? []).map((c) => bytesOf(c.id));
    const found =
      allowed.length > 0 ? this.credentials.find((c) => allowed.some((id) => same(id, c.id))) : this.credentials.find((c) => c.resident && c.rpId === o.rpId);
    if (found === undefined) throw new DOMException('no credential of this authenticator was asked for', 'NotAllowedError');
    this.assertions++;
    const inputs = o.extensions?.prf?.eval;
    const results =
      this.prf && inputs !== undefined
        ? {
            first: prfOf(found.secret, bytesOf(inputs.first)).buffer,
            ...(inputs.second === undefined ? {} : { second: prfOf(found.secret, bytesOf(inputs.second)).buffer }),
          }
        : undefined;
    return { rawId: found.id.slice().buffer, getClientExtensionResults: () => (results === undefined ? {} : { prf: { results } }) };
  }
}

/**
 * Puts `authenticator` behind navigator.credentials (and a
 * PublicKeyCredential, which WebAuthn code looks for) until the returned
 * function puts back what was there.
 */
export function install(authenticator: SoftAuthenticator | undefined): () => void {
  const g = globalThis as Record<string, unknown>;
  const before = { navigator: Object.getOwnPropertyDescriptor(g, 'navigator'), pkc: Object.getOwnPropertyDescriptor(g, 'PublicKeyCredential') };
  const credentials =
    authenticator === undefined ? undefined : { create: authenticator.create.bind(authenticator), get: authenticator.get.bind(authenticator) };
  const navigator = Object.create((g.navigator as object | undefined) ?? null, { credentials: { value: credentials, configurable: true } });
  Object.defineProperty(g, 'navigator', { value: navigator, configurable: true, writable: true });
  Object.defineProperty(g, 'PublicKeyCredential', { value: class PublicKeyCredential {}, configurable: true, writable: true });
  return () => {
    for (const [name, d] of [
      ['navigator', before.navigator],
      ['PublicKeyCredential', before.pkc],
    ] as const) {
      if (d === undefined) delete g[name];
      else Object.defineProperty(g, name, d);
    }
  };
}
