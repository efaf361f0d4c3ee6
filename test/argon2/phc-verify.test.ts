/**
 * Argon2's PHC strings (src/argon2/phc.ts), read by argon2Verify: a wrong
 * password, a changed bit, parameter, salt or variant gives false, a hash
 * is compared at its own length; every malformed string is refused,
 * before any work, with an error that names what is wrong (fields,
 * numbers, parameters, keyid= and data=, maxmem, base64, lengths).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { argon2id, argon2idHash, argon2Verify } from 'fourfold/argon2';
import { rand } from '../helpers.js';
import { ALPHABET, b64, fieldsOf, refused, unb64 } from './phc-common.js';

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
