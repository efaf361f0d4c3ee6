/**
 * age's SSH recipient types (ssh-ed25519, ssh-rsa): files Go age and rage
 * made to keys ssh-keygen made (OpenSSH's format plain and
 * passphrase-protected under each AES mode, PKCS#1, PKCS#8) decrypted
 * here; files made here decrypted through every call of fourfold/age and
 * fourfold/parallel's age; the key file's KDF (bcrypt_pbkdf) against
 * OpenBSD's vectors and the Ed25519-to-X25519 map against @noble/curves;
 * every kind of bad key refused by name before any output. Interop with
 * the clients' own commands is in test/cli/age-keys.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { assertBytes, concat, forEachTier, loadJson, rand, toHex } from '../helpers.js';
import { bcryptPbkdf, montgomeryOf } from '../internal.js';
import { AGE_CALLS, NO_BLOB } from './calls.js';
import { withLeadingZero, withPublicLine } from './ssh-forms.js';

interface KeyVector {
  privateKey: string;
  publicKey: string;
  /** The plaintext encrypted to publicKey by Go age and by rage (base64). */
  byAge?: string;
  byRage?: string;
}
const VECTORS = loadJson<{ passphrase: string; plaintext: string; keys: Record<string, KeyVector> }>('vectors/ssh-keys.json');
const KEYS = VECTORS.keys;
const PASSPHRASE = VECTORS.passphrase;
const PLAINTEXT = new TextEncoder().encode(VECTORS.plaintext);
/** Keys age decrypts with: the rest (ecdsa, 1024-bit RSA, a cipher age does not read, legacy PEM encryption) are refused. */
const USABLE = [
  'ed25519',
  'ed25519-aes128-ctr',
  'ed25519-aes256-cbc',
  'ed25519-aes256-ctr',
  'ed25519-aes256-gcm',
  'ed25519-pkcs8',
  'rsa',
  'rsa-aes256-ctr',
  'rsa-pkcs1',
  'rsa-pkcs8',
];
const PROTECTED = new Set(USABLE.filter((name) => name.includes('-aes')));

const CHUNK = 65536;
const NO_WEBCRYPTO = globalThis.crypto?.subtle === undefined ? 'not applicable: SSH keys need WebCrypto, which this engine lacks' : false;
/**
 * Whether this engine's WebCrypto has Ed25519, which a PKCS#8 Ed25519
 * key's public half needs: asked as the code asks it, by importing that
 * key (a generateKey probe once failed under load in WebKitGTK, whose
 * import worked).
 */
async function hasEd25519(): Promise<boolean> {
  const der = fromBase64(KEYS['ed25519-pkcs8']!.privateKey.replace(/-----[^-]+-----|\s/g, ''));
  try {
    await crypto.subtle.importKey('pkcs8', der.slice(), { name: 'Ed25519' }, true, ['sign']);
    return true;
  } catch (e) {
    if ((e as Error).name === 'NotSupportedError') return false;
    throw e;
  }
}
const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);
const base64NoPad = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replace(/=+$/, '');
/** A stanza body as age writes it: unpadded base64 in lines of 64 columns, the last one shorter. */
const wrapped64 = (bytes: Uint8Array): string => {
  const text = base64NoPad(bytes);
  const lines: string[] = [];
  for (let at = 0; at <= text.length; at += 64) lines.push(text.slice(at, at + 64));
  return lines.join('\n');
};

