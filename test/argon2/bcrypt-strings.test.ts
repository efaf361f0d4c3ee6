/**
 * bcrypt's stored strings (src/bcrypt) read by argon2Verify: OpenBSD's
 * and Openwall's known answers, bcryptjs's strings ($2a$, $2b$, $2y$,
 * costs 4 to 10) and hash-wasm's; a string password is its UTF-8 bytes,
 * nothing past 72 counts; the key schedule runs in turns, a signal stops
 * it; each kind of malformed string is refused, naming what is wrong.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { bcrypt as hashWasmBcrypt } from 'hash-wasm';
import { argon2Verify } from 'fourfold/argon2';
import { NO_ABORT, rand } from '../helpers.js';
import { aborted, NO_HASH_WASM, refused } from './phc-common.js';

const bytesOf = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));

describe('argon2Verify: bcrypt strings', () => {
  /**
   * Known answers from Openwall's crypt_blowfish (its wrapper.c tests, as
   * John the Ripper 1.7.9 carries them): password bytes and string, at
   * cost 5. \xa3 and \xff\xa3345 are the same hash as $2a$, $2b$ and $2y$
   * (crypt_blowfish's $2a$ differs from OpenBSD's only for passwords its
   * old sign-extension bug would have let collide, such as
   * \xff\xa334\xff\xff\xff\xa3345, left out).
   */
  const AA72 = new Array<number>(72).fill(0xaa);
  const KNOWN: readonly (readonly [Uint8Array, string])[] = [
    [bytesOf('U*U'), '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'],
    [bytesOf('U*U*'), '$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK'],
    [bytesOf('U*U*U'), '$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a'],
    [bytesOf(''), '$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy'],
    [
      bytesOf('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored'),
      '$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui',
    ],
    [bytesOf([0xa3]), '$2y$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq'],
    [bytesOf([0xa3]), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq'],
    [bytesOf([0xa3]), '$2b$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq'],
    [bytesOf([0xff, 0xa3], '345'), '$2y$05$/OK.fbVrR/bpIqNJ5ianF.nRht2l/HRhr6zmCp9vYUvvsqynflf9e'],
    [bytesOf([0xff, 0xa3], '345'), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.nRht2l/HRhr6zmCp9vYUvvsqynflf9e'],
    [bytesOf(AA72, 'chars after 72 are ignored as usual'), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.swQOIzjOiJ9GHEPuhEkvqrUyvWhEMx6'],
    [bytesOf(new Array(36).fill([0xaa, 0x55]).flat()), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.R9xrDjiycxMbQE2bp.vgqlYpW5wx2yy'],
    [bytesOf(new Array(24).fill([0x55, 0xaa, 0xff]).flat()), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.9tQZzcJfm3uj2NvJ/n5xkhpqLrMpWCe'],
  ];

  it("Openwall's known answers: true for the password, false with its first byte changed", async () => {
    for (const [password, hash] of KNOWN) {
      assert.equal(await argon2Verify(hash, password), true, hash);
      const other = password.length > 0 ? password.slice() : new Uint8Array(1);
      other[0] ^= 1;
      assert.equal(await argon2Verify(hash, other), false, hash);
    }
  });

  it('a string password is its UTF-8 bytes; past 72 bytes nothing counts, as in every bcrypt', async () => {
    const [password, hash] = KNOWN[4]!;
    assert.equal(await argon2Verify(hash, new TextDecoder().decode(password)), true);
    assert.equal(await argon2Verify(hash, password.subarray(0, 72)), true);
    assert.equal(await argon2Verify(hash, password.subarray(0, 71)), false);
    assert.equal(await argon2Verify(KNOWN[5]![1], '\u00a3'), false, "'£' is 0xc2 0xa3 in UTF-8, not 0xa3");
  });

  /** bcryptjs's string of `password` at `cost` with a random salt ($2b$), its prefix rewritten to `variant`. */
  const bcryptjs = (password: string, cost: number, variant: '2a' | '2b' | '2y'): string => {
    const salt = `$2b$${String(cost).padStart(2, '0')}$${bcrypt.encodeBase64(Array.from(rand(16)), 16)}`;
    return bcrypt.hashSync(password, salt).replace('$2b$', `$${variant}$`);
  };

  it("bcryptjs's $2a$, $2b$ and $2y$ strings, passwords of 0, 1, 71, 72 and 73 bytes and non-ASCII ones: true, and false for another", async () => {
    const passwords = ['', 'a', 'x'.repeat(71), 'y'.repeat(72), 'z'.repeat(73), 'pässwörd 🔑', 'é'.repeat(36), '日本語のパスワード'];
    for (const variant of ['2a', '2b', '2y'] as const) {
      for (const password of passwords) {
        const hash = bcryptjs(password, 4, variant);
        assert.equal(await argon2Verify(hash, password), true, `${hash} ${JSON.stringify(password)}`);
        // Another password: one more character below 72 bytes, another first character at 72 and above.
        const other = new TextEncoder().encode(password).length < 72 ? `${password}a` : `A${password.slice(1)}`;
        assert.equal(await argon2Verify(hash, other), false, `${hash} ${JSON.stringify(other)}`);
      }
    }
    // The 73rd byte is not read: bcrypt's limit.
    const long = bcryptjs('z'.repeat(73), 4, '2b');
    assert.equal(await argon2Verify(long, 'z'.repeat(72)), true);
    assert.equal(await argon2Verify(long, `${'z'.repeat(72)}!`), true);
  });

  it("hash-wasm's bcrypt strings ($2a$)", { skip: NO_HASH_WASM }, async () => {
    // hash-wasm refuses an empty password.
    for (const password of ['hunter2', 'pässwörd 🔑']) {
      const hash = await hashWasmBcrypt({ password, salt: rand(16), costFactor: 5, outputType: 'encoded' });
      assert.match(hash, /^\$2a\$05\$/);
      assert.equal(await argon2Verify(hash, password), true, hash);
      assert.equal(await argon2Verify(hash, `${password}!`), false, hash);
    }
  });

  it("bcryptjs's strings at costs 4 to 10", async () => {
    for (let cost = 4; cost <= 10; cost++) {
      const hash = bcryptjs('correct horse battery staple', cost, cost % 2 === 0 ? '2b' : '2a');
      assert.equal(await argon2Verify(hash, 'correct horse battery staple'), true, hash);
      assert.equal(await argon2Verify(hash, 'correct horse battery stapler'), false, hash);
    }
  });

  it('the key schedule runs in turns: timers run while a cost-10 string is verified', async () => {
    const hash = bcryptjs('pw', 10, '2b');
    let turns = 0;
    let running = true;
    const count = (): void => {
      turns++;
      if (running) setTimeout(count, 0);
    };
    setTimeout(count, 0);
    try {
      assert.equal(await argon2Verify(hash, 'pw'), true);
    } finally {
      running = false;
    }
    assert.ok(turns > 0, 'no timer ran during the verification');
  });

  it('a signal stops it: already aborted, or during the key schedule', { skip: NO_ABORT }, async () => {
    // Cost 12, 4096 rounds: the abort comes after the first turn's few.
    const hash = '$2b$12$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
    const reason = new Error('stop');
    await assert.rejects(argon2Verify(hash, 'pw', { signal: aborted(reason) }), (e) => e === reason);
    const controller = new AbortController();
    const verifying = argon2Verify(hash, 'pw', { signal: controller.signal });
    controller.abort(reason);
    await assert.rejects(verifying, (e) => e === reason);
  });

  it('malformed bcrypt strings are refused, each naming what is wrong', async () => {
    const good = KNOWN[0]![1];
    const body = good.slice(7);
    await refused(argon2Verify(`$2x$05$${body}`, 'U*U'), TypeError, /starts with \$2a\$, \$2b\$ or \$2y\$, got '\$2x\$'/);
    await refused(argon2Verify(`$2$05$${body}`, 'U*U'), TypeError, /starts with \$2a\$, \$2b\$ or \$2y\$/);
    await refused(argon2Verify(`$2c$05$${body}`, 'U*U'), TypeError, /starts with \$2a\$, \$2b\$ or \$2y\$/);
    await refused(argon2Verify(`$2a$5$${body}`, 'U*U'), TypeError, /cost must be two digits and a '\$'/);
    await refused(argon2Verify(`$2a$+5$${body}`, 'U*U'), TypeError, /cost must be two digits/);
    await refused(argon2Verify(`$2a$05${body}`, 'U*U'), TypeError, /cost must be two digits and a '\$'/);
    await refused(argon2Verify(`$2a$03$${body}`, 'U*U'), RangeError, /cost must be from 04 to 31, got 03/);
    await refused(argon2Verify(`$2a$32$${body}`, 'U*U'), RangeError, /cost must be from 04 to 31, got 32/);
    await refused(argon2Verify(good.slice(0, -1), 'U*U'), TypeError, /a bcrypt string is 60 characters .* got 59/);
    await refused(argon2Verify(`${good}.`, 'U*U'), TypeError, /a bcrypt string is 60 characters .* got 61/);
    await refused(argon2Verify(good.slice(0, 29), 'U*U'), TypeError, /got 29/);
    for (const bad of [
      // Characters outside bcrypt's alphabet, in the salt and in the hash.
      `${good.slice(0, 10)}+${good.slice(11)}`,
      `${good.slice(0, 40)}=${good.slice(41)}`,
      `${good.slice(0, 59)} `,
      // The salt's last character has 4 unused bits ('/' sets one); the hash's has 2 ('X' sets one).
      `${good.slice(0, 28)}/${good.slice(29)}`,
      `${good.slice(0, 59)}X`,
    ]) {
      await refused(argon2Verify(bad, 'U*U'), TypeError, /salt and hash must be bcrypt's base64/);
    }
  });
});
