/**
 * bcrypt's passwords (src/bcrypt): a string password is bcryptjs's bytes,
 * an unpaired surrogate its own three; against bcryptjs both ways and for
 * every code unit, 72 bytes at a time.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { argon2Verify } from 'fourfold/argon2';
import { rand } from '../helpers.js';
import { bcryptHash, bcryptKey } from '../internal.js';

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
