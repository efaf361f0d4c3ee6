/**
 * fourfold/sodium's symmetric calls against libsodium-wrappers-sumo, byte
 * for byte on each tier: the three ChaCha20-Poly1305 AEADs (combined and
 * detached), crypto_secretbox, crypto_stream_* and the cores,
 * crypto_onetimeauth, over message lengths 0 to 1 MiB, associated data as
 * bytes, strings and null, every output format; each one's plaintext back
 * from the other's ciphertext; wrong keys, nonces, tags, associated data
 * and changed bytes refused with libsodium-wrappers' error, and wrong
 * argument lengths and types with its TypeErrors.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { salsa20 as nobleSalsa20, xsalsa20 as nobleXsalsa20 } from '@noble/ciphers/salsa.js';
import * as sodium from 'fourfold/sodium';
import { forEachTier, NO_SODIUM, rand } from '../helpers.js';
import { FORMATS, LENGTHS, loadSumo, mine, native, newer, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };

const AEADS = [
  { name: 'crypto_aead_chacha20poly1305', nonce: 8 },
  { name: 'crypto_aead_chacha20poly1305_ietf', nonce: 12 },
  { name: 'crypto_aead_xchacha20poly1305_ietf', nonce: 24 },
];
const AADS = () => [null, undefined, '', 'associated', rand(1), rand(16), rand(65)];

/** A copy of `b` with one bit flipped at `i`. */
const flipped = (b: Uint8Array, i: number): Uint8Array => {
  const c = b.slice();
  c[i] ^= 1;
  return c;
};

