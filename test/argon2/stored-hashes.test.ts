/**
 * The stored hashes a server holds (src/argon2/phc.ts, src/bcrypt):
 * argon2Verify answers true or false for strings node-argon2 and
 * @node-rs/argon2 wrote (recorded here; test/argon2/peer-hashes.test.ts
 * makes them afresh in Node) and for bcrypt strings, OpenBSD's and
 * Openwall's known answers and bcryptjs's (made here, $2a$, $2b$, $2y$);
 * a string password is bcryptjs's bytes (an unpaired surrogate its own
 * three), against bcryptjs both ways and for every code unit;
 * it refuses each kind of malformed bcrypt string, arguments that look
 * swapped (the password first) with a TypeError that says so, and, before
 * any work, a string that asks for more than its bounds; needsRehash says
 * which strings are not what argon2idHash writes today.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { bcrypt as hashWasmBcrypt } from 'hash-wasm';
import { argon2idHash, argon2Verify, needsRehash } from 'fourfold/argon2';
import { ENGINE_COMPILES_WASM, NO_ABORT, rand } from '../helpers.js';
import { bcryptHash, bcryptKey } from '../internal.js';

const NO_HASH_WASM: false | string = ENGINE_COMPILES_WASM
  ? false
  : 'not applicable: hash-wasm (the peer) compiles WebAssembly from bytes, which this engine lacks or refuses';

/** Rejects with `type`, its message matching `message`. */
async function refused(call: Promise<unknown>, type: typeof TypeError | typeof RangeError, message: RegExp): Promise<void> {
  await assert.rejects(call, (e: unknown) => {
    assert.ok(e instanceof type, `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}, not a ${type.name}`);
    assert.match(e.message, message);
    return true;
  });
}

/** Standard base64 without padding (the PHC strings' B64), from Buffer. */
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64').replace(/=+$/, '');
/** A signal aborted with `reason`. */
function aborted(reason: Error): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}
const bytesOf = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));

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

