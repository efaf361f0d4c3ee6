/**
 * Argon2's PHC strings (src/argon2/phc.ts): argon2idHash, argon2iHash and
 * argon2dHash write what argon2Verify reads, with the hash the core
 * computes; strings from the reference implementation (its src/test.c),
 * libsodium's crypto_pwhash_str and hash-wasm verify, and theirs accept
 * ours; a wrong password, a changed bit or a missing pepper gives false;
 * and every malformed string is refused, before any work, with an error
 * that names what is wrong. The B64 codec (src/argon2/phc-base64.ts)
 * against Buffer and @scure/base's strict decoder.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { base64nopad } from '@scure/base';
import { argon2Verify as hashWasmVerify, argon2d as hwArgon2d, argon2i as hwArgon2i, argon2id as hwArgon2id } from 'hash-wasm';
import { argon2d, argon2dHash, argon2i, argon2id, argon2idHash, argon2iHash, argon2Verify } from 'fourfold/argon2';
import { fromB64, toB64 } from '../internal.js';
import { ENGINE_COMPILES_WASM, loadSodium, NO_ABORT, NO_SODIUM, rand, type SodiumSumo, sumo } from '../helpers.js';

/** The sumo build's password-hash strings (helpers.ts's interface has the stream calls only). */
type SodiumPwhash = SodiumSumo & {
  crypto_pwhash_str(password: string | Uint8Array, opslimit: number, memlimit: number): string;
  crypto_pwhash_str_verify(hashed: string, password: string | Uint8Array): boolean;
};
const NO_HASH_WASM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: hash-wasm (the peer) compiles WebAssembly from bytes, which this engine lacks or refuses';

/** Standard base64 without padding, from Buffer (an encoder independent of the one under test). */
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64').replace(/=+$/, '');
const unb64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

/** The B64 alphabet, in the order of the values. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The hex of a B64 text's bytes. */
const toHexOf = (text: string): string => Buffer.from(unb64(text)).toString('hex');

/** A PHC string's five or six fields. */
const fieldsOf = (phc: string): string[] => phc.split('$');

/** Rejects with `type`, its message matching `message`. */
async function refused(call: Promise<unknown>, type: typeof TypeError | typeof RangeError, message: RegExp): Promise<void> {
  await assert.rejects(call, (e: unknown) => {
    assert.ok(e instanceof type, `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}, not a ${type.name}`);
    assert.match(e.message, message);
    return true;
  });
}

