/**
 * Poly1305: RFC 8439 vectors, and differential tests against @noble/ciphers,
 * libsodium's crypto_onetimeauth (sumo build), a BigInt transcription of
 * RFC 8439 §2.5.1, and libsodium's default build (through the
 * ChaCha20-Poly1305 AEAD tag, which is Poly1305 of a message we control under
 * a one-time key node:crypto derives), one-shot and incremental.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { poly1305 } from 'fourfold/poly1305';
import { assertBytes, detach, forEachTier, guarded, hex, loadJson, loadSodium, NO_DETACH, NO_SODIUM, rand, randInt, sumo } from '../helpers.js';
import { aeadMacData, bigintPoly1305, noblePoly1305, nodeChacha20, sodiumAead } from '../chacha/peers.js';

interface Rfc {
  poly1305: { name: string; key: string; message: string; tag: string }[];
}
const rfc = loadJson<Rfc>('vectors/rfc8439.json');

const SMALL_MAX = 1100;
const LARGE = [4095, 4096, 4097, 65535, 65536, 65537, (1 << 20) + 7];

/** Random chunk sizes summing to `len`, with empty and one-byte chunks mixed in. */
function randomSplit(len: number): number[] {
  const sizes: number[] = [];
  let left = len;
  while (left > 0) {
    const kind = randInt(6);
    const n = kind === 0 ? 0 : kind === 1 ? 1 : kind === 2 ? 16 : kind === 3 ? randInt(17) : randInt(Math.min(left, 300) + 1);
    const take = Math.min(n, left);
    sizes.push(take);
    left -= take;
  }
  sizes.push(0);
  return sizes;
}

function incremental(key: Uint8Array, msg: Uint8Array, sizes: number[]): Uint8Array {
  const h = poly1305.create(key);
  let pos = 0;
  for (const n of sizes) {
    const r = h.update(msg.subarray(pos, pos + n));
    assert.equal(r, h, 'update() must return the same object, for chaining');
    pos += n;
  }
  assert.equal(pos, msg.length);
  return h.digest();
}

before(async () => {
  await loadSodium();
});

it('the references agree: noble, BigInt RFC pseudocode and the RFC vectors', () => {
  for (const v of rfc.poly1305) {
    assertBytes(bigintPoly1305(hex(v.message), hex(v.key)), hex(v.tag), v.name);
    assertBytes(noblePoly1305(hex(v.message), hex(v.key)), hex(v.tag), v.name);
  }
  for (const len of [0, 1, 15, 16, 17, 100, 1000]) {
    const key = rand(32);
    const msg = rand(len);
    assertBytes(bigintPoly1305(msg, key), noblePoly1305(msg, key), `length ${len}`);
  }
});