describe("bcrypt: a string password is bcryptjs's bytes, an unpaired surrogate its own three", () => {
  /**
   * A string's bytes as bcryptjs 3.0.3 takes them (its utf8Array), written
   * otherwise: the string's code points as its iterator yields them (a
   * surrogate pair one point, an unpaired surrogate its own) in UTF-8's
   * forms by size, so an unpaired surrogate is three bytes (generalized
   * UTF-8, WTF-8), not U+FFFD's as TextEncoder writes it.
   */
  function wtf8(text: string): number[] {
    const out: number[] = [];
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }
  /** bcrypt's key for `text`: its bytes and a NUL, the first 72. */
  const keyOf = (text: string): number[] => [...wtf8(text), 0].slice(0, 72);
  const hex = (bytes: ArrayLike<number>): string => Buffer.from(Array.from(bytes)).toString('hex');

  /** Unpaired surrogates at the start, in the middle and at the end, pairs, reversed pairs, and next to other characters of each size. */
  const CASES = [
    '\ud800',
    '\udc00',
    '\udbff',
    '\udfff',
    '\ud800abc',
    'abc\ud800',
    'ab\ud800cd',
    '\udc00abc',
    'abc\udc00',
    'ab\udc00cd',
    '\ud83d\ude00',
    'a\ud83d\ude00b',
    '\ude00\ud83d',
    'a\ude00\ud83db',
    // Code units, not escapes, where a lone surrogate meets a pair: a bundler writes the pair as \u{...}, which Deno's parser refuses beside a lone \uD83D.
    String.fromCharCode(0xd83d, 0xd83d, 0xde00),
    String.fromCharCode(0xd83d, 0xde00, 0xde00),
    '\ud800\ud800',
    '\udc00\udc00',
    String.fromCharCode(0xe9, 0xd800, 0x65e5, 0xdc00, 0xd83d, 0xde00),
    '\ufffd',
    `${'x'.repeat(70)}\ud83d\ude00`,
    `${'x'.repeat(71)}\ud800`,
    `${'日'.repeat(23)}\ud83d\ude00`,
  ];

  it("the key is bcryptjs's bytes: every code unit alone, pairs, unpaired and reversed surrogates", () => {
    assert.equal(hex(bcryptKey('\ud800')), 'eda08000');
    assert.equal(hex(bcryptKey('\udc00')), 'edb08000');
    assert.equal(hex(bcryptKey('\ud83d\ude00')), 'f09f988000');
    assert.equal(hex(bcryptKey('\ude00\ud83d')), 'edb880eda0bd00');
    for (let c = 0; c <= 0xffff; c++) {
      const text = String.fromCharCode(c);
      assert.equal(hex(bcryptKey(text)), hex(keyOf(text)), `U+${c.toString(16)}`);
      assert.equal(hex(bcryptKey(`a${text}\u00e9`)), hex(keyOf(`a${text}\u00e9`)), `U+${c.toString(16)} between others`);
    }
    // Each high surrogate before low ones (pairs) and after them (reversed), each low after high ones and before them.
    for (let u = 0; u < 0x400; u++) {
      for (const v of [0, 0x3ff, (u * 37) & 0x3ff]) {
        for (const text of [
          String.fromCharCode(0xd800 + u, 0xdc00 + v),
          String.fromCharCode(0xdc00 + v, 0xd800 + u),
          String.fromCharCode(0xd800 + v, 0xdc00 + u),
          String.fromCharCode(0xdc00 + u, 0xd800 + v, 0x41),
        ]) {
          assert.equal(hex(bcryptKey(text)), hex(keyOf(text)), JSON.stringify(text));
        }
      }
    }
    for (const text of CASES) assert.equal(hex(bcryptKey(text)), hex(keyOf(text)), JSON.stringify(text));
    // Past 72 bytes nothing counts: a character cut at the 72nd byte gives its first bytes.
    for (const text of [`${'x'.repeat(70)}\ud83d\ude00`, `${'x'.repeat(71)}\ud800`, 'x'.repeat(100), '\ud800'.repeat(30), '😀'.repeat(30)]) {
      assert.equal(hex(bcryptKey(text)), hex(keyOf(text)), JSON.stringify(text));
    }
  });

  /** A bcrypt string ($2b$, cost 4, a random salt) of `password`'s hash as fourfold computes it, in bcrypt's base64 (bcryptjs's encoder). */
  async function fourfoldString(password: string): Promise<string> {
    const salt = rand(16).slice();
    const hash = await bcryptHash(password, 4, salt);
    return `$2b$04$${bcrypt.encodeBase64(Array.from(salt), 16)}${bcrypt.encodeBase64(Array.from(hash), 23)}`;
  }

  it('both ways with bcryptjs: its strings verify here, and the strings of the hashes computed here verify in bcryptjs', async () => {
    for (const password of CASES) {
      const theirs = bcrypt.hashSync(password, 4);
      assert.equal(await argon2Verify(theirs, password), true, `bcryptjs's string of ${JSON.stringify(password)}`);
      const ours = await fourfoldString(password);
      assert.equal(bcrypt.compareSync(password, ours), true, `bcryptjs verifies fourfold's hash of ${JSON.stringify(password)}`);
      assert.equal(await argon2Verify(ours, password), true);
    }
  });

  it('U+D800, U+DC00 and U+FFFD alone are three passwords, as in bcryptjs; a pair is not its halves apart', async () => {
    const distinct = ['\ud800', '\udc00', '\ufffd', '\udbff', '\udfff'];
    for (const password of distinct) {
      const theirs = bcrypt.hashSync(password, 4);
      const ours = await fourfoldString(password);
      for (const other of distinct) {
        assert.equal(await argon2Verify(theirs, other), other === password, `bcryptjs's ${JSON.stringify(password)} with ${JSON.stringify(other)}`);
        assert.equal(await argon2Verify(ours, other), other === password, `fourfold's ${JSON.stringify(password)} with ${JSON.stringify(other)}`);
        assert.equal(bcrypt.compareSync(other, ours), other === password, `bcryptjs: fourfold's ${JSON.stringify(password)} with ${JSON.stringify(other)}`);
      }
    }
    const pair = bcrypt.hashSync('\ud83d\ude00', 4);
    assert.equal(await argon2Verify(pair, '\ude00\ud83d'), false, 'reversed');
    assert.equal(await argon2Verify(pair, '\ud83d'), false, 'the high half alone');
    assert.equal(await argon2Verify(pair, new Uint8Array([0xf0, 0x9f, 0x98, 0x80])), true, 'its UTF-8 bytes');
    // A string made from U+FFFD's bytes (Node's native bcrypt, hash-wasm: TextEncoder's) verifies with those bytes.
    const replaced = bcrypt.hashSync('\ufffd', 4);
    assert.equal(await argon2Verify(replaced, Buffer.from('\ud800')), true, "Buffer.from's bytes, U+FFFD's");
    assert.equal(await argon2Verify(replaced, '\ud800'), false);
  });

  it('every code unit as bcryptjs reads it: its strings of all 65,536, 72 bytes at a time, verify here', async () => {
    // From the top down, so that no high surrogate comes just before a low one: each unit stands alone.
    let chunk = '';
    let bytes = 0;
    const chunks: string[] = [];
    for (let c = 0xffff; c >= 0; c--) {
      const size = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      if (bytes + size > 72) {
        chunks.push(chunk);
        chunk = '';
        bytes = 0;
      }
      chunk += String.fromCharCode(c);
      bytes += size;
    }
    chunks.push(chunk);
    for (const password of chunks) {
      assert.equal(await argon2Verify(bcrypt.hashSync(password, 4), password), true, JSON.stringify(password));
    }
  });
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
