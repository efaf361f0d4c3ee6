/**
 * fourfold/age's files, both tiers: round trips at every size that
 * matters (0, 1, a chunk -1, +0, +1, a run of 16 chunks and around it,
 * several runs), binary and armored, to recipients and passphrases; the
 * format as the specification writes it (the header's lines, the nonce,
 * the chunks' lengths); keys as the specification's example has them; and
 * every byte of a file's header and payload changed in turn, which must
 * fail (and never decrypt to other bytes), with the error that names the
 * part changed.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import * as age from 'fourfold/age';
import { age as parallelAge } from 'fourfold/parallel';
import { assertBytes, forEachTier, loadJson, rand } from '../helpers.js';
import { ArmorEncoder } from '../internal.js';

const CHUNK = 65536;
const SEALED = CHUNK + 16;
const SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 16 * CHUNK - 1, 16 * CHUNK, 16 * CHUNK + 1, 33 * CHUNK + 5];

it('where the platform has no WebCrypto (Hermes), a tag recipient is a RangeError that says so, before any output', {
  skip: globalThis.crypto?.subtle !== undefined && 'not applicable: this engine has WebCrypto (test/age/tag.test.ts encrypts to tag recipients)',
}, async () => {
  const { classic } = loadJson<{ classic: string }>('vectors/age-tagtest.json');
  const why = /^RangeError: tag recipients need the platform's WebCrypto \(ECDH P-256\), which this engine lacks/;
  await assert.rejects(age.encrypt(rand(1), { recipients: [classic] }), why);
  await assert.rejects(parallelAge.encrypt(rand(1), { recipients: [classic] }), why);
});

it("keys: the specification's example identity gives its recipient; generated identities round-trip and differ", () => {
  assert.equal(
    age.identityToRecipient('AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX'),
    'age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj',
  );
  const a = age.generateIdentity();
  const b = age.generateIdentity();
  assert.match(a, /^AGE-SECRET-KEY-1[023456789ACDEFGHJKLMNPQRSTUVWXYZ]{58}$/);
  assert.notEqual(a, b);
  assert.match(age.identityToRecipient(a), /^age1[023456789acdefghjklmnpqrstuvwxyz]{58}$/);
  for (const bad of [
    '',
    'AGE-SECRET-KEY-1',
    a.toLowerCase().replace('age-secret-key-1', 'age1'),
    `${a.slice(0, -1)}${a.endsWith('Q') ? 'P' : 'Q'}`,
    'age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj',
  ]) {
    assert.throws(() => age.identityToRecipient(bad), RangeError, bad);
  }
  assert.throws(() => age.identityToRecipient(42 as never), TypeError);
});

forEachTier('age files', () => {
  const id = age.generateIdentity();
  const recipient = age.identityToRecipient(id);

  it("round trips at every size that matters, binary and armored, and the layout is the specification's", async () => {
    for (const size of SIZES) {
      const data = rand(size);
      const file = await age.encrypt(data, { recipients: [recipient] });
      const text = new TextDecoder().decode(file.subarray(0, 200));
      assert.match(text, /^age-encryption\.org\/v1\n-> X25519 [A-Za-z0-9+/]{43}\n[A-Za-z0-9+/]{43}\n--- [A-Za-z0-9+/]{43}\n/, `${size}: the header`);
      const header = text.indexOf('\n', text.indexOf('--- ')) + 1;
      const chunks = Math.max(1, Math.ceil(size / CHUNK));
      assert.equal(file.length, header + 16 + size + 16 * chunks, `${size}: header, nonce, and 16 bytes of tag a chunk`);
      assertBytes(await age.decrypt(file, { identities: [id] }), data, `${size}`);
      const armored = await age.encrypt(data, { recipients: [recipient] }, { armor: true });
      const lines = new TextDecoder().decode(armored).split('\n');
      assert.equal(lines[0], '-----BEGIN AGE ENCRYPTED FILE-----');
      assert.equal(lines[lines.length - 2], '-----END AGE ENCRYPTED FILE-----');
      assert.ok(
        lines.slice(1, -3).every((l) => l.length === 64),
        'full lines of 64 columns',
      );
      assertBytes(await age.decrypt(armored, { identities: [id] }), data, `${size} armored`);
    }
  });

  it('several recipients, any of whose identities decrypts; identities that match none, in several orders', async () => {
    const others = [age.generateIdentity(), age.generateIdentity()];
    const data = rand(1000);
    const file = await age.encrypt(data, { recipients: [...others.map((o) => age.identityToRecipient(o)), recipient] });
    for (const identities of [[id], [others[0]!], [others[1]!, id], [age.generateIdentity(), others[1]!]]) {
      assertBytes(await age.decrypt(file, { identities }), data);
    }
    await assert.rejects(age.decrypt(file, { identities: [age.generateIdentity()] }), age.NoIdentityMatchError);
  });

  it('passphrases: a round trip at work factors 1 and 10; a wrong one, identities for it, or a passphrase for an X25519 file fail with NoIdentityMatchError', async () => {
    for (const workFactor of [1, 10]) {
      const data = rand(3 * CHUNK + 7);
      const file = await age.encrypt(data, { passphrase: 'correct horse', workFactor });
      assert.match(new TextDecoder().decode(file.subarray(0, 100)), new RegExp(`^age-encryption\\.org/v1\\n-> scrypt [A-Za-z0-9+/]{22} ${workFactor}\\n`));
      assertBytes(await age.decrypt(file, { passphrase: 'correct horse' }), data);
      assertBytes(await age.decrypt(file, { passphrase: new TextEncoder().encode('correct horse') }), data, 'the passphrase as bytes');
      await assert.rejects(
        age.decrypt(file, { passphrase: 'correct horsf' }),
        (e) => e instanceof age.NoIdentityMatchError && /wrong passphrase/.test(e.message),
      );
      await assert.rejects(age.decrypt(file, { identities: [id] }), (e) => e instanceof age.NoIdentityMatchError && /passphrase/.test(e.message));
    }
    const x25519File = await age.encrypt(rand(10), { recipients: [recipient] });
    await assert.rejects(age.decrypt(x25519File, { passphrase: 'anything' }), (e) => e instanceof age.NoIdentityMatchError && /identity/.test(e.message));
  });

  it("a work factor above the decrypter's bound is refused before any scrypt, naming both", async () => {
    const file = await age.encrypt(rand(10), { passphrase: 'pw', workFactor: 12 });
    await assert.rejects(
      age.decrypt(file, { passphrase: 'pw', maxWorkFactor: 11 }),
      (e) => e instanceof age.AgeFormatError && /work factor 12/.test(e.message) && /11/.test(e.message),
    );
    assertBytes(await age.decrypt(file, { passphrase: 'pw', maxWorkFactor: 12 }), await age.decrypt(file, { passphrase: 'pw' }));
  });

  it('every byte of the header changed in turn fails (AgeFormatError, NoIdentityMatchError or AuthenticationError), and none decrypts', async () => {
    const data = rand(100);
    const file = await age.encrypt(data, { recipients: [recipient] });
    const headerEnd = new TextDecoder().decode(file).indexOf('\n', new TextDecoder().decode(file).indexOf('--- ')) + 1;
    for (let i = 0; i < headerEnd + 16; i++) {
      for (const bit of [0x01, 0x20, 0x80]) {
        const bad = file.slice();
        bad[i]! ^= bit;
        await assert.rejects(
          age.decrypt(bad, { identities: [id] }),
          (e) => e instanceof age.AgeFormatError || e instanceof AuthenticationError,
          `byte ${i} ^ ${bit}`,
        );
      }
    }
  });

  it('payloads changed, cut short, extended or reordered fail with AuthenticationError saying which', async () => {
    const data = rand(3 * CHUNK + 100);
    const file = await age.encrypt(data, { recipients: [recipient] });
    const payload = file.length - (3 * SEALED + 116);
    const cases: [string, Uint8Array, RegExp][] = [
      ['a tag changed', flip(file, file.length - 1), /does not verify/],
      ['a chunk changed', flip(file, payload + SEALED + 10), /chunk 1 .*does not verify/],
      ['cut at a chunk boundary', file.subarray(0, payload + 3 * SEALED), /cut short/],
      ['cut inside the last chunk', file.subarray(0, file.length - 50), /does not verify|not marked final/],
      ['cut to the nonce', file.subarray(0, payload), /cut short/],
      ['one byte more', concat(file, new Uint8Array([0])), /does not verify|goes on|cut short/],
      ['a whole chunk more', concat(file, file.subarray(payload, payload + SEALED)), /goes on after its final chunk|does not verify/],
      ['two chunks swapped', swap(file, payload, SEALED), /chunk 0 .*does not verify/],
    ];
    for (const [what, bad, message] of cases) {
      await assert.rejects(age.decrypt(bad, { identities: [id] }), (e) => e instanceof AuthenticationError && message.test(e.message), what);
    }
    await assert.rejects(age.decrypt(file.subarray(0, payload - 3), { identities: [id] }), age.AgeFormatError, 'cut inside the nonce');
  });

  it('an armored file that fails fails as its binary form does, with the same error, one-shot on this thread and on every core', async () => {
    const data = rand(3 * CHUNK + 100);
    const file = await age.encrypt(data, { recipients: [recipient] });
    const payload = file.length - (3 * SEALED + 116);
    const armored = (bytes: Uint8Array) => {
      const armor = new ArmorEncoder();
      return concat(armor.write(bytes), armor.end());
    };
    const cases: [string, Uint8Array][] = [
      ['a header byte changed', flip(file, 30)],
      ['the MAC changed', flip(file, payload - 20)],
      ['cut inside the header', file.subarray(0, 40)],
      ['cut inside the nonce', file.subarray(0, payload - 3)],
      ['cut to the nonce', file.subarray(0, payload)],
      ['a chunk changed', flip(file, payload + SEALED + 10)],
      ['the last tag changed', flip(file, file.length - 1)],
      ['cut at a chunk boundary', file.subarray(0, payload + 3 * SEALED)],
      ['cut inside the last chunk', file.subarray(0, file.length - 50)],
      ['a whole chunk more', concat(file, file.subarray(payload, payload + SEALED))],
      ['empty', new Uint8Array(0)],
    ];
    const failure = (call: Promise<Uint8Array>) =>
      call.then(
        () => 'decrypted',
        (e: Error) => `${e.constructor.name}: ${e.message}`,
      );
    for (const [what, bad] of cases) {
      const binary = await failure(age.decrypt(bad, { identities: [id] }));
      assert.notEqual(binary, 'decrypted', what);
      for (const [how, decrypt] of [
        ['fourfold/age', age.decrypt],
        ['fourfold/parallel', parallelAge.decrypt],
      ] as const) {
        assert.equal(await failure(decrypt(armored(bad), { identities: [id] })), binary, `${what}, armored, ${how}`);
      }
    }
  });

  it('what is not an age file says so: empty, text, another PEM block, a cut header', async () => {
    const from = { identities: [id] };
    for (const [bytes, message] of [
      [new Uint8Array(0), /empty/],
      [new TextEncoder().encode('hello world\n'), /not an age file/],
      [new TextEncoder().encode('-----BEGIN PGP MESSAGE-----\nabc\n'), /invalid armor/],
      [new TextEncoder().encode('age-encryption.org/v1\n-> X25519 abc\n'), /ends inside its header/],
      [new TextEncoder().encode('age-encryption.org/v2\n'), /version/],
    ] as const) {
      await assert.rejects(age.decrypt(bytes, from), (e) => e instanceof age.AgeFormatError && message.test(e.message), String(message));
    }
  });
});

function flip(file: Uint8Array, at: number): Uint8Array {
  const bad = file.slice();
  bad[at]! ^= 1;
  return bad;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** `file` with its payload's first two chunks (at `payload`, `size` bytes each) swapped. */
function swap(file: Uint8Array, payload: number, size: number): Uint8Array {
  const bad = file.slice();
  bad.set(file.subarray(payload + size, payload + 2 * size), payload);
  bad.set(file.subarray(payload, payload + size), payload + size);
  return bad;
}