/** An age file (C2SP age) for `fileKey` with the given stanzas, made here from its spec: header MAC, then one payload chunk. */
function fileFor(fileKey: Uint8Array, stanzas: string, plaintext: Uint8Array): Uint8Array {
  const macked = ascii(`age-encryption.org/v1\n${stanzas}---`);
  const mac = hmac(sha256, hkdf(sha256, fileKey, new Uint8Array(0), ascii('header'), 32), macked);
  const nonce = rand(16);
  const payloadKey = hkdf(sha256, fileKey, nonce, ascii('payload'), 32);
  const chunkNonce = new Uint8Array(12);
  chunkNonce[11] = 1; // chunk 0, the last
  const chunk = chacha20poly1305(payloadKey, chunkNonce).encrypt(plaintext);
  return concat(macked, ascii(` ${base64NoPad(mac)}\n`), nonce, chunk);
}
/** The first argument of a file's first stanza: an SSH stanza's fingerprint. */
const firstStanzaArg = (file: Uint8Array): string => new TextDecoder('latin1').decode(file).split('\n')[1]!.split(' ')[2]!;
/** age's name for an SSH key: base64 of SHA-256 of its wire form's first 4 bytes, the wire form as ssh-keygen writes it. */
const fingerprintOf = (line: string): string => base64NoPad(sha256(fromBase64(line.split(' ')[1]!)).subarray(0, 4));
const identityOf = (name: string): string | { sshKey: string; passphrase: string } =>
  PROTECTED.has(name) ? { sshKey: KEYS[name]!.privateKey, passphrase: PASSPHRASE } : KEYS[name]!.privateKey;

describe('bcrypt_pbkdf, the KDF of OpenSSH key files', { skip: NO_WEBCRYPTO }, () => {
  // OpenBSD's regress vectors (regress/lib/libutil/bcrypt_pbkdf), also Go's x/crypto/ssh/internal/bcrypt_pbkdf's.
  const e = (s: string) => new TextEncoder().encode(s);
  const vectors: [string, string, number, string][] = [
    ['password', 'salt', 4, '5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9'],
    ['password', 'salt', 12, '1ae42c05d487bc02f64921a4ebe4ea93bcacfe135fda99974c06b7b01fae149a'],
    ['passwordy\0PASSWORD\0', 'salty\0SALT\0', 3, '7f310bd3e78c3280c59ce4595211a2928e8d4ec744c1ed2efc9f764e3388e0ad'],
    [
      'секретное слово',
      'посолить немножко',
      8,
      '8df43fc6fe131fc47f0c9e39224bd94c70b6fcc8ee8135faddf61156e6cb2733ea765f315a3e1e4afc35bf8687d189254c1e05a6fe80c0617f9183d67260d6a115c6c94e3603e2303fbb43a76a64523ffda686b1d4518543',
    ],
  ];
  for (const [password, salt, rounds, expected] of vectors) {
    it(`${JSON.stringify(password)}, ${rounds} rounds, ${expected.length / 2} bytes`, async () => {
      assert.equal(toHex(await bcryptPbkdf(e(password), e(salt), rounds, expected.length / 2)), expected);
    });
  }
});

it("the Ed25519-to-X25519 map is @noble/curves' (u = (1 + y) / (1 - y)) for random keys; a y with no point is refused", () => {
  for (let i = 0; i < 32; i++) {
    const point = ed25519.getPublicKey(rand(32));
    assert.equal(toHex(montgomeryOf(point, 'key')), toHex(ed25519.utils.toMontgomery(point)));
  }
  // y = 2: x² = 3 / (4d + 1), which is not a square mod 2^255 - 19.
  const offCurve = new Uint8Array(32);
  offCurve[0] = 2;
  assert.throws(() => ed25519.Point.fromBytes(offCurve), 'noble agrees there is no such point');
  assert.throws(() => montgomeryOf(offCurve, 'recipients[0]'), /^RangeError: recipients\[0\] is not a valid Ed25519 public key/);
});

describe('files Go age and rage made to SSH keys', { skip: NO_WEBCRYPTO }, () => {
  for (const name of USABLE) {
    for (const client of ['byAge', 'byRage'] as const) {
      it(`${name}, ${client === 'byAge' ? 'Go age' : 'rage'}'s file: fourfold/age and parallel decrypt it`, async () => {
        const file = fromBase64(KEYS[name]![client]!);
        if (name === 'ed25519-pkcs8' && !(await hasEd25519())) {
          // This engine's WebCrypto has no Ed25519 (WPE WebKit): the key's public half cannot be found, and the call says so.
          await assert.rejects(
            age.decrypt(file, { identities: [identityOf(name)] }),
            /^RangeError: identities\[0\] is a PKCS#8 Ed25519 key, .*\(ssh-keygen -p -f KEYFILE\)/,
          );
          return;
        }
        assertBytes(await age.decrypt(file, { identities: [identityOf(name)] }), PLAINTEXT);
        assertBytes(await parallelAge.decrypt(file, { identities: [age.generateIdentity(), identityOf(name)] }), PLAINTEXT);
      });
    }
  }
});

