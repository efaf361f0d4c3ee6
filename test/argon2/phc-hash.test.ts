/**
 * Argon2's PHC strings (src/argon2/phc.ts), written: argon2idHash,
 * argon2iHash and argon2dHash, their defaults (OWASP's), a new salt each
 * call, strings as UTF-8, a pepper not written and needed to verify,
 * progress, an abort, options refused before any work, and no string
 * longer than argon2Verify reads.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2d, argon2dHash, argon2i, argon2id, argon2idHash, argon2iHash, argon2Verify } from 'fourfold/argon2';
import { NO_ABORT, rand } from '../helpers.js';
import { b64, fieldsOf, refused, unb64 } from './phc-common.js';

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
