/**
 * fourfold/age/typage, typage's API on fourfold, against typage itself
 * (npm `age-encryption`, a devDependency): files typage makes open with
 * the typage API and with fourfold/age, and files they make open with
 * typage, for every key type both decrypt (X25519, post-quantum hybrid,
 * scrypt passphrases), whole and streamed, binary and armored, on both
 * tiers. Errors and tampered files are test/age/typage-errors.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as typage from 'age-encryption';
import * as age from 'fourfold/age';
import * as api from 'fourfold/age/typage';
import { assertBytes, forEachTier, NO_STREAMS, rand } from '../helpers.js';
import { bytesOf, forTypage, NO_TYPAGE_FILES, streamOf, typageEncrypt, WORK_FACTOR } from './typage-peer.js';

const CHUNK = 65536;
const SIZES = [0, CHUNK + 1];
const PASSPHRASE = 'light-original-energy-average-wish-blind-vendor-pencil-illness-scorpion';

/** A key both sides decrypt with: how each side is told it, and how each encrypts to it. */
interface Kind {
  readonly name: string;
  make(): Promise<{ identity: string; recipient: string }>;
}

const KINDS: Kind[] = [
  {
    name: 'X25519',
    async make() {
      const identity = await forTypage(typage.generateX25519Identity);
      return { identity, recipient: await api.identityToRecipient(identity) };
    },
  },
  {
    name: 'hybrid ML-KEM-768 + X25519',
    async make() {
      const identity = await typage.generateHybridIdentity();
      return { identity, recipient: await api.identityToRecipient(identity) };
    },
  },
];

/** A Decrypter of either API for `identity`, or the passphrase when `identity` is undefined. */
function decrypterFor<D extends { addIdentity(s: string): void; addPassphrase(s: string): void }>(d: D, identity: string | undefined): D {
  if (identity === undefined) d.addPassphrase(PASSPHRASE);
  else d.addIdentity(identity);
  return d;
}

/** An Encrypter of either API for `recipient`, or the passphrase (a small work factor) when it is undefined. */
function encrypterFor<E extends { addRecipient(s: string): void; setPassphrase(s: string): void; setScryptWorkFactor(n: number): void }>(
  e: E,
  recipient: string | undefined,
): E {
  if (recipient === undefined) {
    e.setScryptWorkFactor(WORK_FACTOR);
    e.setPassphrase(PASSPHRASE);
  } else e.addRecipient(recipient);
  return e;
}

/** Every way the typage API and fourfold/age open `file`, each checked against `data`. */
async function openHere(file: Uint8Array, data: Uint8Array, identity: string | undefined, what: string): Promise<void> {
  assertBytes(await decrypterFor(new api.Decrypter(), identity).decrypt(file), data, `${what}: typage API, whole`);
  const armored = api.armor.encode(file);
  assertBytes(await decrypterFor(new api.Decrypter(), identity).decrypt(api.armor.decode(armored)), data, `${what}: typage API, armor.decode`);
  assertBytes(await decrypterFor(new api.Decrypter(), identity).decrypt(new TextEncoder().encode(armored)), data, `${what}: typage API, armored bytes`);
  const from = identity === undefined ? { passphrase: PASSPHRASE } : { identities: [identity] };
  assertBytes(await age.decrypt(file, from), data, `${what}: fourfold/age`);
  if (NO_STREAMS) return;
  const stream = await decrypterFor(new api.Decrypter(), identity).decrypt(streamOf(file));
  assert.equal(stream.size(file.length), data.length, `${what}: the stream's size()`);
  assertBytes(await bytesOf(stream), data, `${what}: typage API, streamed`);
}

/** Every way typage opens `file`, each checked against `data`. */
async function openThere(file: Uint8Array, data: Uint8Array, identity: string | undefined, what: string): Promise<void> {
  assertBytes(await decrypterFor(new typage.Decrypter(), identity).decrypt(file), data, `${what}: typage, whole`);
  const armored = typage.armor.decode(api.armor.encode(file));
  assertBytes(await decrypterFor(new typage.Decrypter(), identity).decrypt(armored), data, `${what}: typage, armored`);
  if (NO_STREAMS) return;
  const stream = await decrypterFor(new typage.Decrypter(), identity).decrypt(streamOf(file));
  assertBytes(await bytesOf(stream), data, `${what}: typage, streamed`);
}