describe('ssh-rsa stanzas made here from the spec', { skip: NO_WEBCRYPTO }, () => {
  it('a file key whose first bytes are zero opens (OAEP carries 16 bytes, whatever they are)', async () => {
    const key = KEYS['rsa-pkcs8']!;
    const subtle = globalThis.crypto.subtle;
    const der = fromBase64(key.privateKey.replace(/-----[^-]+-----|\s/g, ''));
    const oaep = { name: 'RSA-OAEP', hash: 'SHA-256' };
    const { n, e } = await subtle.exportKey('jwk', await subtle.importKey('pkcs8', der.slice(), oaep, true, ['decrypt']));
    const publicKey = await subtle.importKey('jwk', { kty: 'RSA', n, e }, oaep, false, ['encrypt']);
    const ours = new TextDecoder('latin1').decode(await age.encrypt(PLAINTEXT, { recipients: [key.publicKey] }));
    const stanzaLine = ours.slice(ours.indexOf('-> ssh-rsa '), ours.indexOf('\n', ours.indexOf('-> ssh-rsa ')));
    for (const zeros of [1, 2, 16]) {
      const fileKey = rand(16);
      fileKey.fill(0, 0, zeros);
      const label = new TextEncoder().encode('age-encryption.org/v1/ssh-rsa');
      const body = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP', label }, publicKey, fileKey.slice()));
      const file = fileFor(fileKey, `${stanzaLine}\n${wrapped64(body)}\n`, PLAINTEXT);
      assertBytes(await age.decrypt(file, { identities: [key.privateKey] }), PLAINTEXT, `${zeros} zero bytes`);
    }
  });
});

forEachTier('SSH keys through every call', () => {
  for (const api of AGE_CALLS) {
    it(`${api.name}: ed25519 and rsa recipients beside an X25519 one; each SSH identity opens it, another key gets NoIdentityMatchError`, {
      skip: api.skip || NO_WEBCRYPTO,
    }, async () => {
      const x25519 = age.generateIdentity();
      const to = { recipients: [KEYS.ed25519!.publicKey, age.identityToRecipient(x25519), KEYS.rsa!.publicKey] };
      for (const size of [0, 1, CHUNK + 1]) {
        const data = rand(size);
        const file = await api.seal(data, to);
        for (const name of ['ed25519', 'rsa']) assertBytes(await api.open(file, { identities: [KEYS[name]!.privateKey] }), data, `${size} bytes, ${name}`);
      }
      const data = rand(10);
      const file = await api.seal(data, { recipients: [KEYS['ed25519-aes256-ctr']!.publicKey] });
      assertBytes(await api.open(file, { identities: [identityOf('ed25519-aes256-ctr')] }), data, 'a passphrase-protected key');
      await assert.rejects(api.open(file, { identities: [KEYS['rsa-pkcs8']!.privateKey, KEYS.ed25519!.privateKey] }), age.NoIdentityMatchError);
    });

    it(`${api.name}: an ssh-rsa line whose e or n has a leading zero it does not need is named by its minimal form, as age names it; so are key files whose public part has one`, {
      skip: api.skip || NO_WEBCRYPTO,
    }, async () => {
      const data = rand(100);
      for (const part of ['e', 'n'] as const) {
        const line = withLeadingZero(KEYS.rsa!.publicKey, part);
        const file = await api.seal(data, { recipients: [line] });
        assert.equal(firstStanzaArg(file), fingerprintOf(KEYS.rsa!.publicKey), `${part}: the stanza's fingerprint`);
        assertBytes(await api.open(file, { identities: [KEYS.rsa!.privateKey] }), data, `${part}: the key file opens it`);
        const written = withPublicLine(KEYS.rsa!.privateKey, line);
        assertBytes(
          await api.open(await api.seal(data, { recipients: [KEYS.rsa!.publicKey] }), { identities: [written] }),
          data,
          `${part}: a key file so written`,
        );
      }
      // A protected key's fingerprint is its public part's, read before any passphrase.
      const key = KEYS['rsa-aes256-ctr']!;
      const sshKey = withPublicLine(key.privateKey, withLeadingZero(key.publicKey, 'e'));
      assertBytes(
        await api.open(await api.seal(data, { recipients: [key.publicKey] }), { identities: [{ sshKey, passphrase: PASSPHRASE }] }),
        data,
        'protected',
      );
    });

    it(`${api.name}: SSH lines whose fields a tab separates, with a comment or without, as Go's ssh package reads them`, {
      skip: api.skip || NO_WEBCRYPTO,
    }, async () => {
      const data = rand(100);
      for (const name of ['ed25519', 'rsa']) {
        const [type, encoded] = KEYS[name]!.publicKey.split(' ');
        for (const line of [`${type}\t${encoded}`, `${type}\t${encoded}\tuser@host`, `${type} \t${encoded} user@host`]) {
          const file = await api.seal(data, { recipients: [line] });
          assert.equal(firstStanzaArg(file), fingerprintOf(KEYS[name]!.publicKey), JSON.stringify(line));
          assertBytes(await api.open(file, { identities: [KEYS[name]!.privateKey] }), data, JSON.stringify(line));
        }
      }
    });
  }
});

