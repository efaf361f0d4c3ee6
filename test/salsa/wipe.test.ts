/**
 * The simd tier copies keys, states and data through the salsa kernel's
 * linear memory. After every call, successful or not, each kernel's whole
 * memory must be zero again: no key, subkey, keystream, plaintext or
 * Poly1305 state left behind.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, AuthenticationError } from 'fourfold';
import { hsalsa20, salsa20, salsa2012, salsa208, secretbox, xsalsa20, xsalsa20poly1305 } from 'fourfold/salsa';
import { assertBytes, assertKernelsWiped, loadSodium, NO_SIMD, rand, sodium, TWO32, TWO64, wiped } from '../helpers.js';

const SIZES = [0, 1, 63, 64, 65, 224, 225, 255, 256, 1000, 4097, 32736, 32737, 65537, 300 * 1024 + 3];

describe('salsa kernel memory is wiped (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
    await loadSodium();
  });

  it('stream ciphers and hsalsa20: every size, new output, caller output and in place', () => {
    for (const len of SIZES) {
      const data = rand(len);
      const key = rand(32);
      const n8 = rand(8);
      wiped(`salsa20 ${len}`, () => salsa20(key, n8, data), undefined, 'salsa');
      wiped(`salsa2012 ${len}`, () => salsa2012(key, n8, data, new Uint8Array(len)));
      wiped(`salsa208 ${len}`, () => salsa208(rand(16), n8, data.slice(), undefined, 9));
      wiped(`salsa20 across 2^32 ${len}`, () => salsa20(key, n8, data, undefined, TWO32 - 2));
      const buf = data.slice();
      wiped(`xsalsa20 in place ${len}`, () => xsalsa20(key, rand(24), buf, buf, 12345n));
      const u = new Uint8Array(len + 3);
      wiped(`salsa20 unaligned ${len}`, () => salsa20(key, n8, u.subarray(3), u.subarray(3)));
    }
    wiped('hsalsa20', () => hsalsa20(rand(32), rand(16)));
    wiped('salsa20 ending at 2^64 - 1', () => salsa20(rand(32), rand(8), rand(64 * 9 - 3), undefined, TWO64 - 9n));
  });

  it('secretbox: seal and open, every size, in place, and failing opens', () => {
    for (const len of SIZES) {
      const key = rand(32);
      const nonce = rand(24);
      const pt = rand(len);
      let sealed: Uint8Array = new Uint8Array(0);
      wiped(`seal ${len}`, () => (sealed = secretbox(key, nonce).seal(pt)));
      assertBytes(sealed, sodium.crypto_secretbox_easy(pt, nonce, key), `seal ${len} value`);
      wiped(`open ${len}`, () => secretbox(key, nonce).open(sealed));
      const buf = new Uint8Array(len + 16);
      buf.set(pt);
      wiped(`seal in place ${len}`, () => xsalsa20poly1305(key, nonce).encrypt(buf.subarray(0, len), buf));
      wiped(`open in place ${len}`, () => xsalsa20poly1305(key, nonce).decrypt(buf, buf.subarray(0, len)));
      const bad = sealed.slice();
      bad[len] ^= 1;
      wiped(`open, bad tag ${len}`, () => secretbox(key, nonce).open(bad), AuthenticationError);
      wiped(`open into output, bad tag ${len}`, () => secretbox(key, nonce).open(bad, new Uint8Array(len)), AuthenticationError);
    }
    wiped('short ciphertext', () => secretbox(rand(32), rand(24)).open(rand(15)), AuthenticationError);
    wiped('wrong output', () => secretbox(rand(32), rand(24)).seal(rand(10), new Uint8Array(10)), RangeError);
    wiped('counter overflow', () => salsa20(rand(32), rand(8), rand(129), undefined, TWO64 - 2n), RangeError);
    assertKernelsWiped('at the end', 'salsa');
  });
});
