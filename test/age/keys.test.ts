/**
 * fourfold/age's keys as strings: the case age writes them in (identities
 * upper case, recipients lower case, as the Go age and typage read them),
 * and the keys fourfold cannot use, each refused with a RangeError that
 * names the type seen (tag, plugin, SSH, a malformed post-quantum key, a recipient for an
 * identity and the reverse), tells an unsupported type from a malformed
 * key, and quotes no key. The strings of the other types are Bech32 of
 * random data under their prefixes: their type is what is read here.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { bech32 } from '@scure/base';
import * as age from 'fourfold/age';
import { rand } from '../helpers.js';

const identity = age.generateIdentity();
const recipient = age.identityToRecipient(identity);
const encoded = (prefix: string, bytes: number): string => bech32.encode(prefix, bech32.toWords(rand(bytes)), false);
/** `key` with its last character changed: its checksum no longer verifies. */
const corrupted = (key: string): string => {
  const swap = key.endsWith('q') || key.endsWith('Q') ? 'p' : 'q';
  return key.slice(0, -1) + (key === key.toUpperCase() ? swap.toUpperCase() : swap);
};

/**
 * Random bytes of a post-quantum recipient's length (ML-KEM-768's 1,184-byte key and X25519's 32): 1,959
 * characters, as age-keygen -pq writes them, but not a key: ML-KEM's coefficients must be below 3329.
 */
const PQ_RECIPIENT = encoded('age1pq', 1216);
const PQ_IDENTITY = age.generateHybridIdentity();

/** The RangeError of `call`, whose message matches `expected`, names `name`, and quotes none of `key` past its type's prefix. */
async function refused(call: () => unknown, name: string, key: string, expected: RegExp): Promise<void> {
  await assert.rejects(
    async () => call(),
    (e: unknown) => {
      assert.ok(e instanceof RangeError, `a RangeError, got ${String(e)}`);
      assert.ok(e.message.startsWith(`${name} is `), e.message);
      assert.match(e.message, expected);
      const tail = key.slice(key.lastIndexOf('1') + 1, key.lastIndexOf('1') + 9);
      if (tail.length === 8) assert.ok(!e.message.includes(tail), `quotes the key: ${e.message}`);
      assert.ok(e.message.length < 200, `${e.message.length} characters`);
      return true;
    },
  );
}

const toRecipients = (list: string[]) => () => age.encrypt(rand(1), { recipients: list });
const fromIdentities = (list: string[]) => async () => age.decrypt(await age.encrypt(rand(1), { recipients: [recipient] }), { identities: list });