/** The files the typage API makes of `data`: whole, and streamed (its size() checked against the bytes). */
async function madeHere(data: Uint8Array, recipient: string | undefined, what: string): Promise<Uint8Array[]> {
  const whole = await encrypterFor(new api.Encrypter(), recipient).encrypt(data);
  if (NO_STREAMS) return [whole];
  const stream = await encrypterFor(new api.Encrypter(), recipient).encrypt(streamOf(data, 777));
  const size = stream.size(data.length);
  const streamed = await bytesOf(stream);
  assert.equal(streamed.length, size, `${what}: the stream's size()`);
  return [whole, streamed];
}

forEachTier('the typage API with typage', () => {
  for (const kind of [...KINDS, undefined]) {
    const name = kind?.name ?? 'scrypt passphrase';
    it(`${name}: typage's files open with the typage API and fourfold/age, whole and streamed, binary and armored`, { skip: NO_TYPAGE_FILES }, async () => {
      const keys = await kind?.make();
      for (const size of SIZES) {
        const data = rand(size);
        const theirs = await typageEncrypt(encrypterFor(new typage.Encrypter(), keys?.recipient), data);
        await openHere(theirs, data, keys?.identity, `${name}, ${size} bytes`);
        if (NO_STREAMS) continue;
        const streamed = await bytesOf(await encrypterFor(new typage.Encrypter(), keys?.recipient).encrypt(streamOf(data)));
        await openHere(streamed, data, keys?.identity, `${name}, ${size} bytes, typage's stream`);
      }
    });

    it(`${name}: the typage API's files and fourfold/age's open with typage and with each other`, { skip: NO_TYPAGE_FILES }, async () => {
      const keys = await kind?.make();
      for (const size of SIZES) {
        const data = rand(size);
        for (const [i, file] of (await madeHere(data, keys?.recipient, `${name}, ${size} bytes`)).entries()) {
          const what = `${name}, ${size} bytes, ${i === 0 ? 'whole' : 'streamed'}`;
          await openThere(file, data, keys?.identity, what);
          await openHere(file, data, keys?.identity, what);
        }
        const to = keys === undefined ? { passphrase: PASSPHRASE, workFactor: WORK_FACTOR } : { recipients: [keys.recipient] };
        for (const armor of [false, true]) {
          const file = await age.encrypt(data, to, { armor });
          assertBytes(await decrypterFor(new api.Decrypter(), keys?.identity).decrypt(file), data, `${name}, fourfold/age's file, armor ${armor}`);
        }
      }
    });
  }

  it("keys: the typage API's identities and recipients are typage's, and decryptHeader gives typage's file key", { skip: NO_TYPAGE_FILES }, async () => {
    for (const generate of [api.generateIdentity, api.generateX25519Identity, api.generateHybridIdentity]) {
      const identity = await forTypage(generate);
      const recipient = await api.identityToRecipient(identity);
      assert.equal(recipient, await typage.identityToRecipient(identity));
      const file = await typageEncrypt(encrypterFor(new typage.Encrypter(), recipient), rand(10));
      const ours = await decrypterFor(new api.Decrypter(), identity).decryptHeader(file);
      assertBytes(ours, await decrypterFor(new typage.Decrypter(), identity).decryptHeader(file), 'the file key');
    }
  });

  it('"text" gives the UTF-8 of the plaintext, and a string is encrypted as its UTF-8, as typage does', { skip: NO_TYPAGE_FILES }, async () => {
    const identity = await forTypage(api.generateIdentity);
    const text = 'age \u{1F510} caf\u00e9';
    const e = encrypterFor(new api.Encrypter(), await api.identityToRecipient(identity));
    assert.equal(await decrypterFor(new typage.Decrypter(), identity).decrypt(await e.encrypt(text), 'text'), text);
    const theirs = await encrypterFor(new typage.Encrypter(), await api.identityToRecipient(identity)).encrypt(text);
    assert.equal(await decrypterFor(new api.Decrypter(), identity).decrypt(theirs, 'text'), text);
  });
});