forEachTier('poly1305', () => {
  it('RFC 8439 vectors (§2.5.2, A.3 #1-#11, AEAD inputs of §2.8.2 and A.5)', () => {
    assert.equal(rfc.poly1305.length, 14);
    for (const v of rfc.poly1305) {
      const msg = hex(v.message);
      const tag = poly1305(msg, hex(v.key));
      assertBytes(tag, hex(v.tag), v.name);
      assert.equal(tag.length, 16);
      assertBytes(incremental(hex(v.key), msg, msg.length ? [1, msg.length - 1] : [0]), hex(v.tag), `${v.name} split 1`);
      assertBytes(
        incremental(
          hex(v.key),
          msg,
          Array.from(msg, () => 1),
        ),
        hex(v.tag),
        `${v.name} byte by byte`,
      );
      assertBytes(incremental(hex(v.key), msg, randomSplit(msg.length)), hex(v.tag), `${v.name} random split`);
    }
  });

  it(`every length 0..${SMALL_MAX} vs noble, libsodium crypto_onetimeauth and BigInt, one-shot and with random splits`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const msg = rand(len);
      const expected = noblePoly1305(msg, key);
      if (len % 10 === 0) assertBytes(bigintPoly1305(msg, key), expected, `references disagree at ${len}`);
      assertBytes(sumo().crypto_onetimeauth(msg, key), expected, `noble and libsodium disagree at ${len}`);
      const copy = msg.slice();
      assertBytes(poly1305(msg, key), expected, `one-shot length ${len}`);
      assertBytes(msg, copy, 'message modified');
      assertBytes(incremental(key, msg, randomSplit(len)), expected, `random split length ${len}`);
      const g = guarded(msg, [1, 3, 7][len % 3]!);
      const gk = guarded(key, [1, 3, 7][(len + 1) % 3]!);
      assertBytes(poly1305(g.view, gk.view), expected, `unaligned length ${len}`);
      assert.ok(g.intact() && gk.intact());
    }
  });

  it('keys with extreme r and s (clamping, carries) vs BigInt', () => {
    const keys = [
      new Uint8Array(32).fill(0xff),
      new Uint8Array(32),
      hex('ffffffffffffffffffffffffffffffff' + '00'.repeat(16)),
      hex('00'.repeat(16) + 'ff'.repeat(16)),
      hex('0ffffffc0ffffffc0ffffffc0fffffff'.match(/../g)!.reverse().join('') + 'fb'.repeat(16)),
    ];
    for (const key of keys) {
      for (const len of [0, 1, 16, 17, 64, 255, 1024]) {
        for (const fill of [0x00, 0xff]) {
          const msg = new Uint8Array(len).fill(fill);
          const expected = bigintPoly1305(msg, key);
          assertBytes(poly1305(msg, key), expected, `key ${key[0]}/${key[31]} fill ${fill} len ${len}`);
          assertBytes(incremental(key, msg, randomSplit(len)), expected, `incremental key ${key[0]} fill ${fill} len ${len}`);
        }
      }
    }
  });

  it(`large sizes (${LARGE.join(', ')}) vs noble, libsodium and BigInt, one-shot and in pieces`, { skip: NO_SODIUM }, () => {
    for (const len of LARGE) {
      const key = rand(32);
      const msg = rand(len);
      const expected = noblePoly1305(msg, key);
      assertBytes(bigintPoly1305(msg, key), expected, `references disagree at ${len}`);
      assertBytes(sumo().crypto_onetimeauth(msg, key), expected, `noble and libsodium disagree at ${len}`);
      assertBytes(poly1305(msg, key), expected, `one-shot ${len}`);
      assertBytes(poly1305(Buffer.from(msg), key), expected, `Buffer ${len}`);
      assertBytes(incremental(key, msg, randomSplit(len)), expected, `random split ${len}`);
      assertBytes(incremental(key, msg, [3, len - 3]), expected, `3 + rest ${len}`);
      assertBytes(incremental(key, msg, [len >> 1, 0, len - (len >> 1)]), expected, `halves ${len}`);
    }
  });

  it('vs libsodium: AEAD tags are Poly1305 of AAD || pad || lengths under the block-0 key', { skip: NO_SODIUM }, () => {
    // With an empty plaintext, libsodium's chacha20poly1305_ietf tag is
    // Poly1305(otk, aad || pad16(aad) || LE64(|aad|) || LE64(0)).
    for (const len of [...Array.from({ length: 300 }, (_, i) => i), 1000, 4097, 65537]) {
      const key = rand(32);
      const nonce = rand(12);
      const aad = rand(len);
      const tag = sodiumAead(false).encrypt(key, nonce, aad, new Uint8Array(0));
      const otk = nodeChacha20(key, nonce, new Uint8Array(32), 0);
      const macData = aeadMacData(aad, new Uint8Array(0));
      assertBytes(poly1305(macData, otk), tag, `aad length ${len}`);
      assertBytes(incremental(otk, macData, randomSplit(macData.length)), tag, `aad length ${len}, incremental`);
    }
  });

  it('incremental with the same random splits as libsodium crypto_onetimeauth_update', { skip: NO_SODIUM }, () => {
    for (const len of [0, 1, 15, 16, 17, 31, 32, 33, 100, 257, 1000, 5000]) {
      for (let round = 0; round < 4; round++) {
        const key = rand(32);
        const msg = rand(len);
        const sizes = randomSplit(len);
        const st = sumo().crypto_onetimeauth_init(key);
        let pos = 0;
        for (const n of sizes) {
          sumo().crypto_onetimeauth_update(st, msg.subarray(pos, pos + n));
          pos += n;
        }
        const expected = sumo().crypto_onetimeauth_final(st);
        assertBytes(incremental(key, msg, sizes), expected, `length ${len} split ${sizes.join('+')}`);
      }
    }
  });

  it('byte-by-byte and 0-length updates everywhere', () => {
    const key = rand(32);
    const msg = rand(200);
    const expected = noblePoly1305(msg, key);
    const h = poly1305.create(key);
    for (const b of msg) h.update(new Uint8Array(0)).update(Uint8Array.of(b));
    assertBytes(h.digest(), expected);
    const empty = poly1305.create(key);
    empty.update(new Uint8Array(0)).update(new Uint8Array(0));
    assertBytes(empty.digest(), noblePoly1305(new Uint8Array(0), key), 'only empty updates');
    assertBytes(poly1305.create(key).digest(), noblePoly1305(new Uint8Array(0), key), 'no updates');
  });

  it('the key passed to create() is copied, and update() does not keep a reference to its data', () => {
    const key = rand(32);
    const msg = rand(100);
    const expected = noblePoly1305(msg, key);
    const k = key.slice();
    const h = poly1305.create(k);
    k.fill(0);
    const part = msg.slice(0, 10);
    h.update(part);
    part.fill(0);
    h.update(msg.subarray(10));
    assertBytes(h.digest(), expected);
  });

  it('a state digests once: digest() or update() afterwards throws', () => {
    const key = rand(32);
    const h = poly1305.create(key);
    h.update(rand(20));
    const tag = h.digest();
    assert.equal(tag.length, 16);
    assert.throws(() => h.digest());
    assert.throws(() => h.update(rand(5)));
  });

  it('independent states do not interfere', () => {
    const k1 = rand(32);
    const k2 = rand(32);
    const m1 = rand(333);
    const m2 = rand(777);
    const a = poly1305.create(k1);
    const b = poly1305.create(k2);
    for (let i = 0; i < 777; i += 37) {
      if (i < 333) a.update(m1.subarray(i, Math.min(i + 37, 333)));
      b.update(m2.subarray(i, i + 37));
      poly1305(rand(50), rand(32)); // one-shot calls in between
    }
    assertBytes(a.digest(), noblePoly1305(m1, k1));
    assertBytes(b.digest(), noblePoly1305(m2, k2));
  });

  it('argument errors name the argument', () => {
    const key = rand(32);
    for (const bad of [new Uint8Array(31), new Uint8Array(33), new Uint8Array(0), new Uint8Array(16)]) {
      assert.throws(
        () => poly1305(rand(10), bad),
        (e: unknown) => e instanceof RangeError && /key/.test(e.message),
        `key of ${bad.length}`,
      );
      assert.throws(
        () => poly1305.create(bad),
        (e: unknown) => e instanceof RangeError && /key/.test(e.message),
        `create key of ${bad.length}`,
      );
    }
    for (const bad of [undefined, null, 'abc', [1, 2, 3], new Uint16Array(16), new ArrayBuffer(32), 42]) {
      assert.throws(
        () => poly1305(rand(10), bad as never),
        (e: unknown) => e instanceof TypeError && /key/.test(e.message),
        `key ${String(bad)}`,
      );
      assert.throws(
        () => poly1305.create(bad as never),
        (e: unknown) => e instanceof TypeError && /key/.test(e.message),
        `create key ${String(bad)}`,
      );
      assert.throws(() => poly1305(bad as never, key), TypeError, `message ${String(bad)}`);
      assert.throws(() => poly1305.create(key).update(bad as never), TypeError, `update ${String(bad)}`);
    }
  });

  it('a detached key, message or update is a TypeError', { skip: NO_DETACH }, () => {
    const key = rand(32);
    assert.throws(() => poly1305(rand(10), detach(rand(32))), TypeError, 'detached key');
    assert.throws(() => poly1305(detach(rand(10)), key), TypeError, 'detached message');
    assert.throws(() => poly1305.create(key).update(detach(rand(10))), TypeError, 'detached update');
  });
});
