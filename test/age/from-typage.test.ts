/**
 * What a caller coming from typage (npm `age-encryption`) writes, and
 * what fourfold/age and fourfold/parallel's age answer, each with a
 * message that says what to write instead: an argument past a call's own
 * (typage's `decrypt(file, 'text')`) refused rather than ignored;
 * recipients and a passphrase together (typage's Encrypter takes both,
 * then fails) refused by TypeScript, whose verdict `tsc -p tsconfig.json`
 * checks through the @ts-expect-error lines, and at run time; several
 * passphrases in an array (typage's Decrypter takes several); a key or a
 * format where `to` or `from` belongs.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as age from 'fourfold/age';
import { age as poolAge } from 'fourfold/parallel';
import { assertBytes, rand } from '../helpers.js';

/** Asserts that `call` throws, or returns a Promise that rejects, a TypeError whose message is `expected` exactly. */
async function typeError(call: () => unknown, expected: string): Promise<void> {
  await assert.rejects(
    async () => call(),
    (e: unknown) => {
      assert.ok(e instanceof TypeError, `a TypeError, got ${String(e)}`);
      assert.equal(e.message, expected);
      return true;
    },
  );
}

for (const [entry, api] of [
  ['fourfold/age', age],
  ['fourfold/parallel', poolAge],
] as const) {
  it(`${entry}: an argument past a call's own is refused, saying what the call takes; undefined ones pass`, async () => {
    const identity = api.generateIdentity();
    const to = { recipients: [api.identityToRecipient(identity)] };
    const from = { identities: [identity] };
    const data = rand(100);
    const file = await api.encrypt(data, to);
    const source = { size: file.length, read: async (offset: number, length: number) => file.slice(offset, offset + length) };
    const text = ': the plaintext is bytes; for text, new TextDecoder().decode(plaintext)';
    // @ts-expect-error typage's decrypt(file, 'text'): TypeScript refuses the argument too
    await typeError(() => api.decrypt(file, from, 'text'), `decrypt(file, from) takes 2 arguments, got a 3rd (string)${text}`);
    // @ts-expect-error a fourth argument
    await typeError(() => api.encrypt(data, to, undefined, true), 'encrypt(data, to, options) takes 3 arguments, got a 4th (boolean)');
    // @ts-expect-error a third argument
    await typeError(() => api.encryptStream(to, {}, 'armor'), 'encryptStream(to, options) takes 2 arguments, got a 3rd (string)');
    await typeError(
      // @ts-expect-error a second argument
      () => api.decryptStream(from, 'text'),
      'decryptStream(from) takes 1 argument, got a 2nd (string): the plaintext is bytes; for text, pipe it through a TextDecoderStream',
    );
    // @ts-expect-error a fifth argument
    await typeError(() => api.decryptRange(source, 0, 10, from, 'text'), `decryptRange(source, start, end, from) takes 4 arguments, got a 5th (string)${text}`);
    // The key calls take what map() passes on (identities.map(identityToRecipient)): an index and the array carry no intent.
    assert.deepEqual([identity].map(api.identityToRecipient), to.recipients);
    // A wrapper that passes its own arguments on may add undefined ones: they mean nothing, and pass.
    const forward = api.decrypt as (...args: unknown[]) => Promise<Uint8Array>;
    assertBytes(await forward(file, from, undefined), data);
  });
}

it('to and from take recipients (identities) or a passphrase, never both: TypeScript refuses it, and so does the call', async () => {
  const identity = age.generateIdentity();
  const recipient = age.identityToRecipient(identity);
  const file = await age.encrypt(rand(3), { recipients: [recipient] });
  // @ts-expect-error recipients and a passphrase together (typage's Encrypter takes both, then fails)
  await typeError(() => age.encrypt(rand(3), { recipients: [recipient], passphrase: 'pw' }), 'to takes recipients or a passphrase, one of them');
  // @ts-expect-error workFactor goes with a passphrase
  await typeError(() => age.encrypt(rand(3), { recipients: [recipient], workFactor: 10 }), 'workFactor goes with a passphrase, not recipients');
  // @ts-expect-error identities and a passphrase together
  await typeError(() => age.decrypt(file, { identities: [identity], passphrase: 'pw' }), 'from takes identities or a passphrase, one of them');
  // @ts-expect-error maxWorkFactor goes with a passphrase
  await typeError(() => age.decrypt(file, { identities: [identity], maxWorkFactor: 20 }), 'maxWorkFactor goes with a passphrase, not identities');
  // Each alone, and typed as the union, compiles and runs.
  const to: age.AgeTo = { passphrase: 'pw', workFactor: 4 };
  const from: age.AgeFrom = { passphrase: 'pw', maxWorkFactor: 4 };
  assert.equal((await age.decrypt(await age.encrypt(rand(3), to), from)).length, 3);
});

it('several passphrases in an array, or a key or a format where to or from belongs: the message says what to write', async () => {
  const identity = age.generateIdentity();
  const recipient = age.identityToRecipient(identity);
  const file = await age.encrypt(rand(3), { passphrase: 'pw', workFactor: 4 });
  const array = 'passphrase must be a string or a Uint8Array, got Array: one passphrase (try several in turn); for bytes in an array, Uint8Array.from(array)';
  await typeError(() => age.decrypt(file, { passphrase: ['pw', 'other'] as never }), array);
  await typeError(() => age.encrypt(rand(3), { passphrase: [112, 119] as never }), array);
  await typeError(() => age.encrypt(rand(3), recipient as never), 'to must be { recipients } or { passphrase }, got a string: { recipients: [recipient] }');
  await typeError(() => age.decrypt(file, identity as never), 'from must be { identities } or { passphrase }, got a string: { identities: [identity] }');
  await typeError(
    () => age.decrypt(file, 'text' as never),
    'from must be { identities } or { passphrase }, got a string: decrypt takes (file, from) and gives bytes; for text, new TextDecoder().decode(plaintext)',
  );
});