describe('SSH keys refused, by name, before any output', { skip: NO_WEBCRYPTO }, () => {
  const refuses = async (to: age.AgeTo, why: RegExp) => {
    await assert.rejects(age.encrypt(rand(1), to), why);
    await assert.rejects(parallelAge.encrypt(rand(1), to), why);
    if (!NO_BLOB) await assert.rejects(parallelAge.encryptFile(new Blob([new Uint8Array(1)]), undefined, to), why);
  };
  it('recipients: other SSH key types, RSA under 2,048 bits, bad base64, a type that lies, an Ed25519 y with no point, a post-quantum mix', async () => {
    await refuses(
      { recipients: [KEYS.ecdsa!.publicKey] },
      /recipients\[0\] is an SSH public key of type ecdsa-sha2-nistp256: age uses ssh-ed25519 and ssh-rsa keys only/,
    );
    await refuses({ recipients: [KEYS['rsa-1024']!.publicKey] }, /^RangeError: recipients\[0\] is an RSA key of 1024 bits: age needs 2048 bits or more/);
    await refuses({ recipients: ['ssh-ed25519 AAAA!!!!'] }, /^RangeError: recipients\[0\] is a malformed SSH public key: its second field is not base64/);
    const rsaBody = KEYS.rsa!.publicKey.split(' ')[1];
    await refuses(
      { recipients: [`ssh-ed25519 ${rsaBody}`] },
      /^RangeError: recipients\[0\] is a malformed SSH public key: it says "ssh-ed25519" but holds ssh-rsa/,
    );
    const blob = fromBase64(KEYS.ed25519!.publicKey.split(' ')[1]!);
    blob.fill(0, blob.length - 32);
    blob[blob.length - 32] = 2;
    await refuses({ recipients: [`ssh-ed25519 ${btoa(String.fromCharCode(...blob))}`] }, /^RangeError: recipients\[0\] is not a valid Ed25519 public key/);
    // A product of two odd primes is odd: Go's crypto/rsa refuses an even modulus ("public modulus is even"), and so does fourfold, by name.
    const even = fromBase64(KEYS.rsa!.publicKey.split(' ')[1]!);
    even[even.length - 1]! &= 0xfe;
    await refuses(
      { recipients: [`ssh-rsa ${btoa(String.fromCharCode(...even))}`] },
      /^RangeError: recipients\[0\] is not a valid RSA key: its public modulus is even$/,
    );
    // The wire forms have one encoding each but an mpint's (above): bytes after a key's last field are refused, as Go refuses them.
    for (const name of ['ed25519', 'rsa']) {
      const [type, encoded] = KEYS[name]!.publicKey.split(' ');
      const junk = btoa(String.fromCharCode(...fromBase64(encoded!), 0));
      await refuses({ recipients: [`${type} ${junk}`] }, /^RangeError: recipients\[0\], an SSH public key, has 1 bytes after its end/);
    }
    const pq = await age.identityToRecipient(age.generateHybridIdentity());
    await refuses({ recipients: [pq, KEYS.ed25519!.publicKey] }, /^RangeError: recipients mixes post-quantum \(age1pq1\.\.\., age1tagpq1\.\.\.\) and classic/);
  });

  it('identities: a protected key without its passphrase, a wrong passphrase, a cipher or encryption age does not read, a key type age has no stanza for', async () => {
    const file = await age.encrypt(PLAINTEXT, { recipients: [KEYS['ed25519-aes256-ctr']!.publicKey] });
    const opens = (identity: unknown) => age.decrypt(file, { identities: [identity as string] });
    await assert.rejects(
      opens(KEYS['ed25519-aes256-ctr']!.privateKey),
      /^RangeError: identities\[0\] is a passphrase-protected SSH key: give it as \{ sshKey, passphrase \}/,
    );
    await assert.rejects(
      opens({ sshKey: KEYS['ed25519-aes256-ctr']!.privateKey, passphrase: 'wrong' }),
      (e) => e instanceof AuthenticationError && /wrong passphrase/.test(e.message),
    );
    await assert.rejects(opens({ sshKey: KEYS['ed25519-aes256-gcm']!.privateKey, passphrase: 'wrong' }), AuthenticationError);
    await assert.rejects(
      opens({ sshKey: KEYS['ed25519-chacha20']!.privateKey, passphrase: PASSPHRASE }),
      /chacha20-poly1305@openssh\.com", which fourfold does not read: rewrite it .*ssh-keygen -p -Z aes256-ctr/,
    );
    await assert.rejects(opens(KEYS['rsa-pkcs1-enc']!.privateKey), /legacy PEM encryption fourfold does not read: rewrite it/);
    await assert.rejects(
      opens(KEYS.ecdsa!.privateKey),
      /^RangeError: identities\[0\] is an SSH key of type "ecdsa-sha2-nistp256": age uses ssh-ed25519 and ssh-rsa keys only/,
    );
    await assert.rejects(opens({ sshKey: 'AGE-SECRET-KEY-1', passphrase: 'x' }), /^TypeError: identities\[0\]\.sshKey must be an SSH private key's text/);
    await assert.rejects(opens({ sshKey: KEYS.ed25519!.privateKey, passphrase: '' }), /^RangeError: identities\[0\]\.passphrase must not be empty/);
    const cut = KEYS.ed25519!.privateKey.replace(/\n[^\n]*\n-----END/, '\n-----END');
    await assert.rejects(opens(cut), /^RangeError: identities\[0\] (is cut short|is a malformed PEM block)/);
  });

  it("a stanza with the key's fingerprint that does not open under it is an AuthenticationError, not a miss, as in age", async () => {
    for (const name of ['ed25519', 'rsa']) {
      const file = await age.encrypt(PLAINTEXT, { recipients: [KEYS[name]!.publicKey] });
      const text = new TextDecoder('latin1').decode(file);
      const stanzaEnd = text.indexOf('\n', text.indexOf('\n-> ') + 1) + 1;
      // The body's first base64 character changed: same fingerprint, a body that does not decrypt.
      const changed = file.slice();
      changed[stanzaEnd] = changed[stanzaEnd] === 0x41 ? 0x42 : 0x41;
      await assert.rejects(
        age.decrypt(changed, { identities: [KEYS[name]!.privateKey] }),
        (e) => e instanceof AuthenticationError && /does not decrypt under it/.test(e.message),
      );
    }
    // Only a key's first stanza is tried, so a file of many stanzas for one key costs one operation: a good second one does not help.
    const twice = await age.encrypt(PLAINTEXT, { recipients: [KEYS.rsa!.publicKey, KEYS.rsa!.publicKey] });
    assertBytes(await age.decrypt(twice, { identities: [KEYS.rsa!.privateKey] }), PLAINTEXT);
    const text = new TextDecoder('latin1').decode(twice);
    const firstBody = text.indexOf('\n', text.indexOf('\n-> ') + 1) + 1;
    const broken = twice.slice();
    broken[firstBody] = broken[firstBody] === 0x41 ? 0x42 : 0x41;
    await assert.rejects(age.decrypt(broken, { identities: [KEYS.rsa!.privateKey] }), /does not decrypt under it/);
  });
});
