/**
 * Identity files as age's -i reads them: the whole text of an age-keygen
 * or age-keygen -pq key file (comments, blank lines, several keys of both
 * kinds, CRLF) is an identity wherever one goes, in every call of
 * fourfold/age and fourfold/parallel's age that takes identities, and
 * identityToRecipient gives the recipient of a file's one key. The files,
 * the Go age's recipients and files to them, and what `age -d -i` does
 * with each variant of an identity file come from the Go age v1.3.2
 * (test/vectors/age-identity-files.json, scripts/age-identity-files.ts):
 * fourfold decrypts what age decrypts and refuses, with a RangeError
 * naming the entry and line, what age refuses.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { assertBytes, loadJson } from '../helpers.js';
import { AGE_CALLS, NO_BLOB } from './calls.js';
import { fs, inDirectory, NO_FILES, read } from './file-fixture.js';

interface Vectors {
  plaintext: string;
  keyFiles: { x25519: string; pq: string };
  recipients: { x25519: string; pq: string };
  files: { x25519: string; pq: string };
  variants: { name: string; text: string; age: 'decrypts' | 'refuses' }[];
}
const V = loadJson<Vectors>('vectors/age-identity-files.json');
const plaintext = new TextEncoder().encode(V.plaintext);
const base64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
/** The Go age's files, one to each key file's key. */
const FILES = [
  ['to the X25519 key', base64(V.files.x25519)],
  ['to the post-quantum key', base64(V.files.pq)],
] as const;
const APIS = [
  ['fourfold/age', age],
  ['fourfold/parallel', parallelAge],
] as const;

/** Every call that takes identities, as (file, from) => plaintext, beside AGE_CALLS' decrypt, streams and Blob file calls. */
const RANGE_CALLS = APIS.map(([name, api]) => ({
  name: `${name} decryptRange of a Blob`,
  skip: NO_BLOB,
  open: (file: Uint8Array, from: age.AgeFrom) => api.decryptRange(new Blob([file as Uint8Array<ArrayBuffer>]), 0, plaintext.length, from),
}));
const CALLS = [...AGE_CALLS, ...RANGE_CALLS];

it("age-keygen's key files are identities: each alone opens the file to its key, and both in one text open either", async () => {
  for (const call of CALLS) {
    if (call.skip) continue;
    for (const [what, file] of FILES) {
      const own = what.includes('X25519') ? V.keyFiles.x25519 : V.keyFiles.pq;
      assertBytes(await call.open(file, { identities: [own] }), plaintext, `${call.name}, ${what}: its key file`);
      assertBytes(await call.open(file, { identities: [V.keyFiles.x25519 + V.keyFiles.pq] }), plaintext, `${call.name}, ${what}: both key files`);
      assertBytes(await call.open(file, { identities: [age.generateIdentity(), own] }), plaintext, `${call.name}, ${what}: after another identity`);
    }
  }
});

it('an identity file that age -d -i reads is read, and one it refuses is refused (RangeError, naming the entry), by every call', async () => {
  const decrypted = V.variants.filter((v) => v.age === 'decrypts').map((v) => v.name);
  assert.ok(decrypted.includes('CRLF line ends') && decrypted.includes('blank lines before, between and after'), 'the vectors hold what age reads');
  for (const { name, text, age: verdict } of V.variants) {
    for (const call of CALLS) {
      if (call.skip) continue;
      for (const [what, file] of FILES) {
        // A stream refuses its identities when it is made, a one-shot call when it is called: either way, here a rejection.
        const opening = (async () => call.open(file, { identities: [age.generateIdentity(), text] }))();
        if (verdict === 'decrypts') assertBytes(await opening, plaintext, `${name}: ${call.name}, ${what}`);
        else
          await assert.rejects(opening, (e: unknown) => {
            assert.ok(e instanceof RangeError, `${name}: ${call.name}: a RangeError, got ${String(e)}`);
            assert.match(e.message, /^identities\[1\]( line \d+)? (is|holds) /, `${name}: ${call.name}`);
            return true;
          });
      }
    }
  }
});

it('decryptFile reads the key file from its text, path to path', { skip: NO_FILES }, async () => {
  for (const [name, api] of APIS) {
    await inDirectory(async (path) => {
      for (const [what, file] of FILES) {
        fs!.writeFileSync(path('file.age'), file);
        await api.decryptFile(path('file.age'), path('plain'), { identities: [V.keyFiles.x25519 + V.keyFiles.pq] });
        assertBytes(read(path('plain')), plaintext, `${name}, ${what}`);
      }
    });
  }
});

it("identityToRecipient of a key file's text is age-keygen -y's recipient; a text of two keys is refused", async () => {
  assert.equal(age.identityToRecipient(V.keyFiles.x25519), V.recipients.x25519);
  assert.equal(await age.identityToRecipient(V.keyFiles.pq), V.recipients.pq);
  assert.equal(await age.identityToRecipient(V.keyFiles.pq.replaceAll('\n', '\r\n')), V.recipients.pq, 'CRLF');
  assert.throws(
    () => age.identityToRecipient(V.keyFiles.x25519 + V.keyFiles.pq),
    (e: unknown) => e instanceof RangeError && e.message.startsWith('identity holds 2 identities'),
  );
});

it("a refused identity file's message names the line and what it holds instead, and quotes no key", async () => {
  const [, file] = FILES[0];
  const key = V.keyFiles.x25519.split('\n').find((l) => l.startsWith('AGE-'))!;
  const cases: [string, RegExp][] = [
    ['', /^identities\[0\] holds no identity \(it is empty\): .*AGE-SECRET-KEY-PQ-1/],
    ['# only a comment\n\n', /^identities\[0\] holds no identity \(only comments\)/],
    [V.keyFiles.x25519.replace(key, key.toLowerCase()), /^identities\[0\] line 3 is in lower case/],
    [`${V.keyFiles.x25519}${V.recipients.x25519}\n`, /^identities\[0\] line 4 is a recipient \(age1\.\.\., a public key\), not an identity/],
    [`${V.keyFiles.x25519} hello\n`, /^identities\[0\] line 4 is not an age identity \(AGE-SECRET-KEY-1\.\.\., AGE-SECRET-KEY-PQ-1\.\.\., or an identity file/],
    ['age-encryption.org/v1\n-> scrypt abc 18\n', /^identities\[0\] is an age file, not an identity: a passphrase-protected identity file is decrypted first/],
  ];
  for (const [text, expected] of cases) {
    await assert.rejects(age.decrypt(file, { identities: [text] }), (e: unknown) => {
      assert.ok(e instanceof RangeError, String(e));
      assert.match(e.message, expected);
      assert.ok(!e.message.includes(key.slice(20, 30)) && !e.message.toLowerCase().includes(key.slice(20, 30).toLowerCase()), e.message);
      return true;
    });
  }
});
