/**
 * age's HKDF-SHA-256 and HMAC-SHA-256 (src/age/sha256.ts): node:crypto's
 * (runtime/native.ts), where the engine has it, and @noble/hashes' give
 * RFC 5869's and RFC 4231's bytes, and each other's over random inputs,
 * empty salts, keys and messages included, at the lengths age asks for
 * and others.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { nativeSha256, nobleSha256 } from '../internal.js';
import { assertBytes, hex, rand, randInt } from '../helpers.js';

const ways = async () => {
  const node = nativeSha256();
  const noble = ['@noble/hashes', await nobleSha256()] as const;
  return node === undefined ? [noble] : [noble, ['node:crypto', node] as const];
};

it('HKDF-SHA-256: RFC 5869 A.1 and A.3, each way', async () => {
  for (const [way, kdf] of await ways()) {
    const ikm = new Uint8Array(22).fill(0x0b);
    const a1 = kdf.hkdf(ikm, hex('000102030405060708090a0b0c'), hex('f0f1f2f3f4f5f6f7f8f9'), 42);
    assertBytes(a1, hex('3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865'), `${way}: A.1`);
    const a3 = kdf.hkdf(ikm, new Uint8Array(0), new Uint8Array(0), 42);
    assertBytes(a3, hex('8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8'), `${way}: A.3`);
  }
});

it('HMAC-SHA-256: RFC 4231 test cases 1 and 2, each way', async () => {
  for (const [way, kdf] of await ways()) {
    const one = kdf.hmac(new Uint8Array(20).fill(0x0b), new TextEncoder().encode('Hi There'));
    assertBytes(one, hex('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'), `${way}: case 1`);
    const two = kdf.hmac(new TextEncoder().encode('Jefe'), new TextEncoder().encode('what do ya want for nothing?'));
    assertBytes(two, hex('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'), `${way}: case 2`);
  }
});

it('node:crypto and @noble/hashes give the same bytes over random inputs, plain arrays of their own', async () => {
  const all = await ways();
  for (let i = 0; i < 200; i++) {
    const ikm = rand(randInt(80));
    const salt = rand(i % 5 === 0 ? 0 : randInt(80));
    const info = rand(randInt(40));
    const length = [16, 32, 42, 64, 1 + randInt(200)][i % 5]!;
    const message = rand(randInt(300));
    const [first, ...rest] = all.map(([way, kdf]) => ({ way, okm: kdf.hkdf(ikm, salt, info, length), mac: kdf.hmac(ikm, message) }));
    for (const r of [first!, ...rest]) {
      assert.equal(r.okm.length, length, r.way);
      assert.equal(r.mac.length, 32, r.way);
      // Plain arrays, alone on their ArrayBuffers: the caller wipes them, and may post them.
      for (const out of [r.okm, r.mac]) assert.ok(out.constructor === Uint8Array && out.byteOffset === 0 && out.buffer.byteLength === out.length, r.way);
    }
    for (const r of rest) {
      assertBytes(r.okm, first!.okm, `${r.way} HKDF, case ${i}`);
      assertBytes(r.mac, first!.mac, `${r.way} HMAC, case ${i}`);
    }
  }
});
