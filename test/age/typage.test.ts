/**
 * fourfold/age against typage (npm `age-encryption`, the TypeScript age
 * on @noble), an implementation written apart from ours: files each
 * encrypts, the other decrypts, both ways, to X25519 and post-quantum
 * hybrid keys and passphrases,
 * binary and armored, at sizes around the 64 KiB chunk; keys each
 * generates, the other's recipients derived the same. Both tiers. The
 * command-line clients (age, rage) are in test/cli/age-*.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import {
  Decrypter,
  Encrypter,
  armor,
  generateHybridIdentity as typageHybrid,
  generateX25519Identity,
  identityToRecipient as typageRecipient,
} from 'age-encryption';
import * as age from 'fourfold/age';
import { assertBytes, forEachTier, NO_STREAMS, rand } from '../helpers.js';
import { bytesOf, forTypage, NO_TYPAGE_FILES, NO_WEBCRYPTO, typageEncrypt, WORK_FACTOR } from './typage-peer.js';

const CHUNK = 65536;
const SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7];
it("keys: typage's identities give typage's recipients here, and ours there", { skip: NO_WEBCRYPTO }, async () => {
  for (let i = 0; i < 4; i++) {
    const theirs = await forTypage(generateX25519Identity);
    assert.equal(age.identityToRecipient(theirs), await typageRecipient(theirs));
    const ours = await forTypage(age.generateIdentity);
    assert.equal(await typageRecipient(ours), age.identityToRecipient(ours));
  }
});

it("post-quantum keys: typage's hybrid identities give typage's recipients here, and ours there", { skip: NO_WEBCRYPTO }, async () => {
  for (let i = 0; i < 3; i++) {
    const theirs = await typageHybrid();
    assert.equal(await age.identityToRecipient(theirs), await typageRecipient(theirs));
    const ours = age.generateHybridIdentity();
    assert.equal(await typageRecipient(ours), await age.identityToRecipient(ours));
  }
});

forEachTier('age files with typage', () => {
  it('post-quantum hybrid: typage decrypts what fourfold encrypts and the reverse, two recipients, binary and armored', { skip: NO_TYPAGE_FILES }, async () => {
    const identities = [age.generateHybridIdentity(), await typageHybrid()];
    const recipients = await Promise.all(identities.map((id) => age.identityToRecipient(id)));
    for (const size of [0, 1, CHUNK + 1]) {
      const data = rand(size);
      for (const armored of [false, true]) {
        const ours = await age.encrypt(data, { recipients }, { armor: armored });
        for (const identity of identities) {
          const d = new Decrypter();
          d.addIdentity(identity);
          assertBytes(await d.decrypt(armored ? armor.decode(new TextDecoder().decode(ours)) : ours), data, `fourfold -> typage, ${size}, armor ${armored}`);
        }
        const e = new Encrypter();
        for (const r of recipients) e.addRecipient(r);
        const sealed = await typageEncrypt(e, data);
        const theirs = armored ? new TextEncoder().encode(armor.encode(sealed)) : sealed;
        for (const identity of identities) {
          assertBytes(await age.decrypt(theirs, { identities: [identity] }), data, `typage -> fourfold, ${size}, armor ${armored}`);
        }
      }
    }
  });

  it('X25519: typage decrypts what fourfold encrypts and the reverse, binary and armored, at every size', { skip: NO_TYPAGE_FILES }, async () => {
    const identity = await forTypage(age.generateIdentity);
    const recipient = await age.identityToRecipient(identity);
    for (const size of SIZES) {
      const data = rand(size);
      for (const armored of [false, true]) {
        const ours = await age.encrypt(data, { recipients: [recipient] }, { armor: armored });
        const d = new Decrypter();
        d.addIdentity(identity);
        assertBytes(await d.decrypt(armored ? armor.decode(new TextDecoder().decode(ours)) : ours), data, `fourfold -> typage, ${size}, armor ${armored}`);
        const e = new Encrypter();
        e.addRecipient(recipient);
        const sealed = await typageEncrypt(e, data);
        const theirs = armored ? new TextEncoder().encode(armor.encode(sealed)) : sealed;
        assertBytes(await age.decrypt(theirs, { identities: [identity] }), data, `typage -> fourfold, ${size}, armor ${armored}`);
      }
    }
  });

  it('passphrases: each opens the other’s files, and a wrong passphrase fails on both sides', { skip: NO_TYPAGE_FILES }, async () => {
    const passphrase = 'correct horse battery staple';
    for (const size of [0, CHUNK + 1]) {
      const data = rand(size);
      const ours = await age.encrypt(data, { passphrase, workFactor: WORK_FACTOR });
      const d = new Decrypter();
      d.addPassphrase(passphrase);
      assertBytes(await d.decrypt(ours), data, `fourfold -> typage, ${size}`);
      const wrong = new Decrypter();
      wrong.addPassphrase('another passphrase');
      await assert.rejects(wrong.decrypt(ours), `typage refuses a wrong passphrase, ${size}`);

      const e = new Encrypter();
      e.setPassphrase(passphrase);
      e.setScryptWorkFactor(WORK_FACTOR);
      const theirs = await e.encrypt(data);
      assertBytes(await age.decrypt(theirs, { passphrase }), data, `typage -> fourfold, ${size}`);
      await assert.rejects(age.decrypt(theirs, { passphrase: 'another passphrase' }), age.NoIdentityMatchError, `fourfold refuses a wrong passphrase, ${size}`);
    }
  });

  it("a file of typage's, several recipients, ours among them: the stream and the range calls open it", { skip: NO_TYPAGE_FILES }, async () => {
    const identity = await forTypage(age.generateIdentity);
    const data = rand(5 * CHUNK + 300);
    const e = new Encrypter();
    e.addRecipient(await age.identityToRecipient(age.generateIdentity()));
    e.addRecipient(await age.identityToRecipient(identity));
    const file = await typageEncrypt(e, data);
    const from = { identities: [identity] };
    assertBytes(await age.decrypt(file, from), data, 'decrypt');
    const blob = new Blob([file.slice()]);
    assertBytes(await age.decryptRange(blob, CHUNK - 10, 3 * CHUNK + 10, from), data.subarray(CHUNK - 10, 3 * CHUNK + 10), 'decryptRange');
  });

  it("typage's file through decryptStream, and ours through typage's stream decryption", { skip: NO_TYPAGE_FILES || NO_STREAMS }, async () => {
    const identity = await forTypage(age.generateIdentity);
    const data = rand(4 * CHUNK + 1);
    const e = new Encrypter();
    e.addRecipient(await age.identityToRecipient(identity));
    const theirs = new Blob([(await typageEncrypt(e, data)).slice()]);
    assertBytes(await bytesOf(theirs.stream().pipeThrough(age.decryptStream({ identities: [identity] }))), data, 'typage -> decryptStream');
    const ours = new Blob([(await age.encrypt(data, { recipients: [await age.identityToRecipient(identity)] })).slice()]);
    const d = new Decrypter();
    d.addIdentity(identity);
    assertBytes(await bytesOf(await d.decrypt(ours.stream())), data, "fourfold -> typage's stream");
  });
});