forEachTier('fourfold/sodium against libsodium-wrappers-sumo', () => {
  for (const { name, nonce: nonceBytes } of AEADS) {
    it(`${name}: encrypt and decrypt, combined and detached, every length and format`, opts, () => {
      for (const n of LENGTHS) {
        const key = rand(32);
        const nonce = rand(nonceBytes);
        const message = rand(n);
        for (const aad of n < 200 ? AADS() : [rand(13)]) {
          const sealed = same(`${name}_encrypt`, [message, aad, null, nonce, key], `${n}`) as Uint8Array;
          same(`${name}_decrypt`, [null, sealed, aad, nonce, key], `${n}`);
          const detached = same(`${name}_encrypt_detached`, [message, aad, null, nonce, key], `${n}`) as { ciphertext: Uint8Array; mac: Uint8Array };
          same(`${name}_decrypt_detached`, [null, detached.ciphertext, detached.mac, aad, nonce, key], `${n}`);
          // Theirs opens with ours: the same bytes went both ways.
          assert.deepEqual((peer()[`${name}_decrypt`] as (...a: unknown[]) => Uint8Array)(null, sealed, aad, nonce, key), message);
        }
        if (n <= 1000) {
          for (const f of FORMATS) {
            same(`${name}_encrypt`, [message, null, null, nonce, key, f], `${n} ${f}`);
            same(`${name}_encrypt_detached`, ['a string message', 'ad', null, nonce, key, f], `${n} ${f}`);
            const text = (mine[`${name}_encrypt`] as (...a: unknown[]) => Uint8Array)('text é', null, null, nonce, key);
            same(`${name}_decrypt`, [null, text, null, nonce, key, f], `${f}`);
          }
        }
      }
    });

    it(`${name}: detached results are arrays of their own, which later calls leave as they are`, opts, () => {
      const key = rand(32);
      const nonce = rand(nonceBytes);
      const encrypt = mine[`${name}_encrypt_detached`] as (...a: unknown[]) => { ciphertext: Uint8Array; mac: Uint8Array };
      for (const n of [0, 64, 4096, 4097]) {
        const first = encrypt(rand(n), null, null, nonce, key);
        const copy = { ciphertext: first.ciphertext.slice(), mac: first.mac.slice() };
        assert.notEqual(first.ciphertext.buffer, first.mac.buffer, `${n}: one buffer for both`);
        encrypt(rand(n), null, null, nonce, key);
        assert.deepEqual(first, copy, `${n}: a later call changed the first's results`);
      }
    });

    it(`${name}: wrong keys, nonces, tags, aad and changed bytes fail as there`, opts, () => {
      const key = rand(32);
      const nonce = rand(nonceBytes);
      for (const n of [0, 1, 64, 65]) {
        const aad = rand(5);
        const sealed = (mine[`${name}_encrypt`] as (...a: unknown[]) => Uint8Array)(rand(n), aad, null, nonce, key);
        for (let i = 0; i < sealed.length; i += Math.max(1, Math.floor(sealed.length / 20)))
          same(`${name}_decrypt`, [null, flipped(sealed, i), aad, nonce, key], `byte ${i}`);
        same(`${name}_decrypt`, [null, sealed, aad, nonce, flipped(key, 0)]);
        same(`${name}_decrypt`, [null, sealed, aad, flipped(nonce, nonceBytes - 1), key]);
        same(`${name}_decrypt`, [null, sealed, null, nonce, key]);
        same(`${name}_decrypt`, [null, sealed, flipped(aad, 4), nonce, key]);
        same(`${name}_decrypt`, [null, sealed.subarray(0, sealed.length - 1), aad, nonce, key]);
        same(`${name}_decrypt_detached`, [null, sealed.subarray(0, n), flipped(sealed.subarray(n), 15), aad, nonce, key]);
      }
      for (const short of [0, 1, 15]) same(`${name}_decrypt`, [null, rand(short), null, nonce, key], `${short} bytes`);
      same(`${name}_decrypt_detached`, [null, rand(3), rand(15), null, nonce, key]);
      for (const k of [rand(31), rand(33), null, 'a string key', undefined]) same(`${name}_encrypt`, ['m', null, null, nonce, k]);
      for (const nn of [rand(nonceBytes - 1), rand(nonceBytes + 1), null]) same(`${name}_encrypt`, ['m', null, null, nn, key]);
      for (const m of [5, [1, 2], null, undefined, {}]) same(`${name}_encrypt`, [m, null, null, nonce, key]);
      same(`${name}_encrypt`, ['m', 5, null, nonce, key]);
      same(`${name}_encrypt`, ['m', null, null, nonce, key, 'nope']);
      same(`${name}_encrypt`, [Buffer.from('a Buffer'), null, null, nonce, key]);
      // The secret nonce, which libsodium never uses: its type checked in its place among the arguments, its length not.
      const sealed = (mine[`${name}_encrypt`] as (...a: unknown[]) => Uint8Array)('m', null, null, nonce, key);
      const detached = (mine[`${name}_encrypt_detached`] as (...a: unknown[]) => { ciphertext: Uint8Array; mac: Uint8Array })('m', null, null, nonce, key);
      for (const nsec of [undefined, new Uint8Array(0), rand(16), 'text', [1, 2], 5, {}, new ArrayBuffer(4)]) {
        same(`${name}_encrypt`, ['m', null, nsec, nonce, key], `secret nonce ${String(nsec)}`);
        same(`${name}_encrypt`, ['m', null, nsec, nonce, rand(31)], `secret nonce ${String(nsec)} before the key`);
        same(`${name}_encrypt_detached`, ['m', 5, nsec, nonce, key], `secret nonce ${String(nsec)} after the aad`);
        same(`${name}_decrypt`, [nsec, sealed, null, nonce, key], `secret nonce ${String(nsec)}`);
        same(`${name}_decrypt`, [nsec, 7, null, nonce, key], `secret nonce ${String(nsec)} before the ciphertext`);
        same(`${name}_decrypt_detached`, [nsec, detached.ciphertext, detached.mac, null, nonce, key], `secret nonce ${String(nsec)}`);
      }
      assert.equal((mine[`${name}_keygen`] as () => Uint8Array)().length, 32);
      assert.match((mine[`${name}_keygen`] as (f: string) => string)('hex'), /^[0-9a-f]{64}$/);
    });
  }

  it('crypto_secretbox_detached: results are arrays of their own, which later calls leave as they are', () => {
    const key = rand(32);
    const nonce = rand(24);
    for (const n of [0, 64, 4096, 4097]) {
      const first = sodium.crypto_secretbox_detached(rand(n), nonce, key);
      const copy = { mac: first.mac.slice(), cipher: first.cipher.slice() };
      assert.notEqual(first.mac.buffer, first.cipher.buffer, `${n}: one buffer for both`);
      sodium.crypto_secretbox_detached(rand(n), nonce, key);
      assert.deepEqual(first, copy, `${n}: a later call changed the first's results`);
      assert.deepEqual(sodium.crypto_secretbox_open_detached(first.cipher, first.mac, nonce, key).length, n);
    }
  });

  it('crypto_secretbox: easy, detached and open, every length and format; wrong ones fail as there', opts, () => {
    for (const n of LENGTHS) {
      const key = rand(32);
      const nonce = rand(24);
      const message = rand(n);
      const box = same('crypto_secretbox_easy', [message, nonce, key], `${n}`) as Uint8Array;
      same('crypto_secretbox_open_easy', [box, nonce, key], `${n}`);
      const d = same('crypto_secretbox_detached', [message, nonce, key], `${n}`) as { mac: Uint8Array; cipher: Uint8Array };
      same('crypto_secretbox_open_detached', [d.cipher, d.mac, nonce, key], `${n}`);
      if (n <= 1000) {
        for (const f of FORMATS) {
          same('crypto_secretbox_easy', ['string é', nonce, key, f]);
          same('crypto_secretbox_detached', [message, nonce, key, f]);
          same('crypto_secretbox_open_easy', [sodium.crypto_secretbox_easy('text', nonce, key), nonce, key, f]);
        }
      }
      if (n <= 65) {
        for (let i = 0; i < box.length; i += 7) same('crypto_secretbox_open_easy', [flipped(box, i), nonce, key]);
        same('crypto_secretbox_open_easy', [box, flipped(nonce, 23), key]);
        same('crypto_secretbox_open_easy', [box, nonce, flipped(key, 31)]);
        same('crypto_secretbox_open_detached', [d.cipher, flipped(d.mac, 0), nonce, key]);
      }
    }
    const key = rand(32);
    const nonce = rand(24);
    for (const short of [0, 1, 15]) same('crypto_secretbox_open_easy', [rand(short), nonce, key]);
    same('crypto_secretbox_open_detached', ['ab', rand(15), nonce, key]);
    for (const k of [rand(31), null]) same('crypto_secretbox_easy', ['m', nonce, k]);
    for (const nn of [rand(23), null]) same('crypto_secretbox_easy', ['m', nn, key]);
  });

  it('crypto_stream_*: keystreams and XORs from block 0 and from other blocks, every format', opts, () => {
    const calls = [
      { xor: 'crypto_stream_chacha20_xor', nonce: 8, counter64: true },
      { xor: 'crypto_stream_chacha20_ietf_xor', nonce: 12, counter64: false },
      { xor: 'crypto_stream_xchacha20_xor', nonce: 24, counter64: true },
    ];
    for (const { xor, nonce: nonceBytes, counter64 } of calls) {
      for (const n of LENGTHS) {
        const key = rand(32);
        const nonce = rand(nonceBytes);
        const message = rand(n);
        same(xor, [message, nonce, key], `${n}`);
        for (const ic of [0, 1, 2, 1000, 2 ** 31 - 1]) same(`${xor}_ic`, [message, nonce, ic, key], `${n} from ${ic}`);
      }
      const key = rand(32);
      const nonce = rand(nonceBytes);
      for (const f of FORMATS) same(xor, ['a string', nonce, key, f]);
      for (const ic of counter64 ? [null] : [-1, 1.5, '1', null, 2 ** 31, 2 ** 32 - 1]) same(`${xor}_ic`, ['m', nonce, ic, key]);
      if (counter64) {
        // libsodium.js's current source takes a 64-bit counter as a bigint (u64) and says so when one is wrong; 0.8.4 takes numbers below 2^31 only.
        for (const ic of [-1, 1.5, '1', 2 ** 31, 2 ** 32 - 1, -1n])
          newer(`${xor}_ic`, ['m', nonce, ic, key], 'TypeError: nonce_increment must be an unsigned integer or bigint', String(ic));
        newer(`${xor}_ic`, ['m', nonce, 2n ** 64n, key], 'TypeError: nonce_increment cannot be more than 64 bits');
      }
      same(xor, ['m', rand(nonceBytes + 1), key]);
      same(xor, ['m', nonce, rand(16)]);
    }
    for (const n of [0, 1, 63, 64, 65, 1000, 1 << 20]) {
      const key = rand(32);
      const nonce = rand(8);
      same('crypto_stream_chacha20', [n, key, nonce]);
      same('crypto_stream_chacha20', [n, key, nonce, 'hex']);
    }
    same('crypto_stream_chacha20', [-1, rand(32), rand(8)]);
    for (const k of ['crypto_stream_keygen', 'crypto_stream_chacha20_keygen', 'crypto_stream_xchacha20_keygen']) {
      assert.equal((mine[k] as () => Uint8Array)().length, 32);
    }
  });

  it("crypto_stream_chacha20_xor_ic and _xchacha20_xor_ic: 64-bit counters as bigints, against libsodium's C calls", opts, () => {
    const c = { chacha20: { nonce: 8, fn: '_crypto_stream_chacha20_xor_ic' }, xchacha20: { nonce: 24, fn: '_crypto_stream_xchacha20_xor_ic' } };
    for (const [name, { nonce: nonceBytes, fn }] of Object.entries(c)) {
      for (const ic of [0n, 5n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 3n, 2n ** 63n, 2n ** 64n - 3n]) {
        for (const n of [0, 1, 64, 65, 129]) {
          const [key, nonce, message] = [rand(32), rand(nonceBytes), rand(n)];
          const expected = native((lib, put, read) => {
            const out = put(new Uint8Array(n));
            const rc = lib[fn](out, put(message), n, 0, put(nonce), Number(ic & 0xffffffffn), Number(ic >> 32n), put(key));
            assert.equal(rc, 0);
            return read(out, n);
          });
          const ours = mine[`crypto_stream_${name}_xor_ic`] as (...a: unknown[]) => Uint8Array;
          assert.deepEqual(ours(message, nonce, ic, key), expected, `${name} ${n} bytes from ${ic}`);
          if (ic < 2n ** 31n) assert.deepEqual(ours(message, nonce, Number(ic), key), expected, `${name} ${n} bytes from the number ${ic}`);
        }
      }
      // Past block 2^64 - 1 libsodium's counter wraps to block 0 and repeats the keystream; fourfold refuses.
      assert.throws(
        () => (mine[`crypto_stream_${name}_xor_ic`] as (...a: unknown[]) => Uint8Array)(rand(65), rand(nonceBytes), 2n ** 64n - 1n, rand(32)),
        RangeError,
      );
    }
  });

  it("crypto_stream_salsa20 and _xsalsa20 (libsodium's C calls, which libsodium-wrappers lacks) against @noble/ciphers", () => {
    for (const n of LENGTHS) {
      const key = rand(32);
      const message = rand(n);
      for (const counter of [0, 1, 7]) {
        const n8 = rand(8);
        const n24 = rand(24);
        assert.deepEqual(sodium.crypto_stream_salsa20_xor_ic(message, n8, counter, key), nobleSalsa20(key, n8, message, undefined, counter));
        assert.deepEqual(sodium.crypto_stream_xsalsa20_xor_ic(message, n24, counter, key), nobleXsalsa20(key, n24, message, undefined, counter));
      }
      const n24 = rand(24);
      assert.deepEqual(sodium.crypto_stream_xsalsa20_xor(message, n24, key, 'hex'), Buffer.from(nobleXsalsa20(key, n24, message)).toString('hex'));
    }
    assert.throws(() => sodium.crypto_stream_salsa20_xor('m', rand(24), rand(32)), { name: 'TypeError', message: 'invalid nonce length' });
  });

  it('crypto_core_hchacha20 and _hsalsa20: with the standard constant and a caller one', opts, () => {
    for (const core of ['crypto_core_hchacha20', 'crypto_core_hsalsa20']) {
      for (let i = 0; i < 20; i++) {
        const input = rand(16);
        const key = rand(32);
        same(core, [input, key, null]);
        same(core, [input, key, undefined]);
        same(core, [input, key, rand(16)]);
        same(core, [input, key, 'expand 32-byte k']);
        same(core, [input, key, null, 'base64']);
      }
      same(core, [rand(15), rand(32), null]);
      same(core, [rand(16), rand(31), null]);
    }
  });

  it('crypto_onetimeauth: one-shot, verify, and init/update/final in any pieces', opts, () => {
    for (const n of LENGTHS) {
      const key = rand(32);
      const message = rand(n);
      const tag = same('crypto_onetimeauth', [message, key], `${n}`) as Uint8Array;
      same('crypto_onetimeauth_verify', [tag, message, key]);
      same('crypto_onetimeauth_verify', [flipped(tag, 5), message, key]);
      if (n > 0) same('crypto_onetimeauth_verify', [tag, flipped(message, n - 1), key]);
      for (const cuts of [[], [0], [1], [16, 17], [Math.floor(n / 3), Math.floor(n / 2)]]) {
        const bounds = [0, ...cuts.filter((c) => c <= n), n];
        const ours = sodium.crypto_onetimeauth_init(key);
        const theirs = (peer().crypto_onetimeauth_init as (k: Uint8Array) => unknown)(key);
        for (let i = 1; i < bounds.length; i++) {
          sodium.crypto_onetimeauth_update(ours, message.subarray(bounds[i - 1], bounds[i]));
          (peer().crypto_onetimeauth_update as (s: unknown, m: Uint8Array) => void)(theirs, message.subarray(bounds[i - 1], bounds[i]));
        }
        const mineTag = sodium.crypto_onetimeauth_final(ours, 'hex');
        assert.equal(mineTag, (peer().crypto_onetimeauth_final as (s: unknown, f: string) => string)(theirs, 'hex'));
        assert.equal(mineTag, Buffer.from(tag).toString('hex'));
        assert.throws(() => sodium.crypto_onetimeauth_final(ours), /state_address is unknown/, 'a state ends with final');
      }
    }
    for (const f of FORMATS) same('crypto_onetimeauth', ['a string', rand(32), f]);
    same('crypto_onetimeauth', ['m', rand(31)]);
    same('crypto_onetimeauth_verify', [rand(15), 'm', rand(32)]);
  });
});