describe('argon2idHash, argon2iHash, argon2dHash', () => {
  it("argon2idHash's defaults: v=19, OWASP's m = 19456, t = 2, p = 1, a 16-byte random salt, a 32-byte hash", async () => {
    const phc = await argon2idHash('correct horse battery staple');
    const [empty, id, v, params, salt, hash] = fieldsOf(phc);
    assert.deepEqual([empty, id, v, params], ['', 'argon2id', 'v=19', 'm=19456,t=2,p=1']);
    assert.equal(unb64(salt!).length, 16);
    assert.equal(unb64(hash!).length, 32);
    assert.equal(await argon2Verify(phc, 'correct horse battery staple'), true);
  });

  it('each call draws a new salt', async () => {
    const a = await argon2idHash('pw', { m: 8, t: 1 });
    const b = await argon2idHash('pw', { m: 8, t: 1 });
    assert.notEqual(fieldsOf(a)[4], fieldsOf(b)[4]);
  });

  for (const [name, make, core] of [
    ['argon2id', argon2idHash, argon2id],
    ['argon2i', argon2iHash, argon2i],
    ['argon2d', argon2dHash, argon2d],
  ] as const) {
    it(`${name}: the string carries the parameters, the salt and the core's hash, and verifies`, async () => {
      const salt = rand(20);
      const password = rand(33);
      const opts = { t: 3, m: 64, p: 2, dkLen: 20 };
      const phc = await make(password, { ...opts, salt });
      const expected = core(password, salt, opts);
      assert.equal(phc, `$${name}$v=19$m=64,t=3,p=2$${b64(salt)}$${b64(expected)}`);
      assert.equal(await argon2Verify(phc, password), true);
      assert.equal(await argon2Verify(phc, password.slice(1)), false);
    });
  }

  it('a string password is its UTF-8 bytes, and a string salt too', async () => {
    const phc = await argon2idHash('pässwörd 🔑', { m: 16, t: 1, salt: 'saltsalt' });
    assert.equal(fieldsOf(phc)[4], b64(new TextEncoder().encode('saltsalt')));
    assert.equal(await argon2Verify(phc, new TextEncoder().encode('pässwörd 🔑')), true);
    assert.equal(await argon2Verify(phc, 'pässwörd 🔑'.normalize('NFD')), false);
  });

  it('a key (pepper) is not written in the string, and verifying needs it', async () => {
    const key = rand(32);
    const phc = await argon2idHash('pw', { m: 16, t: 1, key });
    assert.doesNotMatch(phc, new RegExp(b64(key).slice(0, 8).replace(/[+/]/g, '\\$&')));
    assert.equal(fieldsOf(phc).length, 6);
    assert.equal(await argon2Verify(phc, 'pw', { key }), true);
    assert.equal(await argon2Verify(phc, 'pw'), false);
    assert.equal(await argon2Verify(phc, 'pw', { key: key.slice(1) }), false);
    const unkeyed = await argon2idHash('pw', { m: 16, t: 1, salt: unb64(fieldsOf(phc)[4]!) });
    assert.notEqual(fieldsOf(unkeyed)[5], fieldsOf(phc)[5]);
  });

  it('reports progress, ending at 1', async () => {
    const seen: number[] = [];
    await argon2idHash('pw', { m: 256, t: 2, onProgress: (f) => seen.push(f) });
    assert.ok(seen.length >= 1);
    assert.equal(seen.at(-1), 1);
  });

  it('an aborted signal rejects with its reason', { skip: NO_ABORT }, async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await assert.rejects(argon2idHash('pw', { m: 16, t: 1, signal: controller.signal }), (e) => e === reason);
    const phc = await argon2idHash('pw', { m: 16, t: 1 });
    await assert.rejects(argon2Verify(phc, 'pw', { signal: controller.signal }), (e) => e === reason);
  });

  it('refuses wrong options before any work, naming them', async () => {
    await refused(argon2idHash('pw', { length: 32 } as never), TypeError, /unknown option 'length'/);
    await refused(argon2idHash('pw', { t: 0 }), RangeError, /^t must be from 1/);
    await refused(argon2idHash('pw', { t: '2' } as never), TypeError, /t must be a number/);
    await refused(argon2idHash('pw', { p: 2, m: 15 }), RangeError, /^m must be from 8 \* p = 16/);
    await refused(argon2idHash('pw', { p: 2 ** 24 }), RangeError, /^p must be from 1 to 2\^24 - 1/);
    await refused(argon2idHash('pw', { dkLen: 3 }), RangeError, /dkLen must be at least 4/);
    await refused(argon2idHash('pw', { salt: rand(7) }), RangeError, /salt must be at least 8 bytes/);
    await refused(argon2idHash('pw', { salt: [1, 2, 3, 4, 5, 6, 7, 8] } as never), TypeError, /salt must be a Uint8Array/);
    // 2^20 + 64 KiB is exactly the default maxmem, and allowed; 64 KiB more is not.
    await refused(
      argon2idHash(42 as never, { m: 2 ** 20 + 128 }),
      RangeError,
      /^argon2: m = 1048704 \(KiB\) needs 1073872896 bytes \(1\.0 GiB\), above maxmem \(1073807360 bytes/,
    );
    await refused(argon2idHash(42 as never, { m: 64, maxmem: 64 * 1024 - 1 }), RangeError, /needs 65536 bytes \(64\.0 KiB\), above maxmem \(65535 bytes/);
  });

  it('writes no string longer than argon2Verify reads (1024 characters): the longest verifies, one byte more is refused', async () => {
    // '$argon2id$v=19$m=8,t=1,p=1$' (27) + 22 for 16 bytes of salt + '$' + 974 for 730 bytes of hash.
    const phc = await argon2idHash('pw', { m: 8, t: 1, dkLen: 730 });
    assert.equal(phc.length, 1024);
    assert.equal(await argon2Verify(phc, 'pw'), true);
    await refused(argon2idHash('pw', { m: 8, t: 1, dkLen: 731 }), RangeError, /would be 1025 characters, above the 1024/);
  });
});

describe('argon2Verify: strings from other implementations', () => {
  /**
   * P-H-C/phc-winner-argon2's src/test.c: password "password", salt
   * "somesalt". The strings without v= are version 0x10 (its first
   * block); m = 256 keeps them quick, and one string at 64 MiB, the
   * test's first, shows a size that password databases use.
   */
  const REFERENCE = [
    '$argon2i$m=256,t=2,p=1$c29tZXNhbHQ$/U3YPXYsSb3q9XxHvc0MLxur+GP960kN9j7emXX8zwY',
    '$argon2i$m=256,t=2,p=2$c29tZXNhbHQ$tsEVYKap1h6scGt5ovl9aLRGOqOth+AMB+KwHpDFZPs',
    '$argon2i$v=19$m=256,t=2,p=1$c29tZXNhbHQ$iekCn0Y3spW+sCcFanM2xBT63UP2sghkUoHLIUpWRS8',
    '$argon2i$v=19$m=256,t=2,p=2$c29tZXNhbHQ$T/XOJ2mh1/TIpJHfCdQan76Q5esCFVoT5MAeIM1Oq2E',
    '$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4',
    '$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc',
    '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
  ];

  it("the reference's strings (src/test.c) verify with their password, and not with another", async () => {
    for (const phc of REFERENCE) {
      assert.equal(await argon2Verify(phc, 'password'), true, phc);
      if (!phc.includes('m=65536')) assert.equal(await argon2Verify(phc, 'passwore'), false, phc);
    }
  });

  it('a string without v= is version 0x10, as the reference reads it: v=16 is the same string, v=19 another hash', async () => {
    const v10 = REFERENCE[0]!;
    assert.equal(await argon2Verify(v10.replace('$m=', '$v=16$m='), 'password'), true);
    assert.equal(await argon2Verify(v10.replace('$m=', '$v=19$m='), 'password'), false);
    // The hash argon2i at 0x10 computes, as the reference's hex gives it.
    assert.equal(toHexOf(fieldsOf(v10)[4]!), 'fd4dd83d762c49bdeaf57c47bdcd0c2f1babf863fdeb490df63ede9975fccf06');
    assert.deepEqual(argon2i('password', 'somesalt', { t: 2, m: 256, version: 0x10 }), unb64(fieldsOf(v10)[4]!));
  });

  it('the reference\'s mismatch (the hash of "passwore") gives false', async () => {
    assert.equal(await argon2Verify('$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$8iIuixkI73Js3G1uMbezQXD0b8LG4SXGsOwoQkdAQIM', 'password'), false);
  });

  it("the reference's malformed strings (src/test.c's error tests) are refused", async () => {
    const missing1 = '$argon2i$v=19$m=65536,t=2,p=1c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA';
    const missing2 = '$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQwWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA';
    const noSalt = '$argon2i$v=19$m=65536,t=2,p=1$$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ';
    await refused(argon2Verify(missing1, 'password'), TypeError, /p must be a decimal number.*got '1c29tZXNhbHQ'/);
    await refused(argon2Verify(missing2, 'password'), TypeError, /no hash/);
    await refused(argon2Verify(noSalt, 'password'), TypeError, /empty salt/);
  });

  /** libsodium's crypto_pwhash_str (Argon2id, version 0x13), from libsodium-wrappers-sumo 0.8.4. */
  const LIBSODIUM: readonly (readonly [string, string])[] = [
    ['correct horse battery staple', '$argon2id$v=19$m=64,t=2,p=1$cv0oCF1sHXt2sy1jnxVHyQ$8StZYnUdYEEWWySxj4qCq6FDUjyJOt2tCKjrhAeqjag'],
    ['pässwörd 🔑', '$argon2id$v=19$m=128,t=3,p=1$S1sshGAoR8nLSK9UNiqzSQ$cqU3yBMoI5AvAJKVcBKx8QQmmscC+ifJK8g7yRLP2xU'],
    ['', '$argon2id$v=19$m=8,t=1,p=1$6fiTO6GLLyX02ZCxSbzHsg$HoP1r5Ot25Xe8y7CqeHrJ7qJSwN6PaApzd3DW7Qhlmg'],
  ];

  it("libsodium's crypto_pwhash_str strings verify", async () => {
    for (const [password, phc] of LIBSODIUM) {
      assert.equal(await argon2Verify(phc, password), true, phc);
      assert.equal(await argon2Verify(phc, `${password}.`), false, phc);
    }
  });

  describe('against libsodium, both ways', { skip: NO_SODIUM }, () => {
    let sodium: SodiumPwhash;
    before(async () => {
      await loadSodium();
      sodium = sumo() as SodiumPwhash;
    });

    it('crypto_pwhash_str strings verify here, and ours (p = 1 and 2) with crypto_pwhash_str_verify', async () => {
      for (const password of ['hunter2', 'pässwörd 🔑', '']) {
        const theirs = sodium.crypto_pwhash_str(password, 2, 64 * 1024);
        assert.equal(await argon2Verify(theirs, password), true, theirs);
        assert.equal(await argon2Verify(theirs, `${password}!`), false, theirs);
        for (const p of [1, 2]) {
          const ours = await argon2idHash(password, { m: 64, t: 2, p });
          assert.equal(sodium.crypto_pwhash_str_verify(ours, password), true, ours);
          assert.equal(sodium.crypto_pwhash_str_verify(ours, `${password}!`), false, ours);
        }
      }
    });
  });

  /** hash-wasm 4.13's argon2 with outputType 'encoded': p = 2 and a 24-byte hash; and with its `secret` (RFC 9106's K), the pepper. */
  const HASH_WASM = [
    '$argon2id$v=19$m=64,t=2,p=2$aGFzaC13YXNtIHNhbHQgMTY$AYH31ETYd82dqLVV1tA+iDnh1gQOP6we',
    '$argon2i$v=19$m=64,t=2,p=2$aGFzaC13YXNtIHNhbHQgMTY$QrKca++k3ux69PQ+2AdcOl7/8wvViZII',
    '$argon2d$v=19$m=64,t=2,p=2$aGFzaC13YXNtIHNhbHQgMTY$X3Bkywx0bNRo37WFoD46vrTmPu+eY1zd',
  ];
  const HASH_WASM_KEYED = [
    '$argon2id$v=19$m=32,t=3,p=1$aGFzaC13YXNtIHNhbHQgMTY$oGiPgmSTMqIHzmR0gLe4W3f0YGwuLRwVx90Yc/icUnc',
    '$argon2i$v=19$m=32,t=3,p=1$aGFzaC13YXNtIHNhbHQgMTY$rCYoFH1XPBt4PSIP8JTUFP/hCkUJ5WzbD2Aexm4BJXw',
    '$argon2d$v=19$m=32,t=3,p=1$aGFzaC13YXNtIHNhbHQgMTY$z4LWuHS4suAL8iF3qOvpX9IjSQzfZ6irASSR2HBcroU',
  ];

  it("hash-wasm's encoded strings verify, the keyed ones only with the key", async () => {
    for (const phc of HASH_WASM) {
      assert.equal(await argon2Verify(phc, 'hunter2'), true, phc);
      assert.equal(await argon2Verify(phc, 'hunter3'), false, phc);
    }
    for (const phc of HASH_WASM_KEYED) {
      assert.equal(await argon2Verify(phc, 'hunter2', { key: 'pepper' }), true, phc);
      assert.equal(await argon2Verify(phc, 'hunter2'), false, phc);
    }
  });

  it('against hash-wasm, both ways, for the three variants', { skip: NO_HASH_WASM }, async () => {
    const salt = rand(16);
    for (const [make, theirs] of [
      [argon2idHash, hwArgon2id],
      [argon2iHash, hwArgon2i],
      [argon2dHash, hwArgon2d],
    ] as const) {
      const encoded = await theirs({ password: 'hunter2', salt, parallelism: 3, iterations: 2, memorySize: 48, hashLength: 40, outputType: 'encoded' });
      assert.equal(await argon2Verify(encoded, 'hunter2'), true, encoded);
      const ours = await make('hunter2', { m: 48, t: 2, p: 3, dkLen: 40, salt });
      assert.equal(ours, encoded);
      assert.equal(await hashWasmVerify({ password: 'hunter2', hash: ours }), true);
      assert.equal(await hashWasmVerify({ password: 'hunter3', hash: ours }), false);
    }
  });
});

describe('argon2Verify: wrong passwords and changed strings give false', () => {
  it('a one-bit change anywhere in the hash gives false', async () => {
    const phc = await argon2idHash('pw', { m: 16, t: 1, dkLen: 16 });
    const fields = fieldsOf(phc);
    const hash = unb64(fields[5]!);
    for (let bit = 0; bit < hash.length * 8; bit += 5) {
      const changed = hash.slice();
      changed[bit >> 3]! ^= 1 << (bit & 7);
      assert.equal(await argon2Verify([...fields.slice(0, 5), b64(changed)].join('$'), 'pw'), false, `bit ${bit}`);
    }
    assert.equal(await argon2Verify(phc, 'pw'), true);
  });

  it('a change of the parameters, the salt or the variant gives false', async () => {
    const phc = await argon2idHash('pw', { m: 16, t: 2, salt: 'saltsaltsalt' });
    assert.equal(await argon2Verify(phc, 'pw'), true);
    for (const changed of [
      phc.replace('m=16', 'm=24'),
      phc.replace('t=2', 't=3'),
      phc.replace('p=1', 'p=2'),
      phc.replace('$argon2id$', '$argon2i$'),
      phc.replace('$argon2id$', '$argon2d$'),
      phc.replace(fieldsOf(phc)[4]!, b64(new TextEncoder().encode('saltsaltsalu'))),
    ]) {
      assert.equal(await argon2Verify(changed, 'pw'), false, changed);
    }
  });

  it('the hash is compared at its own length: a shortened one is recomputed at that length, a lengthened one fails', async () => {
    const phc = await argon2idHash('pw', { m: 16, t: 1, dkLen: 24 });
    const fields = fieldsOf(phc);
    const hash = unb64(fields[5]!);
    // Argon2's H' makes a tag of each length anew: the first 12 bytes of a 24-byte tag are not the 12-byte tag.
    assert.equal(await argon2Verify([...fields.slice(0, 5), b64(hash.subarray(0, 12))].join('$'), 'pw'), false);
    assert.equal(await argon2Verify([...fields.slice(0, 5), b64(new Uint8Array([...hash, 0]))].join('$'), 'pw'), false);
  });
});

describe('argon2Verify: malformed strings are refused, naming what is wrong', () => {
  /** A valid string (password "pw") to break, field by field. */
  const SALT = 'c29tZXNhbHQ';
  let good = '';
  let hash = '';
  before(async () => {
    good = await argon2idHash('pw', { m: 16, t: 1, salt: 'somesalt' });
    hash = fieldsOf(good)[5]!;
    assert.equal(fieldsOf(good)[4], SALT);
  });
  const make = (params = 'm=16,t=1,p=1', salt = SALT, h = hash, head = '$argon2id$v=19') => `${head}$${params}$${salt}$${h}`;

  it('the string as built verifies (the cases below break one thing each)', async () => {
    assert.equal(make(), good);
    assert.equal(await argon2Verify(make(), 'pw'), true);
  });

  it('not a string, or too long', async () => {
    await refused(argon2Verify(42 as never, 'pw'), TypeError, /must be a string, got number/);
    await refused(argon2Verify(new TextEncoder().encode(good) as never, 'pw'), TypeError, /must be a string, got Uint8Array/);
    await refused(argon2Verify(`${good}${'A'.repeat(1025 - good.length)}`, 'pw'), RangeError, /at most 1024 characters, got 1025/);
  });

  it('missing fields', async () => {
    await refused(argon2Verify('', 'pw'), TypeError, /starts with '\$'/);
    await refused(argon2Verify('argon2id$v=19$m=16,t=1,p=1$c29tZXNhbHQ$aaaa', 'pw'), TypeError, /starts with '\$'/);
    await refused(argon2Verify('$argon2id', 'pw'), TypeError, /no parameters/);
    await refused(argon2Verify('$argon2id$v=19', 'pw'), TypeError, /no parameters/);
    await refused(argon2Verify('$argon2id$v=19$m=16,t=1,p=1', 'pw'), TypeError, /no salt/);
    await refused(argon2Verify(`$argon2id$v=19$m=16,t=1,p=1$${SALT}`, 'pw'), TypeError, /no hash/);
    await refused(argon2Verify(`$argon2id$v=19$m=16,t=1,p=1$${SALT}$`, 'pw'), TypeError, /empty hash/);
    await refused(argon2Verify(`$argon2id$m=16,t=1,p=1$${hash}`, 'pw'), TypeError, /no hash/);
  });

  it('an unknown algorithm', async () => {
    for (const id of ['argon2x', 'argon2ID', 'argon2', 'scrypt', 'argon2id ', '']) {
      await refused(argon2Verify(make(undefined, undefined, undefined, `$${id}$v=19`), 'pw'), TypeError, /algorithm must be argon2id, argon2i or argon2d/);
    }
  });

  it('a version other than 19 or 16, or written otherwise', async () => {
    await refused(argon2Verify(make(undefined, undefined, undefined, '$argon2id$v=18'), 'pw'), RangeError, /v=19 \(0x13\) or v=16/);
    await refused(argon2Verify(make(undefined, undefined, undefined, '$argon2id$v=20'), 'pw'), RangeError, /got v=20/);
    await refused(argon2Verify(make(undefined, undefined, undefined, '$argon2id$v=019'), 'pw'), TypeError, /v must be a decimal number/);
    await refused(argon2Verify(make(undefined, undefined, undefined, '$argon2id$v=0x13'), 'pw'), TypeError, /v must be a decimal number/);
    await refused(argon2Verify(make(undefined, undefined, undefined, '$argon2id$V=19'), 'pw'), TypeError, /unknown parameter 'V'/);
  });

  it('numbers not in canonical decimal: a leading zero, a sign, a space, a fraction, an exponent, too many digits', async () => {
    for (const params of [
      'm=016,t=1,p=1',
      'm=16,t=01,p=1',
      'm=16,t=1,p=01',
      'm=+16,t=1,p=1',
      'm=16,t=-1,p=1',
      'm= 16,t=1,p=1',
      'm=16.0,t=1,p=1',
      'm=1e2,t=1,p=1',
      'm=,t=1,p=1',
      'm=16,t=1,p=00',
      'm=04294967295,t=1,p=1',
      'm=16,t=99999999999,p=1',
    ]) {
      await refused(argon2Verify(make(params), 'pw'), TypeError, /must be a decimal number without sign or leading zero/);
    }
  });

  it('numbers out of range: above 2^32 - 1, t or p of 0, p above 2^24 - 1, m below 8p', async () => {
    await refused(argon2Verify(make('m=16,t=4294967296,p=1'), 'pw'), RangeError, /t must be at most 2\^32 - 1/);
    await refused(argon2Verify(make('m=16,t=0,p=1'), 'pw'), RangeError, /t must be from 1/);
    await refused(argon2Verify(make('m=16,t=1,p=0'), 'pw'), RangeError, /p must be from 1/);
    await refused(argon2Verify(make('m=4294967295,t=1,p=16777216'), 'pw'), RangeError, /p must be from 1 to 2\^24 - 1/);
    await refused(argon2Verify(make('m=15,t=1,p=2'), 'pw'), RangeError, /m must be from 8 \* p = 16/);
    await refused(argon2Verify(make('m=0,t=1,p=1'), 'pw'), RangeError, /m must be from 8 \* p = 8/);
  });

  it('parameters in any order verify (node-argon2 writes m,p,t); each once', async () => {
    for (const params of ['t=1,m=16,p=1', 'p=1,m=16,t=1', 'm=16,p=1,t=1', 'p=1,t=1,m=16']) assert.equal(await argon2Verify(make(params), 'pw'), true, params);
    assert.equal(await argon2Verify(make('m=16,p=1,t=1'), 'pv'), false);
  });

  it('parameters missing, repeated, unknown or not name=value', async () => {
    await refused(argon2Verify(make('m=16,t=1'), 'pw'), TypeError, /has no p= parameter/);
    await refused(argon2Verify(make('m=16,p=1'), 'pw'), TypeError, /has no t= parameter/);
    await refused(argon2Verify(make('t=1,p=1'), 'pw'), TypeError, /has no m= parameter/);
    await refused(argon2Verify(make('m=16,t=1,p=1,p=1'), 'pw'), TypeError, /gives its p= parameter twice/);
    await refused(argon2Verify(make('m=16,t=1,t=1,p=1'), 'pw'), TypeError, /gives its t= parameter twice/);
    await refused(argon2Verify(make('m=16,t=1,p=1,data=,data='), 'pw'), TypeError, /gives its data= parameter twice/);
    await refused(argon2Verify(make('m=16,t=1,p=1,x=2'), 'pw'), TypeError, /unknown parameter 'x'/);
    await refused(argon2Verify(make('m=16,t=1,p=1,M=16'), 'pw'), TypeError, /unknown parameter 'M'/);
    for (const params of ['m=16;t=1;p=1', 'm=16,t=1,p=1,', 'm=16,t=1=1,p=1', 'm=16,t,p=1', ',m=16,t=1,p=1']) {
      await refused(argon2Verify(make(params), 'pw'), TypeError, /parameters must be m=<m>,t=<t>,p=<p>, in any order/);
    }
  });

  it('keyid= and data= are read: data= is the associated data the hash depends on, keyid= needs the key', async () => {
    const ad = new TextEncoder().encode('associated');
    const tag = argon2id('pw', 'somesalt', { t: 1, m: 16, dkLen: 32, personalization: ad });
    const withData = make(`m=16,t=1,p=1,data=${b64(ad)}`, undefined, b64(tag));
    assert.equal(await argon2Verify(withData, 'pw'), true);
    assert.equal(await argon2Verify(withData, 'pv'), false);
    // Without data= (or with other data) the same hash is another hash.
    assert.equal(await argon2Verify(make(undefined, undefined, b64(tag)), 'pw'), false);
    assert.equal(await argon2Verify(make(`m=16,t=1,p=1,data=${b64(ad.subarray(1))}`, undefined, b64(tag)), 'pw'), false);
    // Empty values are the defaults (no data, no key), as the format's Argon2 section says.
    assert.equal(await argon2Verify(make('m=16,t=1,p=1,keyid=,data='), 'pw'), true);
    const key = rand(32);
    const keyed = await argon2idHash('pw', { m: 16, t: 1, key, salt: 'somesalt' });
    const withKeyid = make('m=16,t=1,p=1,keyid=AAECAw', undefined, fieldsOf(keyed)[5]);
    assert.equal(await argon2Verify(withKeyid, 'pw', { key }), true);
    assert.equal(await argon2Verify(withKeyid, 'pw', { key: rand(32) }), false);
    await refused(argon2Verify(withKeyid, 'pw'), TypeError, /made with a key \(keyid=AAECAw\): pass that key as opts\.key/);
    await refused(argon2Verify(make('m=16,t=1,p=1,keyid=A'), 'pw'), TypeError, /keyid is not base64/);
    await refused(argon2Verify(make('m=16,t=1,p=1,data=AB'), 'pw'), TypeError, /data is not canonical base64/);
  });

  it('memory above maxmem is refused before any work (the password is not looked at); maxmem sets the bound', async () => {
    const huge = make('m=4294967295,t=1,p=1');
    await refused(
      argon2Verify(huge, 42 as never),
      RangeError,
      /PHC string's m = 4294967295 \(KiB\) needs 4398046507008 bytes \(4096\.0 GiB\), above maxmem \(1073807360 bytes \(1\.0 GiB\)\)/,
    );
    // 2^20 + 64 KiB is exactly the default maxmem, and allowed; 64 KiB more is not.
    await refused(argon2Verify(make('m=1048704,t=1,p=1'), 42 as never), RangeError, /m = 1048704 \(KiB\) needs 1073872896 bytes/);
    await refused(argon2Verify(good, 'pw', { maxmem: 16 * 1024 - 1 }), RangeError, /needs 16384 bytes \(16\.0 KiB\), above maxmem \(16383 bytes/);
    assert.equal(await argon2Verify(good, 'pw', { maxmem: 16 * 1024 }), true);
    // m' = 4p * floor(m / 4p): m = 19 with p = 1 uses 16 blocks.
    assert.equal(await argon2Verify(make('m=19,t=1,p=1'), 'pw', { maxmem: 16 * 1024 }), false);
  });

  it('salt and hash not in canonical base64 without padding', async () => {
    const bad = [
      `${hash.slice(0, -1)}!`,
      `${hash}=`,
      `${hash.slice(0, 20)} ${hash.slice(21)}`,
      `${hash}\n`,
      hash.replace(/[A-Za-z0-9]/, '-'),
      hash.replace(/[A-Za-z0-9]/, '_'),
      hash.replace(/[A-Za-z0-9]/, 'é'),
      // 45 characters: 4k + 1 is no whole number of bytes.
      `${hash}AA`,
    ];
    // A 32-byte hash is 43 characters, whose last holds 2 unused bits: any that is set makes another spelling of the same bytes.
    const last = ALPHABET.indexOf(hash.at(-1)!);
    for (const unused of [1, 2, 3]) bad.push(hash.slice(0, -1) + ALPHABET[last | unused]);
    for (const h of bad) await refused(argon2Verify(make(undefined, undefined, h), 'pw'), TypeError, /hash is not (canonical )?base64/);
    await refused(argon2Verify(make(undefined, 'c29tZXNhbHR'), 'pw'), TypeError, /salt is not canonical base64/);
    await refused(argon2Verify(make(undefined, 'c29tZXNhbHQ='), 'pw'), TypeError, /salt is not canonical base64/);
  });

  it('a salt below 8 bytes, a hash below 4', async () => {
    await refused(argon2Verify(make(undefined, b64(rand(7))), 'pw'), RangeError, /salt must be at least 8 bytes.*got 7/);
    await refused(argon2Verify(make(undefined, undefined, b64(rand(3))), 'pw'), RangeError, /hash must be at least 4 bytes.*got 3/);
  });

  it('more after the hash', async () => {
    await refused(argon2Verify(`${good}$`, 'pw'), TypeError, /more after its hash/);
    await refused(argon2Verify(`${good}$AAAA`, 'pw'), TypeError, /more after its hash/);
    await refused(argon2Verify(`${good}!`, 'pw'), TypeError, /hash is not canonical base64/);
  });

  it('wrong options', async () => {
    await refused(argon2Verify(good, 'pw', { salt: 'x' } as never), TypeError, /unknown option 'salt'/);
    await refused(argon2Verify(good, 'pw', { maxmem: -1 }), RangeError, /maxmem must be a non-negative integer/);
  });
});

describe('the B64 codec (phc-base64.ts)', () => {
  it("encodes as Buffer's base64 without padding, and decodes back, at every length to 64", () => {
    for (let n = 0; n <= 64; n++) {
      const bytes = rand(n);
      assert.equal(toB64(bytes), b64(bytes), `${n} bytes`);
      assert.deepEqual(fromB64(b64(bytes), 'x'), bytes);
    }
    // Every character, in order: the 48 bytes whose 6-bit groups count from 0 to 63.
    assert.equal(toB64(unb64(ALPHABET)), ALPHABET);
    assert.deepEqual(fromB64(ALPHABET, 'x'), unb64(ALPHABET));
  });

  it("accepts exactly what @scure/base's base64nopad accepts, with the same bytes", () => {
    // Mostly the alphabet, with a character from elsewhere about once in 16.
    const junk = '=-_ \n.$\u00e9\u0000\u0141@[`{:';
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const text = [...rand(i % 9)].map((b) => (b < 16 ? junk[b] : ALPHABET[b & 63])).join('');
      let scure: Uint8Array | undefined;
      try {
        scure = base64nopad.decode(text);
      } catch {
        scure = undefined;
      }
      let ours: Uint8Array | undefined;
      try {
        ours = fromB64(text, 'x');
      } catch (e) {
        assert.ok(e instanceof TypeError);
        ours = undefined;
      }
      assert.deepEqual(ours, scure, JSON.stringify(text));
      if (ours !== undefined) accepted++;
    }
    assert.ok(accepted > 500 && accepted < 3500, `${accepted} of 4000 accepted`);
  });
});
