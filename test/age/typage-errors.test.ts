/**
 * fourfold/age/typage's refusals against typage's (npm `age-encryption`):
 * the calls typage refuses are refused here, with typage's messages where
 * a program may read them; a file for other keys fails alike; a changed
 * file never gives plaintext that did not verify, whole or streamed; a
 * Recipient and an Identity of a caller's own type work across the two.
 * Both tiers.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as typage from 'age-encryption';
import * as api from 'fourfold/age/typage';
import { assertBytes, concat, forEachTier, NO_STREAMS, rand } from '../helpers.js';
import { forTypage, NO_TYPAGE_FILES, streamOf, typageEncrypt } from './typage-peer.js';

const CHUNK = 65536;
const RECIPIENT = 'age1tgyuvdlmpejqsdf847hevurz9szk7vf3j7ytfyqecgzvphvu2d8qrtaxl6';

/** The error `call` throws, synchronously. */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (e) {
    return e as Error;
  }
  assert.fail('it did not throw');
}

it("the Encrypter's and Decrypter's refusals are typage's, with its messages for the passphrase rules", () => {
  for (const E of [api.Encrypter, typage.Encrypter]) {
    const twice = new E();
    twice.setPassphrase('1');
    assert.equal(thrown(() => twice.setPassphrase('2')).message, 'can encrypt to at most one passphrase');
    assert.equal(thrown(() => twice.addRecipient(RECIPIENT)).message, "can't encrypt to both recipients and passphrases");
    const toRecipient = new E();
    toRecipient.addRecipient(RECIPIENT);
    assert.equal(thrown(() => toRecipient.setPassphrase('2')).message, "can't encrypt to both recipients and passphrases");
    for (const bad of [
      RECIPIENT.slice(0, -1),
      RECIPIENT.toUpperCase(),
      `ag${RECIPIENT.slice(3)}`,
      `${RECIPIENT.slice(0, -1)}7`,
      `foo${RECIPIENT.slice(3)}`,
      'age1pqinvalid',
    ])
      assert.ok(thrown(() => new E().addRecipient(bad)) instanceof Error, `${E === api.Encrypter ? 'ours' : 'typage'} refuses ${bad}`);
  }
  for (const D of [api.Decrypter, typage.Decrypter])
    for (const bad of ['AGE-SECRET-KEY-PQ-INVALID', 'AGE-SECRET-KEY-PQ-1', 'AGE-SECRET-KEY-FOO-1ABCDEFGH'])
      assert.ok(thrown(() => new D().addIdentity(bad)) instanceof Error, `${D === api.Decrypter ? 'ours' : 'typage'} refuses ${bad}`);
});

forEachTier('the typage API refuses as typage does', () => {
  it("a file for other keys, or another passphrase: typage's message, a NoIdentityMatchError (an Error)", { skip: NO_TYPAGE_FILES }, async () => {
    const e = new typage.Encrypter();
    e.addRecipient(await api.identityToRecipient(await forTypage(api.generateIdentity)));
    const file = await typageEncrypt(e, rand(100));
    const p = new typage.Encrypter();
    p.setScryptWorkFactor(4);
    p.setPassphrase('right');
    const byPassphrase = await p.encrypt(rand(100));
    for (const [f, d] of [
      [file, new api.Decrypter()],
      [byPassphrase, new api.Decrypter()],
    ] as const) {
      d.addIdentity(await api.generateIdentity());
      d.addPassphrase('wrong');
      await assert.rejects(
        d.decrypt(f),
        (err: Error) => err instanceof api.NoIdentityMatchError && err.message === "no identity matched any of the file's recipients",
      );
      if (!NO_STREAMS) await assert.rejects(d.decrypt(streamOf(f)), api.NoIdentityMatchError, 'the stream rejects before any plaintext');
      const theirs = new typage.Decrypter();
      theirs.addPassphrase('wrong');
      await assert.rejects(theirs.decrypt(f), /no identity matched/);
    }
  });

  it('a changed byte anywhere: whole, nothing; streamed, only the chunks before it, which verified', { skip: NO_TYPAGE_FILES }, async () => {
    const identity = await forTypage(api.generateIdentity);
    const data = rand(2 * CHUNK + 5);
    const e = new api.Encrypter();
    e.addRecipient(await api.identityToRecipient(identity));
    const file = await e.encrypt(data);
    const payload = file.length - (data.length + 3 * 16);
    for (const at of [40, payload - 30, payload + 5, payload + CHUNK + 40, file.length - 1]) {
      const changed = file.slice();
      changed[at]! ^= 1;
      const d = new api.Decrypter();
      d.addIdentity(identity);
      await assert.rejects(d.decrypt(changed), Error, `byte ${at}, whole`);
      const theirs = new typage.Decrypter();
      theirs.addIdentity(identity);
      await assert.rejects(async () => theirs.decrypt(changed), Error, `typage refuses it too, byte ${at}`);
      if (NO_STREAMS) continue;
      const got: Uint8Array[] = [];
      await assert.rejects(async () => {
        const reader = (await d.decrypt(streamOf(changed, 5000))).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) got.push(r.value);
      }, `byte ${at}, streamed`);
      const released = got.reduce((n, b) => n + b.length, 0);
      const changedChunk = Math.max(0, Math.floor((at - payload) / (CHUNK + 16)));
      assert.ok(released <= changedChunk * CHUNK, `byte ${at}: ${released} bytes released, only the chunks before the changed one`);
      assertBytes(concat(...got), data.subarray(0, released), `byte ${at}: what was released is the plaintext`);
    }
  });

  it("a Recipient and an Identity of a caller's own type: typage's and ours take each other's files", { skip: NO_TYPAGE_FILES }, async () => {
    const secret = rand(32);
    const wrap = (Stanza: typeof api.Stanza) => ({
      wrapFileKey: (fileKey: Uint8Array) => [
        new Stanza(
          ['example.com/xor', 'v1'],
          fileKey.map((b, i) => b ^ secret[i]!),
        ),
      ],
    });
    const unwrap = {
      unwrapFileKey: (stanzas: { args: string[]; body: Uint8Array }[]) => {
        const s = stanzas.find((x) => x.args[0] === 'example.com/xor');
        return s === undefined ? null : s.body.map((b, i) => b ^ secret[i]!);
      },
    };
    const data = rand(CHUNK + 3);
    const ours = new api.Encrypter();
    ours.addRecipient(wrap(api.Stanza));
    const theirs = new typage.Encrypter();
    theirs.addRecipient(wrap(typage.Stanza));
    for (const file of [await ours.encrypt(data), await theirs.encrypt(data)]) {
      for (const D of [api.Decrypter, typage.Decrypter]) {
        const d = new D();
        d.addIdentity(unwrap);
        assertBytes(await d.decrypt(file), data, 'a custom stanza, both ways');
      }
    }
    const bad = new api.Encrypter();
    bad.addRecipient({ wrapFileKey: () => [new api.Stanza(['has space'], new Uint8Array(0))] });
    await assert.rejects(bad.encrypt(data), api.AgeFormatError, 'an argument with a space would write a header no one reads');
  });
});
