/**
 * The stored hashes a server holds (src/argon2/phc.ts): argon2Verify
 * answers true or false for strings node-argon2 and @node-rs/argon2 wrote
 * (recorded here; test/argon2/peer-hashes.test.ts makes them afresh in
 * Node); it refuses arguments that look swapped (the password first) with
 * a TypeError that says so, and, before any work, a string that asks for
 * more than its bounds; needsRehash says which strings are not what
 * argon2idHash writes today. bcrypt's strings are bcrypt-strings and
 * bcrypt-passwords.test.ts's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { argon2idHash, argon2Verify, needsRehash } from 'fourfold/argon2';
import { NO_ABORT, rand } from '../helpers.js';
import { aborted, b64, refused } from './phc-common.js';

describe('argon2Verify: strings from node-argon2 and @node-rs/argon2', () => {
  /** [who wrote it and how, password, string, verify's options]: made with node-argon2 0.45.1 and @node-rs/argon2 2.2.1. */
  const STRINGS: readonly (readonly [string, string, string, { key?: string }?])[] = [
    [
      'node-argon2 defaults (argon2id, m=65536, p=4, t=3)',
      'correct horse battery staple',
      '$argon2id$v=19$m=65536,p=4,t=3$Ld6aHlq4z4EoC7NDt259qA$BrFePIxv++lGiz7f5qjwtky3vpl6MQWYHwtnuRtZ7/k',
    ],
    ['node-argon2 argon2i, parallelism 4, hashLength 16', 'hunter2', '$argon2i$v=19$m=64,p=4,t=2$J8Z4duJfayyzIWapMRX6ww$FJXyxN3IgqXRVjrNq59xVw'],
    [
      'node-argon2 argon2d, associatedData, hashLength 64',
      'pässwörd 🔑',
      '$argon2d$v=19$m=32,p=2,t=3,data=dGVuYW50IDQy$iomGUPJKFK1O0MbkoCR+Kg$HdFKPkMuuFqtGDn3//7/GT6SULbGnFU8SCzhdiwnl1VGrUFC5Q1XIYFcvLjfelpMp7qzRySORL9xeo78vWB3Qw',
    ],
    ['node-argon2 argon2id, an 8-byte salt, version 0x10', '', '$argon2id$v=16$m=16,p=1,t=1$OCBieXRlcyE$cbNPBihIWNfaF0RoN4b1iRbi9G1UUqjeGQqO518hD6c'],
    [
      "node-argon2 argon2id, a 32-byte salt, secret 'pepper'",
      'hunter2',
      '$argon2id$v=19$m=16,p=1,t=2$BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc$VUZFLFmKZXhQMTZZtDVw8SPY18Q2U/X0JAGILgQQbKs',
      { key: 'pepper' },
    ],
    [
      '@node-rs/argon2 defaults (argon2id, m=19456, t=2, p=1)',
      'correct horse battery staple',
      '$argon2id$v=19$m=19456,t=2,p=1$fjjlE6QD2X9oRkdtzMs8zA$wViPTnYM1bqSUuwj7DcsrjQjQMbkfn1RZxDSZLDPY50',
    ],
    ['@node-rs/argon2 argon2i, version 0x10', 'hunter2', '$argon2i$v=16$m=64,t=2,p=2$JKIrrbRM25GvOMG/KNDJ8w$OkhIvqFha75ClPXk+LQXFTnugQ2yQ8IM7IWb/eEeXEY'],
    ['@node-rs/argon2 argon2d, outputLen 20', 'hunter2', '$argon2d$v=19$m=64,t=1,p=1$AJauWus8wicm9dqsQ3+RsA$dEMU3I5OUSIvNEWBqRwlpogYR8o'],
    [
      "@node-rs/argon2 argon2id, secret 'pepper'",
      'hunter2',
      '$argon2id$v=19$m=32,t=1,p=1$x0OOA3saPGMBLAjLg0Meog$ioGIjJeesdFuAwt6GXVQYeqOi9MY0E35Lh2xdQu4rwI',
      { key: 'pepper' },
    ],
  ];

  for (const [label, password, phc, opts] of STRINGS) {
    it(`${label}: true for its password, false for another`, async () => {
      assert.equal(await argon2Verify(phc, password, opts), true);
      assert.equal(await argon2Verify(phc, `${password}!`, opts), false);
      if (opts?.key !== undefined) assert.equal(await argon2Verify(phc, password), false, 'without the secret');
    });
  }
});

