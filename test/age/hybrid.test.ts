/**
 * age's post-quantum hybrid keys (ML-KEM-768 + X25519, the mlkem768x25519
 * stanza): identities made and their recipients derived, files encrypted
 * to them and decrypted through every call of fourfold/age and
 * fourfold/parallel's age, identities of the wrong kind or key told
 * apart, and the rule of the format that a file to a post-quantum
 * recipient carries no X25519 one. The C2SP test kit's hybrid vectors are
 * in testkit.test.ts, typage in typage.test.ts, Go age in
 * test/cli/age-keys.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { bech32 } from '@scure/base';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { assertBytes, forEachTier, NO_STREAMS, rand } from '../helpers.js';
import { AGE_CALLS, NO_BLOB } from './calls.js';

const CHUNK = 65536;

it("generateHybridIdentity: a new seed each call, as age-keygen -pq writes it; its recipient, a promise, is the KEM's encapsulation key of that seed", async () => {
  const a = age.generateHybridIdentity();
  const b = age.generateHybridIdentity();
  assert.match(a, /^AGE-SECRET-KEY-PQ-1[02-9AC-HJ-NP-Z]{58}$/);
  assert.notEqual(a, b);
  const pending = age.identityToRecipient(a);
  assert.ok(pending instanceof Promise, 'a hybrid identity gives a promise (its ML-KEM code loads on first use)');
  const recipient = await pending;
  const seed = bech32.fromWords(bech32.decode(a.toLowerCase() as `${string}1${string}`, false).words);
  assert.equal(recipient, bech32.encode('age1pq', bech32.toWords(ml_kem768_x25519.getPublicKey(seed)), false));
  assert.equal(recipient.length, 1959);
  assert.equal(await age.identityToRecipient(a), recipient, 'the same recipient every time');
  assert.equal(typeof age.identityToRecipient(age.generateIdentity()), 'string', 'an X25519 identity still gives its recipient at once');
});

forEachTier('post-quantum hybrid files', () => {
  const mine = age.generateHybridIdentity();
  const yours = age.generateHybridIdentity();
  const recipients = Promise.all([mine, yours].map((id) => age.identityToRecipient(id)));

  for (const api of AGE_CALLS) {
    it(`${api.name}: each recipient's identity opens the file, alone or beside an X25519 one; others get NoIdentityMatchError`, {
      skip: api.skip,
    }, async () => {
      const to = { recipients: await recipients };
      for (const size of [0, 1, CHUNK, 2 * CHUNK + 3]) {
        const data = rand(size);
        const file = await api.seal(data, to);
        assertBytes(await api.open(file, { identities: [mine] }), data, `${size} bytes, the first identity`);
        assertBytes(await api.open(file, { identities: [age.generateIdentity(), yours] }), data, `${size} bytes, the second after an X25519 one`);
      }
      const file = await api.seal(rand(10), to);
      for (const other of [age.generateHybridIdentity(), age.generateIdentity()]) {
        await assert.rejects(api.open(file, { identities: [other] }), age.NoIdentityMatchError);
      }
    });
  }

  it('a file to post-quantum and X25519 recipients both is refused with a RangeError before any output, by every call', async () => {
    const mixed = { recipients: [(await recipients)[0]!, age.identityToRecipient(age.generateIdentity())] };
    const why =
      /^RangeError: recipients mixes post-quantum \(age1pq1\.\.\., age1tagpq1\.\.\.\) and classic \(age1\.\.\., age1tag1\.\.\., ssh-\.\.\.\) keys: .* only those/;
    await assert.rejects(age.encrypt(rand(1), mixed), why);
    await assert.rejects(parallelAge.encrypt(rand(1), mixed), why);
    if (!NO_STREAMS) {
      assert.throws(() => age.encryptStream(mixed), why);
      assert.throws(() => parallelAge.encryptStream(mixed), why);
    }
    if (!NO_BLOB) await assert.rejects(parallelAge.encryptFile(new Blob([new Uint8Array(1)]), undefined, mixed), why);
  });
});
