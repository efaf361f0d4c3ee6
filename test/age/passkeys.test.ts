/**
 * Passkeys (fourfold/age's webauthn: the stanza age-encryption.org/fido2prf)
 * behind a software authenticator (passkey-authenticator.ts), where no
 * browser is: the stanza as the format has it, checked against an
 * independent derivation on @noble; files moving both ways between
 * typage's webauthn and fourfold's through the same credential; a wrong
 * credential refused as typage refuses it; malformed stanzas and identity
 * strings refused before the authenticator is asked anything, with no
 * plaintext; a runtime without WebAuthn and an authenticator without PRF
 * told apart from everything else (PrfUnsupportedError). Recipient and
 * identity objects of typage's interfaces, checked as fourfold takes them.
 * In Chromium with its virtual authenticator: test/age-browser/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webauthn as typageWebauthn } from 'age-encryption';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { extract, hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64nopad } from '@scure/base';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { ENGINE_HAS_WASM, NO_STREAMS, rand } from '../helpers.js';
import { install, prfOf, SoftAuthenticator } from './passkey-authenticator.js';
import { typageDecrypt, typageEncrypt } from '../webauthn/typage-calls.js';

const { createCredential, PrfUnsupportedError, WebAuthnIdentity, WebAuthnRecipient } = age.webauthn;
const TYPE = 'age-encryption.org/fido2prf';
const RP = 'example.com';
const MESSAGE = new TextEncoder().encode('a file for a passkey');
const latin1 = (b: Uint8Array): string => String.fromCharCode(...b);
/** typage reads files through Response, which Node builds on undici, which needs WebAssembly (node --jitless has none). */
const NO_TYPAGE_FILES: false | string = ENGINE_HAS_WASM
  ? false
  : "not applicable: typage reads files through Response, and this engine's needs WebAssembly (undici)";

let authenticator: SoftAuthenticator;
let restore: () => void;
before(() => {
  authenticator = new SoftAuthenticator();
  restore = install(authenticator);
});
after(() => restore());

/** A header's lines, up to the MAC line. */
const headerLines = (file: Uint8Array): string[] => {
  const text = latin1(file.subarray(0, 2000));
  return text.slice(0, text.indexOf('\n---')).split('\n');
};

describe('the stanza', () => {
  it('is age-encryption.org/fido2prf, a 16-byte nonce, the file key sealed under HKDF-Extract of both PRF outputs', async () => {
    const identity = await createCredential({ keyName: 'k', rpId: RP });
    const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
    const lines = headerLines(file);
    assert.equal(lines.length, 3, 'the version line, the stanza line, one body line');
    const [arrow, type, nonceText, ...rest] = lines[1]!.split(' ');
    assert.deepEqual([arrow, type, rest], ['->', TYPE, []]);
    const nonce = base64nopad.decode(nonceText!);
    assert.equal(nonce.length, 16);
    const body = base64nopad.decode(lines[2]!);
    assert.equal(body.length, 32);
    // Independently: the PRF inputs, the key, the file key, and the header MAC it verifies.
    const secret = authenticator.credentials.at(-1)!.secret;
    const input = (n: number) => new Uint8Array([...new TextEncoder().encode(TYPE), n, ...nonce]);
    const ikm = new Uint8Array([...prfOf(secret, input(1)), ...prfOf(secret, input(2))]);
    const fileKey = chacha20poly1305(extract(sha256, ikm, new TextEncoder().encode(TYPE)), new Uint8Array(12)).decrypt(body);
    assert.equal(fileKey.length, 16);
    const text = latin1(file);
    const macked = file.subarray(0, text.indexOf('\n---') + 4);
    const mac = base64nopad.decode(text.slice(text.indexOf('\n---') + 5, text.indexOf('\n', text.indexOf('\n---') + 1)));
    assert.deepEqual(hmac(sha256, hkdf(sha256, fileKey, new Uint8Array(0), new TextEncoder().encode('header'), 32), macked), mac);
  });

  it('each file its own nonce, each asking the authenticator once', async () => {
    const identity = await createCredential({ keyName: 'k', rpId: RP });
    const recipient = new WebAuthnRecipient({ identity });
    const asked = authenticator.assertions;
    const [a, b] = [await age.encrypt(MESSAGE, { recipients: [recipient] }), await age.encrypt(MESSAGE, { recipients: [recipient] })];
    assert.equal(authenticator.assertions - asked, 2);
    assert.notEqual(headerLines(a)[1], headerLines(b)[1]);
  });
});

