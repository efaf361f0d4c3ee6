/**
 * Argon2's PHC strings (src/argon2/phc.ts) from other implementations:
 * the reference's (its src/test.c) verify and its malformed ones are
 * refused; a string without v= is version 0x10; libsodium's
 * crypto_pwhash_str and hash-wasm's strings verify, and theirs accept
 * ours, both ways.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2Verify as hashWasmVerify, argon2d as hwArgon2d, argon2i as hwArgon2i, argon2id as hwArgon2id } from 'hash-wasm';
import { argon2dHash, argon2i, argon2idHash, argon2iHash, argon2Verify } from 'fourfold/argon2';
import { loadSodium, NO_SODIUM, rand, sumo } from '../helpers.js';
import { fieldsOf, NO_HASH_WASM, refused, type SodiumPwhash, toHexOf, unb64 } from './phc-common.js';

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
