/**
 * age's HKDF-SHA-256 and HMAC-SHA-256 (src/age/sha256.ts): node:crypto's
 * (runtime/native.ts), where the engine has it, and fourfold's own in
 * JavaScript (src/age/sha256-js.ts) give RFC 5869's and RFC 4231's bytes,
 * and the same bytes as @noble/hashes' (the reference here) over random
 * inputs, empty salts, keys and messages included, keys longer than a
 * block, at the lengths age asks for and others.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { jsSha256, nativeSha256 } from '../internal.js';
import { assertBytes, hex, rand, randInt } from '../helpers.js';

/** @noble/hashes' HKDF and HMAC over SHA-256: the reference the others are held to. */
const noble = {
  hkdf: (ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number) => hkdf(sha256, ikm, salt, info, length),
  hmac: (key: Uint8Array, message: Uint8Array) => hmac(sha256, key, message),
};

const ways = async () => {
  const node = nativeSha256();
  const all = [['@noble/hashes', noble] as const, ['JavaScript', jsSha256] as const];
  return node === undefined ? all : [...all, ['node:crypto', node] as const];
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

it("fourfold's JavaScript and node:crypto give @noble/hashes' bytes over random inputs, plain arrays of their own", async () => {
  const all = await ways();
  for (let i = 0; i < 200; i++) {
    // Keys past a block (64 bytes) are hashed first (RFC 2104 §2).
    const ikm = rand(randInt(i % 7 === 0 ? 300 : 80));
    const salt = rand(i % 5 === 0 ? 0 : randInt(80));
    const info = rand(randInt(40));
    const length = [16, 32, 42, 64, 1 + randInt(200)][i % 5]!;
    const message = rand(randInt(i % 3 === 0 ? 3000 : 300));
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