describe('with typage, through the same credential', { skip: NO_TYPAGE_FILES }, () => {
  it("typage's passkey file opens with fourfold, and fourfold's with typage", async () => {
    for (const made of [() => createCredential({ keyName: 'k', rpId: RP }), () => typageWebauthn.createCredential({ keyName: 'k', rpId: RP })]) {
      const identity = await made();
      const fromTypage = await typageEncrypt(MESSAGE, new typageWebauthn.WebAuthnRecipient({ identity }));
      assert.deepEqual(await age.decrypt(fromTypage, { identities: [new WebAuthnIdentity({ identity })] }), MESSAGE);
      const fromFourfold = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
      assert.deepEqual(await typageDecrypt(fromFourfold, new typageWebauthn.WebAuthnIdentity({ identity })), MESSAGE);
      // And each API's objects in the other's calls: they are the same interfaces.
      assert.deepEqual(await typageDecrypt(fromTypage, new WebAuthnIdentity({ identity })), MESSAGE);
      assert.deepEqual(await age.decrypt(fromFourfold, { identities: [new typageWebauthn.WebAuthnIdentity({ identity })] }), MESSAGE);
    }
  });

  it('a discoverable passkey is found by its relying party, without the identity string', async () => {
    const rpId = 'discoverable.example';
    const identity = await createCredential({ keyName: 'k', rpId });
    const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ rpId })] });
    assert.deepEqual(await age.decrypt(file, { identities: [new WebAuthnIdentity({ identity })] }), MESSAGE);
    assert.deepEqual(await typageDecrypt(file, new typageWebauthn.WebAuthnIdentity({ rpId })), MESSAGE);
  });

  it('a wrong credential fails as in typage: no identity matches', async () => {
    const [mine, other] = [await createCredential({ keyName: 'a', rpId: RP }), await createCredential({ keyName: 'b', rpId: RP })];
    const file = await typageEncrypt(MESSAGE, new typageWebauthn.WebAuthnRecipient({ identity: mine }));
    await assert.rejects(age.decrypt(file, { identities: [new WebAuthnIdentity({ identity: other })] }), age.NoIdentityMatchError);
    await assert.rejects(typageDecrypt(file, new typageWebauthn.WebAuthnIdentity({ identity: other })), /no identity matched/);
    // A credential this authenticator does not hold: the browser's refusal, from both.
    const gone = await createCredential({ keyName: 'c', rpId: RP });
    authenticator.credentials.pop();
    const refusal = (e: unknown) => (e as DOMException).name === 'NotAllowedError';
    await assert.rejects(age.decrypt(file, { identities: [new WebAuthnIdentity({ identity: gone })] }), refusal);
    await assert.rejects(typageDecrypt(file, new typageWebauthn.WebAuthnIdentity({ identity: gone })), refusal);
  });
});

describe('files to several', () => {
  it('two credentials and an X25519 key: each opens it, the passkey trying every passkey stanza in turn', async () => {
    const [a, b] = [await createCredential({ keyName: 'a', rpId: RP }), await createCredential({ keyName: 'b', rpId: RP })];
    const x = age.generateIdentity();
    const file = await age.encrypt(MESSAGE, {
      recipients: [new WebAuthnRecipient({ identity: a }), age.identityToRecipient(x), new WebAuthnRecipient({ identity: b })],
    });
    assert.deepEqual(await age.decrypt(file, { identities: [x] }), MESSAGE);
    const asked = authenticator.assertions;
    assert.deepEqual(await age.decrypt(file, { identities: [new WebAuthnIdentity({ identity: b })] }), MESSAGE);
    assert.equal(authenticator.assertions - asked, 2, "b's credential asked on a's stanza, then on its own");
  });

  it('the passkey tried after the keys, and not asked when a key opens the file', async () => {
    const identity = await createCredential({ keyName: 'a', rpId: RP });
    const x = age.generateIdentity();
    const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity }), age.identityToRecipient(x)] });
    const asked = authenticator.assertions;
    assert.deepEqual(await age.decrypt(file, { identities: [new WebAuthnIdentity({ identity }), x] }), MESSAGE);
    assert.equal(authenticator.assertions, asked);
  });
});

/** A passkey file whose stanza line (index 1) and body line (2) `edit` changes. */
async function edited(edit: (lines: string[]) => void): Promise<{ file: Uint8Array; identity: string }> {
  const identity = await createCredential({ keyName: 'k', rpId: RP });
  const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
  const text = latin1(file);
  const end = text.indexOf('\n---');
  const lines = text.slice(0, end).split('\n');
  edit(lines);
  return { file: Uint8Array.from(lines.join('\n') + text.slice(end), (c) => c.charCodeAt(0)), identity };
}

