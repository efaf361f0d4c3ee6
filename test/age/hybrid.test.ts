/**
 * age's post-quantum hybrid keys (ML-KEM-768 + X25519, the mlkem768x25519
 * stanza): identities made and their recipients derived, files encrypted
 * to them and decrypted through every call of fourfold/age and
 * fourfold/parallel's age, identities of the wrong kind or key told
 * apart, and the rule of the format that a file to a post-quantum
 * recipient carries no X25519 one. The C2SP test kit's hybrid vectors are
 * in testkit.test.ts, typage in typage.test.ts, Go age in
 * test/cli/age.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { bech32 } from '@scure/base';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { assertBytes, forEachTier, NO_STREAMS, rand } from '../helpers.js';

const CHUNK = 65536;
const NO_BLOB = typeof Blob === 'function' ? false : 'not applicable: this engine has no Blob';

/** All of a stream's output for `input`, written in pieces of `piece` bytes. */
async function through(stream: TransformStream<Uint8Array, Uint8Array>, input: Uint8Array, piece: number): Promise<Uint8Array> {
  const reading = new Response(stream.readable).arrayBuffer();
  // A failed stream rejects both ends: the write's rejection is the one reported.
  reading.catch(() => {});
  const writer = stream.writable.getWriter();
  for (let at = 0; at < input.length; at += piece) await writer.write(input.slice(at, at + piece));
  await writer.close();
  return new Uint8Array(await reading);
}

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

  /** Each call pair: encrypt `data` to `to`, decrypt with `from`. */
  const apis: {
    name: string;
    skip: false | string;
    seal(data: Uint8Array, to: age.AgeTo): Promise<Uint8Array>;
    open(file: Uint8Array, from: age.AgeFrom): Promise<Uint8Array>;
  }[] = [
    { name: 'fourfold/age one-shot', skip: false, seal: (d, to) => age.encrypt(d, to), open: (f, from) => age.decrypt(f, from) },
    { name: 'parallel one-shot', skip: false, seal: (d, to) => parallelAge.encrypt(d, to), open: (f, from) => parallelAge.decrypt(f, from) },
    {
      name: 'fourfold/age streams',
      skip: NO_STREAMS,
      seal: (d, to) => through(age.encryptStream(to), d, 50_000),
      open: (f, from) => through(age.decryptStream(from), f, 7000),
    },
    {
      name: 'parallel streams',
      skip: NO_STREAMS,
      seal: (d, to) => through(parallelAge.encryptStream(to), d, CHUNK),
      open: (f, from) => through(parallelAge.decryptStream(from), f, CHUNK + 16),
    },
    {
      name: 'parallel file calls on Blobs',
      skip: NO_BLOB,
      seal: async (d, to) => new Uint8Array(await (await parallelAge.encryptFile(new Blob([d as Uint8Array<ArrayBuffer>]), undefined, to))!.arrayBuffer()),
      open: async (f, from) => new Uint8Array(await (await parallelAge.decryptFile(new Blob([f as Uint8Array<ArrayBuffer>]), undefined, from))!.arrayBuffer()),
    },
  ];

  for (const api of apis) {
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
    const why = /^RangeError: recipients mixes post-quantum \(age1pq1\.\.\.\) and X25519 \(age1\.\.\.\) keys: .* only those/;
    await assert.rejects(age.encrypt(rand(1), mixed), why);
    await assert.rejects(parallelAge.encrypt(rand(1), mixed), why);
    if (!NO_STREAMS) {
      assert.throws(() => age.encryptStream(mixed), why);
      assert.throws(() => parallelAge.encryptStream(mixed), why);
    }
    if (!NO_BLOB) await assert.rejects(parallelAge.encryptFile(new Blob([new Uint8Array(1)]), undefined, mixed), why);
  });
});