describe('arguments given the other way round (the password first, as bcrypt.compare takes them)', () => {
  const SWAPPED = /^the arguments look swapped: argon2Verify\(stored, password\) takes the stored hash first, then the password/;

  it('a TypeError that says they look swapped, for an Argon2 PHC string and a bcrypt string, quoting neither', async () => {
    const phc = await argon2idHash('$ecret', { m: 8, t: 1 });
    const bcryptString = bcrypt.hashSync('$ecret', 4);
    for (const stored of [phc, bcryptString, phc.replace('$argon2id$', '$argon2i$'), bcryptString.replace('$2b$', '$2y$')]) {
      for (const password of ['hunter2', '$ecret', '', new TextEncoder().encode('hunter2')]) {
        await assert.rejects(argon2Verify(password as string, stored), (e: unknown) => {
          assert.ok(e instanceof TypeError, `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
          assert.match(e.message, SWAPPED);
          assert.ok(!e.message.includes('ecret') && !e.message.includes('hunter2'), e.message);
          return true;
        });
      }
    }
    assert.equal(await argon2Verify(phc, '$ecret'), true, 'the right way round');
    assert.equal(await argon2Verify(bcryptString, '$ecret'), true, 'the right way round');
  });

  it('not when the stored hash starts as one (a malformed one names what is wrong), nor when the password does not', async () => {
    const phc = await argon2idHash('pw', { m: 8, t: 1 });
    await refused(argon2Verify('$argon2id$v=19$m=8,t=1,p=1', phc), TypeError, /no salt/);
    await refused(argon2Verify('$2b$05$short', phc), TypeError, /a bcrypt string is 60 characters/);
    await refused(argon2Verify('hunter2', 'hunter2'), TypeError, /starts with '\$'/);
    await refused(argon2Verify('hunter2', '$argon2x$'), TypeError, /starts with '\$'/);
  });
});

describe('the bounds on what a stored string may ask for, refused before any work', () => {
  const salt = b64(new TextEncoder().encode('somesalt'));
  const hash = b64(new Uint8Array(32));

  it('t = 2^32 - 1 is refused by the default maxWork (4 GiB), before the password is looked at, at once', async () => {
    const started = performance.now();
    await refused(
      argon2Verify(`$argon2id$v=19$m=8,t=4294967295,p=1$${salt}$${hash}`, 42 as never),
      RangeError,
      /t = 4294967295 passes over 8192 bytes \(8\.0 KiB\) are 35184372080640 bytes \(32768\.0 GiB\) of work, above maxWork \(4294967296 bytes \(4\.0 GiB\)\); raise maxWork/,
    );
    // Hours of work had it started: what is measured here is that none did.
    assert.ok(performance.now() - started < 5000);
  });

  it("the default maxWork takes RFC 9106's 1 GiB at t = 4 and 64 MiB at t = 3 and OWASP's 19 MiB at t = 2; a pass more is refused", async () => {
    // A password of the wrong type: the core refuses it once the bounds have let the string through.
    const core = /password must be a string or a Uint8Array/;
    // And many lanes: 4096 of them at 32 MiB, t = 1.
    for (const params of ['m=1048576,t=4,p=1', 'm=1048576,t=4,p=4', 'm=65536,t=3,p=4', 'm=19456,t=2,p=1', 'm=47104,t=1,p=1', 'm=32768,t=1,p=4096']) {
      await refused(argon2Verify(`$argon2id$v=19$${params}$${salt}$${hash}`, 42 as never), TypeError, core);
    }
    await refused(argon2Verify(`$argon2id$v=19$m=1048576,t=5,p=1$${salt}$${hash}`, 42 as never), RangeError, /above maxWork/);
    await refused(argon2Verify(`$argon2id$v=19$m=65536,t=65,p=1$${salt}$${hash}`, 42 as never), RangeError, /above maxWork/);
    // maxWork raises (or lowers) it.
    await refused(argon2Verify(`$argon2id$v=19$m=65536,t=65,p=1$${salt}$${hash}`, 42 as never, { maxWork: 65 * 2 ** 26 }), TypeError, core);
    const phc = await argon2idHash('pw', { m: 16, t: 2 });
    assert.equal(await argon2Verify(phc, 'pw', { maxWork: 2 * 16 * 1024 }), true);
    await refused(argon2Verify(phc, 'pw', { maxWork: 2 * 16 * 1024 - 1 }), RangeError, /above maxWork \(32767 bytes/);
    await refused(argon2Verify(phc, 'pw', { maxWork: -1 }), RangeError, /maxWork must be a non-negative integer/);
  });

  it('a bcrypt cost above maxBcryptCost (16) is refused at once; maxBcryptCost raises it', async () => {
    const body = 'CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
    for (const cost of ['17', '31']) {
      await refused(
        argon2Verify(`$2b$${cost}$${body}`, 'U*U'),
        RangeError,
        new RegExp(`cost ${cost} \\(2\\^${cost} rounds\\) is above maxBcryptCost \\(16\\); raise maxBcryptCost`),
      );
    }
    await refused(argon2Verify(`$2b$11$${body}`, 'U*U', { maxBcryptCost: 10 }), RangeError, /above maxBcryptCost \(10\)/);
    await refused(argon2Verify(`$2b$05$${body}`, 'U*U', { maxBcryptCost: 1.5 }), RangeError, /maxBcryptCost must be a non-negative integer/);
  });

  it('costs up to the bound are let through (an aborted signal stops them before any round)', { skip: NO_ABORT }, async () => {
    const body = 'CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
    const reason = new Error('stop');
    await assert.rejects(argon2Verify(`$2b$16$${body}`, 'U*U', { signal: aborted(reason) }), (e) => e === reason);
    await assert.rejects(argon2Verify(`$2b$31$${body}`, 'U*U', { signal: aborted(reason), maxBcryptCost: 31 }), (e) => e === reason);
  });
});

describe('needsRehash', () => {
  it("false for argon2idHash's string at the same options, true for any other parameter, variant, version or length", async () => {
    const today = await argon2idHash('pw');
    assert.equal(needsRehash(today), false);
    assert.equal(needsRehash(today, { m: 19456, t: 2, p: 1, dkLen: 32 }), false);
    for (const opts of [{ m: 65536 }, { t: 3 }, { p: 2, m: 19456 }, { dkLen: 64 }, { salt: rand(32) }, { m: 9728 }]) {
      assert.equal(needsRehash(today, opts), true, JSON.stringify(opts));
    }
    const small = { m: 64, t: 1, p: 2, dkLen: 20 };
    const mine = await argon2idHash('pw', small);
    assert.equal(needsRehash(mine, small), false);
    // The options are argon2idHash's: the same object serves both; key, maxmem and the others are not compared.
    assert.equal(needsRehash(mine, { ...small, key: 'pepper', maxmem: 2 ** 20, onProgress: () => {} }), false);
    assert.equal(needsRehash(mine), true);
    // The parameters in another order are the same parameters.
    assert.equal(needsRehash(mine.replace('m=64,t=1,p=2', 'p=2,t=1,m=64'), small), false);
  });

  it('true for argon2i, argon2d, v=16, no v=, another salt length, and bcrypt', async () => {
    const today = await argon2idHash('pw', { m: 8, t: 1 });
    const opts = { m: 8, t: 1 };
    assert.equal(needsRehash(today, opts), false);
    assert.equal(needsRehash(today.replace('$argon2id$', '$argon2i$'), opts), true);
    assert.equal(needsRehash(today.replace('$argon2id$', '$argon2d$'), opts), true);
    assert.equal(needsRehash(today.replace('$v=19$', '$v=16$'), opts), true);
    assert.equal(needsRehash(today.replace('$v=19$', '$'), opts), true);
    assert.equal(needsRehash(await argon2idHash('pw', { ...opts, salt: rand(8) }), opts), true);
    assert.equal(needsRehash(await argon2idHash('pw', { ...opts, salt: rand(8) }), { ...opts, salt: rand(8) }), false);
    assert.equal(needsRehash('$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'), true);
    assert.equal(needsRehash('$2y$04$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'), true);
  });

  it('throws for what is malformed, as argon2Verify does, and for wrong options', () => {
    assert.throws(() => needsRehash(42 as never), /the stored hash must be a string, got number/);
    assert.throws(() => needsRehash('$argon2id$v=19$m=8,t=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA'), /has no p= parameter/);
    assert.throws(() => needsRehash('$argon2id$v=19$m=8,t=1,p=1,t=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA'), /t= parameter twice/);
    assert.throws(() => needsRehash('$scrypt$ln=16,r=8,p=1$c29tZXNhbHQ$AAAA'), /algorithm must be argon2id/);
    assert.throws(() => needsRehash('$2x$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'), TypeError);
    assert.throws(() => needsRehash('$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe'), /60 characters/);
    assert.throws(() => needsRehash('$argon2id$v=19$m=8,t=1,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA', { length: 32 } as never), /unknown option 'length'/);
    // The bounds are argon2Verify's: a string above them is not malformed.
    assert.equal(needsRehash(`$argon2id$v=19$m=8,t=4294967295,p=1$c29tZXNhbHQ$${b64(new Uint8Array(32))}`), true);
    assert.equal(needsRehash('$2b$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'), true);
  });
});