describe('malformed stanzas: refused before the authenticator is asked, no plaintext', () => {
  const nonce = (n: number) => base64nopad.encode(rand(n));
  const cases: [string, (lines: string[]) => void][] = [
    ['no nonce', (l) => void (l[1] = `-> ${TYPE}`)],
    ['two arguments', (l) => void (l[1] += ' extra')],
    ['a 15-byte nonce', (l) => void (l[1] = `-> ${TYPE} ${nonce(15)}`)],
    ['a 17-byte nonce', (l) => void (l[1] = `-> ${TYPE} ${nonce(17)}`)],
    ['a padded nonce', (l) => void (l[1] += '==')],
    ['a 31-byte body', (l) => void (l[2] = base64nopad.encode(rand(31)))],
    ['a 33-byte body', (l) => void (l[2] = base64nopad.encode(rand(33)))],
  ];
  for (const [what, edit] of cases) {
    it(what, async () => {
      const { file, identity } = await edited(edit);
      const asked = authenticator.assertions;
      await assert.rejects(age.decrypt(file, { identities: [new WebAuthnIdentity({ identity })] }), age.AgeFormatError);
      if (!NO_STREAMS) {
        const out: Uint8Array[] = [];
        const sink = new WritableStream<Uint8Array>({ write: (c) => void out.push(c) });
        const source = new ReadableStream<Uint8Array>({
          start: (c) => {
            c.enqueue(file);
            c.close();
          },
        });
        await assert.rejects(source.pipeThrough(age.decryptStream({ identities: [new WebAuthnIdentity({ identity })] })).pipeTo(sink), age.AgeFormatError);
        assert.equal(out.length, 0, 'no plaintext');
      }
      assert.equal(authenticator.assertions, asked, 'the authenticator was not asked');
    });
  }

  it('a changed body opens for no one: no identity matches', async () => {
    const { file, identity } = await edited((l) => {
      const body = base64nopad.decode(l[2]!);
      body[5]! ^= 1;
      l[2] = base64nopad.encode(body);
    });
    await assert.rejects(age.decrypt(file, { identities: [new WebAuthnIdentity({ identity })] }), age.NoIdentityMatchError);
  });
});

describe('identity strings', () => {
  it("createCredential's string names the credential: typage's and fourfold's read each other's", async () => {
    const ours = await createCredential({ keyName: 'k', rpId: RP, type: 'security-key' });
    assert.match(ours, /^AGE-PLUGIN-FIDO2PRF-1[0-9A-Z]+$/);
    assert.equal(authenticator.credentials.at(-1)!.resident, false, 'a security key: not discoverable');
    const theirs = await typageWebauthn.createCredential({ keyName: 'k', rpId: RP, type: 'security-key' });
    for (const identity of [ours, theirs]) {
      const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
      assert.deepEqual(await age.decrypt(file, { identities: [new WebAuthnIdentity({ identity })] }), MESSAGE);
    }
  });

  it('malformed ones are refused where the object is made', async () => {
    const good = await createCredential({ keyName: 'k', rpId: RP });
    const words = good.slice('AGE-PLUGIN-FIDO2PRF-1'.length);
    const flipped = good.slice(0, -1) + (good.endsWith('Q') ? 'P' : 'Q');
    for (const bad of [good.toLowerCase(), flipped, `AGE-PLUGIN-YUBIKEY-1${words}`, 'AGE-SECRET-KEY-1QQQQ', '']) {
      assert.throws(() => new WebAuthnIdentity({ identity: bad }), RangeError, bad);
      assert.throws(() => new WebAuthnRecipient({ identity: bad }), RangeError, bad);
    }
    assert.throws(() => new WebAuthnIdentity({ identity: 5 as never }), TypeError);
    assert.throws(() => new WebAuthnIdentity({ identitty: good } as never), TypeError);
  });

  it('given as a key string, it is refused with the object to give instead', async () => {
    const identity = await createCredential({ keyName: 'k', rpId: RP });
    const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
    await assert.rejects(
      age.decrypt(file, { identities: [identity] }),
      /^RangeError: identities\[0\] is a passkey's identity .*new webauthn\.WebAuthnIdentity\(\{ identity \}\)/,
    );
    await assert.rejects(
      age.encrypt(MESSAGE, { recipients: [identity] }),
      /^RangeError: recipients\[0\] is a passkey's identity .*new webauthn\.WebAuthnRecipient\(\{ identity \}\)/,
    );
  });
});

