/**
 * The simd tier copies keys, states and data through WebAssembly linear
 * memory. After every call (successful or not) each kernel's whole memory
 * must be zero again: no key, keystream, plaintext or Poly1305 state left
 * behind.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready, tier, AuthenticationError } from 'fourfold';
import { chacha20, chacha20orig, xchacha20, chacha8, chacha12, hchacha20, chacha20poly1305, xchacha20poly1305 } from 'fourfold/chacha';
import { poly1305 } from 'fourfold/poly1305';
import { kernelMemories } from '../internal.js';
import { assertBytes, assertKernelsWiped, NO_SIMD, rand, TWO32, TWO64, wiped } from '../helpers.js';
import { noble, noblePoly1305, nodeChacha20 } from './peers.js';

const SIZES = [0, 1, 63, 64, 65, 255, 256, 1000, 4097, 65537, 300 * 1024 + 3];

describe('kernel memories are wiped (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('the simd tier has instantiated kernels, and the check detects a leftover byte', () => {
    assert.equal(tier(), 'simd');
    chacha20(rand(32), rand(12), rand(100));
    assertKernelsWiped('after one chacha20 call', 'chacha');
    const mems = kernelMemories();
    // Self-test of the check: plant one byte, see it reported, remove it.
    for (const m of mems) {
      const at = m.bytes.length - 1 - (m.bytes.length >> 3);
      m.bytes[at] = 0x5c;
      assert.throws(() => assertKernelsWiped('planted'), /not wiped/);
      m.bytes[at] = 0;
    }
    assertKernelsWiped('after removing the planted byte');
  });

  it('stream ciphers: every size, new output, caller output and in place', () => {
    for (const len of SIZES) {
      const data = rand(len);
      const key = rand(32);
      const n12 = rand(12);
      wiped(`chacha20 ${len}`, () => chacha20(key, n12, data));
      wiped(`chacha8 ${len}`, () => chacha8(key, n12, data, new Uint8Array(len)));
      wiped(`chacha12 ${len}`, () => chacha12(key, n12, data.slice(), undefined, 9));
      wiped(`chacha20orig ${len}`, () => chacha20orig(key, rand(8), data, undefined, BigInt(TWO32 - 2)));
      wiped(`chacha20orig/16 ${len}`, () => chacha20orig(rand(16), rand(8), data));
      const buf = data.slice();
      wiped(`xchacha20 in place ${len}`, () => xchacha20(key, rand(24), buf, buf, 12345n));
      const u = new Uint8Array(len + 3);
      wiped(`chacha20 unaligned ${len}`, () => chacha20(key, n12, u.subarray(3), u.subarray(3)));
    }
    // The values are right too (so the simd tier did the work).
    const key = rand(32);
    const n12 = rand(12);
    const d = rand(5000);
    assertBytes(chacha20(key, n12, d, undefined, 7), nodeChacha20(key, n12, d, 7));
    assertKernelsWiped('after the value check');
  });

  it('stream ciphers at the counter limits', () => {
    const key = rand(32);
    wiped('chacha20 ending at 2^32-1', () => chacha20(key, rand(12), rand(64 * 300), undefined, TWO32 - 300));
    wiped('chacha20orig ending at 2^64-1', () => chacha20orig(key, rand(8), rand(64 * 9 - 3), undefined, TWO64 - 9n));
    wiped('xchacha20 across 2^32', () => xchacha20(key, rand(24), rand(64 * 40), undefined, TWO32 - 17));
  });

  it('hchacha20', () => {
    wiped('hchacha20', () => hchacha20(rand(32), rand(16)));
  });

  it('failing stream calls', () => {
    const key = rand(32);
    wiped('counter overflow', () => chacha20(key, rand(12), rand(65 * 64), undefined, TWO32 - 64), RangeError);
    wiped('64-bit counter overflow', () => chacha20orig(key, rand(8), rand(129), undefined, TWO64 - 2n), RangeError);
    wiped('wrong key', () => chacha20(rand(31), rand(12), rand(10)), RangeError);
    wiped('wrong output', () => xchacha20(key, rand(24), rand(10), new Uint8Array(9)), RangeError);
    const buf = rand(200);
    wiped('overlap', () => chacha12(key, rand(12), buf.subarray(0, 100), buf.subarray(1, 101)), RangeError);
    wiped('bad data', () => chacha20(key, rand(12), 'text' as never), TypeError);
  });

  for (const [name, make, nlen, ref] of [
    ['chacha20poly1305', chacha20poly1305, 12, noble.chacha20poly1305],
    ['xchacha20poly1305', xchacha20poly1305, 24, noble.xchacha20poly1305],
  ] as const) {
    it(`${name}: encrypt and decrypt, every size`, () => {
      for (const len of SIZES) {
        const key = rand(32);
        const nonce = rand(nlen);
        const aad = rand(len % 37);
        const pt = rand(len);
        let sealed: Uint8Array = new Uint8Array(0);
        wiped(`${name} encrypt ${len}`, () => (sealed = make(key, nonce, aad).encrypt(pt)));
        wiped(`${name} decrypt ${len}`, () => make(key, nonce, aad).decrypt(sealed));
        const buf = new Uint8Array(len + 16);
        buf.set(pt);
        wiped(`${name} encrypt in place ${len}`, () => make(key, nonce, aad).encrypt(buf.subarray(0, len), buf));
        wiped(`${name} decrypt in place ${len}`, () => make(key, nonce, aad).decrypt(buf, buf.subarray(0, len)));
        assertBytes(sealed, ref(key, nonce, aad).encrypt(pt), `${name} ${len} value`);
      }
    });

    it(`${name}: failing decrypts (bad tag, short input, wrong sizes)`, () => {
      for (const len of [0, 1, 100, 4097, 300 * 1024 + 3]) {
        const key = rand(32);
        const nonce = rand(nlen);
        const pt = rand(len);
        const sealed = make(key, nonce).encrypt(pt);
        const bad = sealed.slice();
        bad[len]! ^= 1; // first tag byte
        wiped(`${name} bad tag ${len}`, () => make(key, nonce).decrypt(bad), AuthenticationError);
        wiped(`${name} bad tag into output ${len}`, () => make(key, nonce).decrypt(bad, new Uint8Array(len)), AuthenticationError);
        const inPlace = bad.slice();
        wiped(`${name} bad tag in place ${len}`, () => make(key, nonce).decrypt(inPlace, inPlace.subarray(0, len)), AuthenticationError);
        wiped(`${name} wrong key ${len}`, () => make(rand(32), nonce).decrypt(sealed), AuthenticationError);
      }
      wiped(`${name} short input`, () => make(rand(32), rand(nlen)).decrypt(rand(15)), AuthenticationError);
      wiped(`${name} wrong output`, () => make(rand(32), rand(nlen)).encrypt(rand(10), new Uint8Array(10)), RangeError);
      wiped(`${name} wrong nonce`, () => make(rand(32), rand(nlen + 1)).encrypt(rand(10)), RangeError);
    });
  }

  it('poly1305: one-shot, incremental digest, errors', () => {
    for (const len of SIZES) {
      const key = rand(32);
      const msg = rand(len);
      const expected = noblePoly1305(msg, key);
      let tag: Uint8Array = new Uint8Array(0);
      wiped(`poly1305 ${len}`, () => (tag = poly1305(msg, key)));
      assertBytes(tag, expected, `poly1305 ${len} value`);
      const h = poly1305.create(key);
      for (let i = 0; i < len; i += 1000) h.update(msg.subarray(i, i + 1000));
      wiped(`poly1305 incremental digest ${len}`, () => (tag = h.digest()));
      assertBytes(tag, expected, `poly1305 incremental ${len} value`);
    }
    // Two interleaved states, both digested.
    const k1 = rand(32);
    const k2 = rand(32);
    const a = poly1305.create(k1);
    const b = poly1305.create(k2);
    a.update(rand(33));
    b.update(rand(1000));
    a.digest();
    b.digest();
    assertKernelsWiped('two incremental states digested');
    wiped('poly1305 wrong key', () => poly1305(rand(10), rand(31)), RangeError);
    wiped('poly1305 bad message', () => poly1305('x' as never, rand(32)), TypeError);
  });
});
