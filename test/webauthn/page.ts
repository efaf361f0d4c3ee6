/**
 * The page of passkeys.browser.ts, bundled with esbuild: fourfold/age's
 * webauthn (from src/) and typage's (npm age-encryption), both asking the
 * browser's WebAuthn, which a virtual authenticator answers. Each check
 * returns what it saw, as JSON, for the Node side to assert; an error is
 * returned as its name and message, so that both libraries' failures can
 * be compared.
 */
import { webauthn as typage } from 'age-encryption';
import * as age from '../../src/age/index.js';
import * as typageApi from '../../src/typage/index.js';
import { typageDecrypt, typageEncrypt } from './typage-calls.js';

const { createCredential, PrfUnsupportedError, WebAuthnIdentity, WebAuthnRecipient } = age.webauthn;
const MESSAGE = new TextEncoder().encode('a file for a passkey, in a browser');
type Maker = (o: { keyName: string; type: 'passkey' | 'security-key' }) => Promise<string>;

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
/** The header's stanza lines ("-> type args"). */
const stanzaLines = (file: Uint8Array): string[] =>
  new TextDecoder()
    .decode(file.subarray(0, 1000))
    .split('\n')
    .filter((l) => l.startsWith('-> '));
/** An outcome as data: 'ok', or the error's name and message (and whether it is fourfold's PrfUnsupportedError). */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => ({ ok: true }),
    (e: Error) => ({ ok: false, name: e.name, message: e.message, prf: e instanceof PrfUnsupportedError }),
  );

/** Files both ways through one credential, for each library's credentials of each type. */
async function bothWays() {
  const rows = [];
  for (const [maker, make] of [
    ['fourfold', createCredential],
    ['typage', typage.createCredential],
  ] as [string, Maker][]) {
    for (const type of ['passkey', 'security-key'] as const) {
      const identity = await make({ keyName: `${maker} ${type}`, type });
      const fromTypage = await typageEncrypt(MESSAGE, new typage.WebAuthnRecipient({ identity }));
      const opened = await age.decrypt(fromTypage, { identities: [new WebAuthnIdentity({ identity })] });
      const fromFourfold = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
      const back = await typageDecrypt(fromFourfold, new typage.WebAuthnIdentity({ identity }));
      const source = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(fromTypage);
          c.close();
        },
      });
      const streamed = await new Response(source.pipeThrough(age.decryptStream({ identities: [new WebAuthnIdentity({ identity })] }))).arrayBuffer();
      rows.push({
        maker,
        type,
        identity: identity.slice(0, 21),
        typageToFourfold: same(opened, MESSAGE),
        fourfoldToTypage: same(back, MESSAGE),
        streamed: same(new Uint8Array(streamed), MESSAGE),
        stanzas: [...stanzaLines(fromTypage), ...stanzaLines(fromFourfold)].map((l) => l.split(' ').slice(0, 2).join(' ')),
      });
    }
  }
  return rows;
}

/** fourfold's typage API (fourfold/age/typage) with its own webauthn namespace, against typage itself, both ways. */
async function typageApiBothWays() {
  const identity = await typageApi.webauthn.createCredential({ keyName: 'through the typage API' });
  const e = new typageApi.Encrypter();
  e.addRecipient(new typageApi.webauthn.WebAuthnRecipient({ identity }));
  const fromApi = await e.encrypt(MESSAGE);
  const d = new typageApi.Decrypter();
  d.addIdentity(new typageApi.webauthn.WebAuthnIdentity({ identity }));
  const fromTypage = await typageEncrypt(MESSAGE, new typage.WebAuthnRecipient({ identity }));
  return {
    apiToTypage: same(await typageDecrypt(fromApi, new typage.WebAuthnIdentity({ identity })), MESSAGE),
    typageToApi: (await d.decrypt(fromTypage, 'text')) === new TextDecoder().decode(MESSAGE),
  };
}

/** A discoverable passkey, the authenticator's only one, picked by its relying party alone, by each library. */
async function discoverable() {
  const rpId = location.hostname;
  await createCredential({ keyName: 'discoverable' });
  const fromTypage = await typageEncrypt(MESSAGE, new typage.WebAuthnRecipient({ rpId }));
  const fromFourfold = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ rpId })] });
  return {
    typageToFourfold: same(await age.decrypt(fromTypage, { identities: [new WebAuthnIdentity({ rpId })] }), MESSAGE),
    fourfoldToTypage: same(await typageDecrypt(fromFourfold, new typage.WebAuthnIdentity({ rpId })), MESSAGE),
  };
}

/** A file for credential a opened with credential b, by each library, both ways. */
async function wrongCredential() {
  const [a, b] = [await createCredential({ keyName: 'a' }), await createCredential({ keyName: 'b' })];
  const fromTypage = await typageEncrypt(MESSAGE, new typage.WebAuthnRecipient({ identity: a }));
  const fromFourfold = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity: a })] });
  return {
    fourfold: await outcome(age.decrypt(fromTypage, { identities: [new WebAuthnIdentity({ identity: b })] })),
    typage: await outcome(typageDecrypt(fromFourfold, new typage.WebAuthnIdentity({ identity: b }))),
    rightOne: await outcome(age.decrypt(fromTypage, { identities: [new WebAuthnIdentity({ identity: a })] })),
  };
}

/** With an authenticator without PRF: making a credential, and using one (the authenticator keeps those it made). */
async function withoutPrf() {
  const rpId = location.hostname;
  // A passkey stanza's shape, for a file the credential would be asked to open.
  const shaped = { wrapFileKey: async () => [{ args: ['age-encryption.org/fido2prf', 'AAAAAAAAAAAAAAAAAAAAAA'], body: new Uint8Array(32) }] };
  const file = await age.encrypt(MESSAGE, { recipients: [shaped] });
  return {
    fourfoldCreate: await outcome(createCredential({ keyName: 'no prf' })),
    typageCreate: await outcome(typage.createCredential({ keyName: 'no prf' })),
    encrypt: await outcome(age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ rpId })] })),
    decrypt: await outcome(age.decrypt(file, { identities: [new WebAuthnIdentity({ rpId })] })),
  };
}

(globalThis as Record<string, unknown>).passkeys = { bothWays, discoverable, typageApiBothWays, wrongCredential, withoutPrf };
document.documentElement.dataset.ready = 'yes';