describe('without PRF', () => {
  it('a runtime without WebAuthn: PrfUnsupportedError, saying so', async () => {
    const back = install(undefined);
    try {
      await assert.rejects(createCredential({ keyName: 'k', rpId: RP }), (e) => e instanceof PrfUnsupportedError && /no WebAuthn/.test(e.message));
      await assert.rejects(age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ rpId: RP })] }), PrfUnsupportedError);
    } finally {
      back();
    }
  });

  it('an authenticator without the extension: PrfUnsupportedError at creation and at use', async () => {
    const identity = await createCredential({ keyName: 'k', rpId: RP });
    const file = await age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ identity })] });
    const plain = new SoftAuthenticator(false);
    const back = install(plain);
    try {
      await assert.rejects(createCredential({ keyName: 'k', rpId: RP }), (e) => e instanceof PrfUnsupportedError && /PRF/.test(e.message));
      const other = await typageWebauthn.createCredential({ keyName: 'k', rpId: RP }).catch(() => undefined);
      assert.equal(other, undefined, 'typage refuses it too');
      // The credentials were made all the same (as browsers do): using one tells the same.
      assert.equal(plain.credentials.length, 2);
      await assert.rejects(age.encrypt(MESSAGE, { recipients: [new WebAuthnRecipient({ rpId: RP })] }), PrfUnsupportedError);
      await assert.rejects(age.decrypt(file, { identities: [new WebAuthnIdentity({ rpId: RP })] }), PrfUnsupportedError);
    } finally {
      back();
    }
  });
});

describe("recipient and identity objects (typage's interfaces)", () => {
  const key = age.generateIdentity();
  it('stanzas of any type, and their arguments checked as a header line is', async () => {
    const stanza = (args: string[]) => ({ wrapFileKey: async () => [{ args, body: rand(32) }] });
    const file = await age.encrypt(MESSAGE, { recipients: [age.identityToRecipient(key), stanza(['example.com/x', 'a', 'b'])] });
    assert.equal(headerLines(file)[3], '-> example.com/x a b');
    assert.deepEqual(await age.decrypt(file, { identities: [key] }), MESSAGE);
    await assert.rejects(age.encrypt(MESSAGE, { recipients: [stanza(['x', 'a b'])] }), age.AgeFormatError);
    await assert.rejects(age.encrypt(MESSAGE, { recipients: [stanza(['x', ''])] }), age.AgeFormatError);
    await assert.rejects(age.encrypt(MESSAGE, { recipients: [stanza([])] }), TypeError);
    await assert.rejects(age.encrypt(MESSAGE, { recipients: [{ wrapFileKey: async () => [] }] }), TypeError);
  });

  it('a recipient gets a copy of the file key, wiped once it is done', async () => {
    let kept: Uint8Array = new Uint8Array(0);
    const keeper = {
      wrapFileKey: async (fileKey: Uint8Array) => {
        kept = fileKey;
        assert.equal(fileKey.length, 16);
        assert.ok(
          fileKey.some((b) => b !== 0),
          'the key while the call runs',
        );
        return [{ args: ['example.com/keeper'], body: rand(32) }];
      },
    };
    const file = await age.encrypt(MESSAGE, { recipients: [keeper, age.identityToRecipient(key)] });
    assert.deepEqual(kept, new Uint8Array(16), 'wiped after');
    assert.deepEqual(await age.decrypt(file, { identities: [key] }), MESSAGE);
  });

  it('each identity gets copies of the stanzas, and what it gives is checked', async () => {
    const file = await age.encrypt(MESSAGE, { recipients: [age.identityToRecipient(key)] });
    type Given = { args: string[]; body: Uint8Array }[];
    const spoiler = {
      unwrapFileKey: async (s: Given) => {
        s[0]!.body.fill(0);
        s[0]!.args.push('x');
        return null;
      },
    };
    let seen: Given = [];
    const witness = {
      unwrapFileKey: async (s: Given) => {
        seen = s;
        return null;
      },
    };
    await assert.rejects(age.decrypt(file, { identities: [spoiler, witness] }), age.NoIdentityMatchError);
    const [, type, share] = headerLines(file)[1]!.split(' ');
    assert.deepEqual(seen[0]!.args, [type, share]);
    assert.deepEqual(seen[0]!.body, base64nopad.decode(headerLines(file)[2]!));
    await assert.rejects(age.decrypt(file, { identities: [{ unwrapFileKey: async () => new Uint8Array(15) }] }), RangeError);
    // A wrong key of the right length: the header's MAC refuses it.
    await assert.rejects(age.decrypt(file, { identities: [{ unwrapFileKey: async () => rand(16) }] }), AuthenticationError);
  });
});
