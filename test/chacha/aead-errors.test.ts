/**
 * ChaCha20-Poly1305 and XChaCha20-Poly1305's errors (fourfold/chacha), on
 * both tiers: every bad argument of the constructor and of encrypt and
 * decrypt, a TypeError or RangeError naming it; a failed check that
 * throws AuthenticationError and zeroes the output. The stream ciphers'
 * are errors.test.ts's.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { chacha20poly1305, xchacha20poly1305 } from 'fourfold/chacha';
import { assertBytes, detach, firstNonZero, NO_DETACH, forEachTier, isAllZero, rand } from '../helpers.js';
import { noble } from './peers.js';
import { NOT_BYTES, NOT_BYTES_REQUIRED, rangeErr, typeErr } from './bad-arguments.js';

const AEADS = [
  { name: 'chacha20poly1305', make: chacha20poly1305, nonce: 12 },
  { name: 'xchacha20poly1305', make: xchacha20poly1305, nonce: 24 },
];

forEachTier('errors', () => {
  for (const a of AEADS) {
    // Errors may be raised by the constructor or by the first call.
    const make = a.make as unknown as (
      key: unknown,
      nonce: unknown,
      aad: unknown,
    ) => { encrypt(pt: unknown, out?: unknown): Uint8Array; decrypt(ct: unknown, out?: unknown): Uint8Array };
    const enc = (key: unknown, nonce: unknown, aad: unknown, pt: unknown, out?: unknown) => make(key, nonce, aad).encrypt(pt, out);
    const dec = (key: unknown, nonce: unknown, aad: unknown, ct: unknown, out?: unknown) => make(key, nonce, aad).decrypt(ct, out);

    it(`${a.name}: non-Uint8Array arguments are TypeErrors naming the argument`, () => {
      const key = rand(32);
      const nonce = rand(a.nonce);
      const pt = rand(40);
      const sealed = a.make(key, nonce).encrypt(pt);
      for (const bad of NOT_BYTES_REQUIRED) {
        assert.throws(() => enc(bad, nonce, undefined, pt), typeErr('key'), `key = ${String(bad)}`);
        assert.throws(() => enc(key, bad, undefined, pt), typeErr('nonce'), `nonce = ${String(bad)}`);
        assert.throws(() => enc(key, nonce, undefined, bad), TypeError, `plaintext = ${String(bad)}`);
        assert.throws(() => dec(key, nonce, undefined, bad), TypeError, `ciphertext = ${String(bad)}`);
      }
      for (const bad of NOT_BYTES) {
        assert.throws(() => enc(key, nonce, bad, pt), typeErr('aad'), `aad = ${String(bad)}`);
        assert.throws(() => dec(key, nonce, bad, sealed), typeErr('aad'), `aad = ${String(bad)}`);
        assert.throws(() => enc(key, nonce, undefined, pt, bad), typeErr('output'), `encrypt output = ${String(bad)}`);
        assert.throws(() => dec(key, nonce, undefined, sealed, bad), typeErr('output'), `decrypt output = ${String(bad)}`);
      }
    });

    it(`${a.name}: wrong lengths are RangeErrors naming the argument`, () => {
      const key = rand(32);
      const nonce = rand(a.nonce);
      const pt = rand(40);
      const sealed = a.make(key, nonce).encrypt(pt);
      for (const n of [0, 16, 31, 33]) assert.throws(() => enc(rand(n), nonce, undefined, pt), rangeErr('key'), `key of ${n}`);
      for (const n of [0, 8, 11, 12, 13, 16, 23, 24, 25]) {
        if (n === a.nonce) continue;
        assert.throws(() => enc(key, rand(n), undefined, pt), rangeErr('nonce'), `nonce of ${n}`);
        assert.throws(() => dec(key, rand(n), undefined, sealed), rangeErr('nonce'), `nonce of ${n}`);
      }
      for (const n of [0, 40, 55, 57, 72]) {
        assert.throws(() => enc(key, nonce, undefined, pt, new Uint8Array(n)), rangeErr('output'), `encrypt output of ${n}`);
      }
      for (const n of [0, 39, 41, 56]) {
        assert.throws(() => dec(key, nonce, undefined, sealed, new Uint8Array(n)), rangeErr('output'), `decrypt output of ${n}`);
      }
      // Too short to hold a tag: it fails authentication, as any forgery (libsodium, Go's x/crypto and RustCrypto do the same).
      for (let n = 0; n < 16; n++) {
        assert.throws(() => dec(key, nonce, undefined, rand(n)), AuthenticationError, `ciphertext of ${n} bytes (shorter than the tag)`);
        assert.throws(() => dec(key, nonce, undefined, rand(n), new Uint8Array(0)), AuthenticationError, `ciphertext of ${n} bytes with output`);
      }
      // Exactly a tag: an empty message.
      const empty = a.make(key, nonce).encrypt(new Uint8Array(0));
      assert.equal(empty.length, 16);
      assert.equal(a.make(key, nonce).decrypt(empty).length, 0);
    });

    it(`${a.name}: detached buffers are TypeErrors`, { skip: NO_DETACH }, () => {
      const key = rand(32);
      const nonce = rand(a.nonce);
      const pt = rand(40);
      const sealed = a.make(key, nonce).encrypt(pt);
      assert.throws(() => enc(detach(rand(32)), nonce, undefined, pt), TypeError, 'key');
      assert.throws(() => enc(key, detach(rand(a.nonce)), undefined, pt), TypeError, 'nonce');
      assert.throws(() => enc(key, nonce, detach(rand(10)), pt), TypeError, 'aad');
      assert.throws(() => enc(key, nonce, undefined, detach(rand(40))), TypeError, 'plaintext');
      assert.throws(() => enc(key, nonce, undefined, pt, detach(new Uint8Array(56))), TypeError, 'encrypt output');
      assert.throws(() => enc(key, nonce, undefined, new Uint8Array(0), detach(new Uint8Array(16))), TypeError, 'encrypt output for empty plaintext');
      assert.throws(() => dec(key, nonce, undefined, detach(sealed.slice())), TypeError, 'ciphertext');
      assert.throws(() => dec(key, nonce, undefined, sealed, detach(new Uint8Array(40))), TypeError, 'decrypt output');
      const emptySealed = a.make(key, nonce).encrypt(new Uint8Array(0));
      assert.throws(() => dec(key, nonce, undefined, emptySealed, detach(new Uint8Array(8))), TypeError, 'decrypt output for empty plaintext');
    });

    it(`${a.name}: partially overlapping outputs are RangeErrors`, () => {
      const key = rand(32);
      const nonce = rand(a.nonce);
      const buf = rand(400);
      const ref = buf.slice();
      for (const [p, o] of [
        [0, 1],
        [1, 0],
        [16, 0],
        [0, 50],
      ] as const) {
        assert.throws(() => a.make(key, nonce).encrypt(buf.subarray(p, p + 100), buf.subarray(o, o + 116)), rangeErr('output'), `encrypt ${p}/${o}`);
        assert.throws(() => a.make(key, nonce).decrypt(buf.subarray(p, p + 116), buf.subarray(o, o + 100)), rangeErr('output'), `decrypt ${p}/${o}`);
      }
      assertBytes(buf, ref, 'a rejected call must not write');
      // Disjoint regions of one buffer are fine.
      const sealed = a.make(key, nonce).encrypt(buf.subarray(0, 100), buf.subarray(100, 216));
      assertBytes(sealed, noble[a.name as 'chacha20poly1305'](key, nonce).encrypt(ref.subarray(0, 100)), 'disjoint encrypt');
      const opened = a.make(key, nonce).decrypt(buf.subarray(100, 216), buf.subarray(216, 316));
      assertBytes(opened, ref.subarray(0, 100), 'disjoint decrypt');
    });

    it(`${a.name}: Buffer arguments are accepted`, () => {
      const key = rand(32);
      const nonce = rand(a.nonce);
      const aad = rand(9);
      const pt = rand(70);
      const expected = noble[a.name as 'chacha20poly1305'](key, nonce, aad).encrypt(pt);
      assertBytes(a.make(Buffer.from(key), Buffer.from(nonce), Buffer.from(aad)).encrypt(Buffer.from(pt)), expected);
      assertBytes(a.make(Buffer.from(key), Buffer.from(nonce), Buffer.from(aad)).decrypt(Buffer.from(expected)), pt);
    });

    it(`${a.name}: a wrong tag, key, nonce, aad or length throws AuthenticationError`, () => {
      const key = rand(32);
      const nonce = rand(a.nonce);
      const aad = rand(20);
      const pt = rand(150);
      const sealed = a.make(key, nonce, aad).encrypt(pt);
      const flip = (i: number) => {
        const s = sealed.slice();
        s[i]! ^= 0x40;
        return s;
      };
      const otherNonce = nonce.slice();
      otherNonce[0]! ^= 1;
      const cases: [string, () => unknown][] = [
        ['tag byte 0', () => a.make(key, nonce, aad).decrypt(flip(150))],
        ['tag byte 15', () => a.make(key, nonce, aad).decrypt(flip(165))],
        ['ciphertext byte 0', () => a.make(key, nonce, aad).decrypt(flip(0))],
        ['ciphertext byte 149', () => a.make(key, nonce, aad).decrypt(flip(149))],
        ['other key', () => a.make(rand(32), nonce, aad).decrypt(sealed)],
        ['other nonce', () => a.make(key, otherNonce, aad).decrypt(sealed)],
        ['no aad', () => a.make(key, nonce).decrypt(sealed)],
        ['longer aad', () => a.make(key, nonce, new Uint8Array([...aad, 0])).decrypt(sealed)],
        ['truncated', () => a.make(key, nonce, aad).decrypt(sealed.subarray(0, sealed.length - 1))],
        ['extended', () => a.make(key, nonce, aad).decrypt(new Uint8Array([...sealed, 0]))],
        ['all zero tag', () => a.make(key, nonce, aad).decrypt(new Uint8Array([...sealed.subarray(0, 150), ...new Uint8Array(16)]))],
      ];
      for (const [label, f] of cases) {
        assert.throws(f, (e: unknown) => e instanceof AuthenticationError && (e as Error).name === 'AuthenticationError', label);
      }
    });

    for (const size of [0, 1, 64, 1000, 300 * 1024 + 5]) {
      it(`${a.name}: after AuthenticationError no plaintext is left in the output (${size} bytes)`, () => {
        const key = rand(32);
        const nonce = rand(a.nonce);
        const aad = rand(13);
        const pt = rand(size).map((b) => b | 1); // no zero bytes: leftover plaintext cannot pass for wiped memory
        const sealed = a.make(key, nonce, aad).encrypt(pt);
        const bad = sealed.slice();
        bad[bad.length - 1]! ^= 1;

        // Separate caller output, pre-filled with the plaintext itself.
        const out = pt.slice();
        assert.throws(() => a.make(key, nonce, aad).decrypt(bad, out), AuthenticationError);
        assert.ok(isAllZero(out), `separate output not wiped (first non-zero at ${firstNonZero(out)})`);

        // In place: the ciphertext buffer's plaintext region.
        const buf = bad.slice();
        const view = buf.subarray(0, size);
        assert.throws(() => a.make(key, nonce, aad).decrypt(buf, view), AuthenticationError);
        assert.ok(isAllZero(view), `in-place output not wiped (first non-zero at ${firstNonZero(view)})`);

        // An unaligned caller output.
        const big = new Uint8Array(size + 8).fill(0xcc);
        const uview = big.subarray(3, 3 + size);
        assert.throws(() => a.make(key, nonce, aad).decrypt(bad, uview), AuthenticationError);
        assert.ok(isAllZero(uview), 'unaligned output not wiped');
        assert.ok(big.subarray(0, 3).every((b) => b === 0xcc) && big.subarray(3 + size).every((b) => b === 0xcc), 'wrote outside the output');

        // And the call without an output throws without returning anything.
        assert.throws(() => a.make(key, nonce, aad).decrypt(bad), AuthenticationError);
        // The honest ciphertext still opens.
        assertBytes(a.make(key, nonce, aad).decrypt(sealed), pt);
      });
    }
  }
});