it("case: identities are read upper case only and recipients lower case only, as age writes and reads them, with the library's every entry", async () => {
  const lower = identity.toLowerCase();
  const upper = recipient.toUpperCase();
  assert.throws(
    () => age.identityToRecipient(lower),
    (e: unknown) => e instanceof RangeError && /^identity is in lower case: .*upper case/.test(e.message),
  );
  await refused(fromIdentities([identity, lower]), 'identities[1]', lower, /in lower case: age's identities are upper case \(AGE-SECRET-KEY-1\.\.\.\)/);
  await refused(toRecipients([recipient, upper]), 'recipients[1]', upper, /in upper case: age's recipients are lower case \(age1\.\.\.\)/);
  await refused(toRecipients([`Age1${recipient.slice(4)}`]), 'recipients[0]', recipient, /malformed .*mixes upper and lower case/);
  // What age writes still works.
  assert.equal(age.identityToRecipient(identity), recipient);
});

it('recipients fourfold does not support are named, told from malformed ones, and never quoted', async () => {
  const cases: [string, RegExp][] = [
    [PQ_RECIPIENT, /^a malformed post-quantum recipient \(age1pq1\.\.\.\): its ML-KEM-768 key fails FIPS 203's check/],
    [corrupted(PQ_RECIPIENT), /^a malformed post-quantum recipient .*: its checksum does not verify/],
    [encoded('age1pq', 1184), /^a malformed post-quantum recipient \(age1pq1\.\.\.\): it holds 1184 bytes, not 1216$/],
    [encoded('age1tag', 32), /^a malformed tag recipient \(age1tag1\.\.\.\): it holds 32 bytes, not 33$/],
    [corrupted(encoded('age1tag', 33)), /^a malformed tag recipient \(age1tag1\.\.\.\): its checksum does not verify$/],
    [encoded('age1tagpq', 1248), /^a malformed post-quantum tag recipient \(age1tagpq1\.\.\.\): it holds 1248 bytes, not 1249$/],
    [encoded('age1yubikey', 33), /^a recipient of the plugin age-plugin-yubikey \(age1yubikey1\.\.\.\), which only the command runs \(fourfold age\)$/],
    [
      'ecdsa-sha2-nistp256 AAAAE2VjZHNh1XNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBA',
      /^an SSH public key of type ecdsa-sha2-nistp256: age uses ssh-ed25519 and ssh-rsa keys only$/,
    ],
    ['sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t', /^an SSH public key of type sk-ssh-ed25519@openssh\.com: age uses/],
    [corrupted(recipient), /^a malformed X25519 recipient \(age1\.\.\.\): its checksum does not verify/],
    [encoded('age', 20), /^a malformed X25519 recipient \(age1\.\.\.\): it holds 20 bytes, not 32$/],
    [`${recipient} `, /^a malformed X25519 recipient \(age1\.\.\.\): it has characters Bech32 does not use/],
    [identity, /^a secret key \(AGE-\.\.\.\), not a recipient/],
    ['hello', /^not an age recipient \(age1\.\.\.\) or SSH public key \(ssh-ed25519 AAAA\.\.\.\)$/],
  ];
  for (const [key, phrase] of cases) {
    await refused(toRecipients([recipient, key]), 'recipients[1]', key, new RegExp(`^recipients\\[1\\] is ${phrase.source.slice(1)}`));
  }
});

it('identities fourfold does not support are named, told from malformed ones, and never quoted', async () => {
  const cases: [string, RegExp][] = [
    [corrupted(PQ_IDENTITY), /^a malformed post-quantum identity .*: its checksum does not verify/],
    [encoded('AGE-SECRET-KEY-PQ-', 31).toUpperCase(), /^a malformed post-quantum identity \(AGE-SECRET-KEY-PQ-1\.\.\.\): it holds 31 bytes, not 32$/],
    [
      encoded('AGE-PLUGIN-YUBIKEY-', 20).toUpperCase(),
      /^an identity of the plugin age-plugin-yubikey \(AGE-PLUGIN-YUBIKEY-1\.\.\.\), which only the command runs \(fourfold age\)$/,
    ],
    [
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKqnSOMsvJzvvA7ezMrzpZ8X7v3sQ9ocz3mNmaUXOkfn alice@example',
      /^an SSH public key \(ssh-ed25519\), not an identity: decrypting takes its private key file's text \(id_ed25519, not id_ed25519\.pub\)$/,
    ],
    ['-----BEGIN PGP PRIVATE KEY BLOCK-----\n1abcdefghijk\n', /^a PEM block \(-----BEGIN PGP PRIVATE KEY BLOCK-----\), not an age key$/],
    [corrupted(identity), /^a malformed X25519 identity \(AGE-SECRET-KEY-1\.\.\.\): its checksum does not verify/],
    [recipient, /^a recipient \(age1\.\.\., a public key\), not an identity/],
    [
      'hello',
      /^not an age identity \(AGE-SECRET-KEY-1\.\.\., AGE-SECRET-KEY-PQ-1\.\.\., or an identity file of them\) or SSH private key \(-----BEGIN OPENSSH PRIVATE KEY-----\)$/,
    ],
  ];
  for (const [key, phrase] of cases) {
    await refused(fromIdentities([identity, key]), 'identities[1]', key, new RegExp(`^identities\\[1\\] is ${phrase.source.slice(1)}`));
    assert.throws(
      () => age.identityToRecipient(key),
      (e: unknown) => e instanceof RangeError && e.message.startsWith('identity is '),
    );
  }
});
