/**
 * ChaCha's stream ciphers and HChaCha20 (fourfold/chacha), their errors:
 * argument checking, counter limits, detached buffers; AuthenticationError
 * itself. The AEADs' errors (and that no plaintext survives in a caller's
 * buffer after a failed check) are aead-errors.test.ts's. ready() and
 * tier(): test/runtime/tiers.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { chacha20, chacha20orig, xchacha20, chacha8, chacha12, hchacha20, chacha20poly1305 } from 'fourfold/chacha';
import { assertBytes, detach, HAS_TRANSFER, NO_DETACH, forEachTier, rand, TWO32, TWO64 } from '../helpers.js';
import { nodeChacha20, nodeChacha20orig } from './peers.js';
import type { StreamFn } from '../stream-modes.js';
import { NOT_BYTES, NOT_BYTES_REQUIRED, rangeErr, typeErr, typeOrRange } from './bad-arguments.js';

const STREAMS: { name: string; fn: StreamFn; keys: number[]; nonce: number; bits: 32 | 64 }[] = [
  { name: 'chacha20', fn: chacha20, keys: [32], nonce: 12, bits: 32 },
  { name: 'chacha8', fn: chacha8, keys: [32], nonce: 12, bits: 32 },
  { name: 'chacha12', fn: chacha12, keys: [32], nonce: 12, bits: 32 },
  { name: 'chacha20orig', fn: chacha20orig, keys: [16, 32], nonce: 8, bits: 64 },
  { name: 'xchacha20', fn: xchacha20, keys: [32], nonce: 24, bits: 64 },
];

it('AuthenticationError is an exported Error subclass named AuthenticationError', () => {
  const e = new AuthenticationError();
  assert.ok(e instanceof Error);
  assert.ok(e instanceof AuthenticationError);
  assert.equal(e.name, 'AuthenticationError');
  assert.ok(!(e instanceof TypeError) && !(e instanceof RangeError));
});

forEachTier('errors', () => {
  for (const s of STREAMS) {
    const K = s.keys[s.keys.length - 1]!;
    const args = () => ({ key: rand(K), nonce: rand(s.nonce), data: rand(100) });

    it(`${s.name}: non-Uint8Array arguments are TypeErrors naming the argument`, () => {
      const { key, nonce, data } = args();
      for (const bad of NOT_BYTES_REQUIRED) {
        assert.throws(() => s.fn(bad as never, nonce, data), typeErr('key'), `key = ${String(bad)}`);
        assert.throws(() => s.fn(key, bad as never, data), typeErr('nonce'), `nonce = ${String(bad)}`);
        assert.throws(() => s.fn(key, nonce, bad as never), typeErr('data'), `data = ${String(bad)}`);
      }
      for (const bad of NOT_BYTES) {
        assert.throws(() => s.fn(key, nonce, data, bad as never), typeErr('output'), `output = ${String(bad)}`);
      }
    });

    it(`${s.name}: wrong lengths are RangeErrors naming the argument`, () => {
      const { key, nonce, data } = args();
      for (const n of [0, 1, 15, 16, 24, 31, 33, 64]) {
        if (s.keys.includes(n)) continue;
        assert.throws(() => s.fn(rand(n), nonce, data), rangeErr('key'), `key of ${n} bytes`);
      }
      for (const n of [0, 8, 11, 12, 13, 16, 23, 24, 25, 32]) {
        if (n === s.nonce) continue;
        assert.throws(() => s.fn(key, rand(n), data), rangeErr('nonce'), `nonce of ${n} bytes`);
      }
      for (const n of [0, 99, 101, 164]) {
        assert.throws(() => s.fn(key, nonce, data, new Uint8Array(n)), rangeErr('output'), `output of ${n} bytes`);
      }
    });

    it(`${s.name}: detached buffers are TypeErrors`, { skip: NO_DETACH }, () => {
      const { key, nonce, data } = args();
      assert.throws(() => s.fn(detach(rand(K)), nonce, data), TypeError, 'detached key');
      assert.throws(() => s.fn(key, detach(rand(s.nonce)), data), TypeError, 'detached nonce');
      assert.throws(() => s.fn(key, nonce, detach(rand(100))), TypeError, 'detached data');
      assert.throws(() => s.fn(key, nonce, data, detach(new Uint8Array(100))), TypeError, 'detached output');
      // A detached output where an empty one would be the right length.
      assert.throws(() => s.fn(key, nonce, new Uint8Array(0), detach(new Uint8Array(8))), TypeError, 'detached empty output');
      assert.throws(() => s.fn(key, nonce, detach(new Uint8Array(8)), new Uint8Array(0)), TypeError, 'detached empty data');
      // Views onto a detached buffer are detached too.
      const big = rand(64);
      const view = big.subarray(0, 32);
      detach(big);
      assert.throws(() => s.fn(key, nonce, view), TypeError, 'view of a detached buffer');
    });

    it(`${s.name}: a partially overlapping output is a RangeError; in place and disjoint are fine`, () => {
      const { key, nonce } = args();
      const buf = rand(300);
      const ref = buf.slice();
      for (const [d, o] of [
        [0, 1],
        [1, 0],
        [0, 63],
        [64, 0],
        [10, 109],
      ] as const) {
        const data = buf.subarray(d, d + 110);
        const out = buf.subarray(o, o + 110);
        assert.throws(() => s.fn(key, nonce, data, out), rangeErr('output'), `data at ${d}, output at ${o}`);
      }
      assertBytes(buf, ref, 'a rejected call must not write');
      const expected = s.fn(key, nonce, buf.slice(0, 100));
      const out = buf.subarray(100, 200);
      s.fn(key, nonce, buf.subarray(0, 100), out);
      assertBytes(out, expected, 'disjoint output in the same buffer');
      const inPlace = buf.subarray(0, 100);
      s.fn(key, nonce, inPlace, inPlace);
      assertBytes(inPlace, expected, 'in place');
      // Separate views of the same bytes count as in place.
      const again = ref.slice(0, 100);
      s.fn(key, nonce, again.subarray(0), new Uint8Array(again.buffer, 0, 100));
      assertBytes(again, expected, 'in place through two view objects');
    });

    it(`${s.name}: Buffer arguments are accepted`, () => {
      const key = rand(K);
      const nonce = rand(s.nonce);
      const data = rand(77);
      const expected = s.fn(key, nonce, data);
      assertBytes(s.fn(Buffer.from(key), Buffer.from(nonce), Buffer.from(data)), expected, 'Buffers');
      const out = Buffer.alloc(77);
      assert.equal(s.fn(key, nonce, data, out), out);
      assertBytes(out, expected, 'Buffer output');
    });

    it(`${s.name}: invalid counters`, () => {
      const { key, nonce, data } = args();
      for (const bad of [-1, -0.5, 1.5, NaN, Infinity, -Infinity]) {
        assert.throws(() => s.fn(key, nonce, data, undefined, bad), typeOrRange, `counter ${bad}`);
      }
      for (const bad of ['1', {}, [], null, true]) {
        assert.throws(() => s.fn(key, nonce, data, undefined, bad as never), TypeError, `counter ${String(bad)}`);
      }
      if (s.bits === 64) assert.throws(() => s.fn(key, nonce, data, undefined, -1n), RangeError, 'counter -1n');
    });

    if (s.bits === 32) {
      it(`${s.name}: the 32-bit counter may reach block 2^32 - 1 but not pass it`, () => {
        const { key, nonce } = args();
        const cases: [number, number][] = [
          [0xffffffff, 65],
          [0xffffffff, 128],
          [0xfffffffe, 129],
          [0xfffffff0, 64 * 16 + 1],
          [TWO32 - 1024, 64 * 1024 + 1],
          [TWO32, 0],
          [TWO32, 1],
          [TWO32 + 5, 64],
          [2 ** 40, 1],
        ];
        for (const [c, len] of cases) {
          const out = new Uint8Array(len).fill(0x77);
          assert.throws(() => s.fn(key, nonce, rand(len), out, c), RangeError, `counter ${c}, ${len} bytes`);
          assert.ok(
            out.every((b) => b === 0x77),
            `counter ${c}, ${len} bytes: rejected before writing anything`,
          );
        }
        // The largest allowed requests succeed (values are checked in differential.test.ts).
        assert.equal(s.fn(key, nonce, rand(64), undefined, 0xffffffff).length, 64);
        assert.equal(s.fn(key, nonce, rand(128), undefined, 0xfffffffe).length, 128);
        assert.equal(s.fn(key, nonce, new Uint8Array(0), undefined, 0xffffffff).length, 0);
        if (s.name === 'chacha20') {
          const d = rand(64);
          assertBytes(chacha20(key, nonce, d, undefined, 0xffffffff), nodeChacha20(key, nonce, d, 0xffffffff), 'last block value');
        }
      });
    } else {
      it(`${s.name}: the 64-bit counter carries past 2^32 but may not pass block 2^64 - 1`, () => {
        const { key, nonce } = args();
        const cases: [bigint, number][] = [
          [TWO64 - 1n, 65],
          [TWO64 - 2n, 129],
          [TWO64 - 16n, 64 * 16 + 1],
          [TWO64, 0],
          [TWO64, 64],
          [TWO64 + 1n, 1],
          [1n << 65n, 1],
        ];
        for (const [c, len] of cases) {
          const out = new Uint8Array(len).fill(0x77);
          assert.throws(() => s.fn(key, nonce, rand(len), out, c), RangeError, `counter ${c}, ${len} bytes`);
          assert.ok(
            out.every((b) => b === 0x77),
            `counter ${c}, ${len} bytes: rejected before writing anything`,
          );
        }
        assert.equal(s.fn(key, nonce, rand(64), undefined, TWO64 - 1n).length, 64);
        assert.equal(s.fn(key, nonce, rand(65), undefined, TWO32 - 1).length, 65, 'a number counter carries too');
        assert.equal(s.fn(key, nonce, new Uint8Array(0), undefined, TWO64 - 1n).length, 0);
        if (s.name === 'chacha20orig' && K === 32) {
          const d = rand(64);
          assertBytes(chacha20orig(key, nonce, d, undefined, TWO64 - 1n), nodeChacha20orig(key, nonce, d, TWO64 - 1n), 'last block value');
        }
      });
    }
  }

  it('hchacha20: argument errors', () => {
    const key = rand(32);
    const nonce = rand(16);
    assert.equal(hchacha20(key, nonce).length, 32);
    for (const bad of NOT_BYTES_REQUIRED) {
      assert.throws(() => hchacha20(bad as never, nonce), typeErr('key'), `key = ${String(bad)}`);
      assert.throws(() => hchacha20(key, bad as never), typeErr('nonce'), `nonce = ${String(bad)}`);
    }
    for (const n of [0, 16, 31, 33]) assert.throws(() => hchacha20(rand(n), nonce), rangeErr('key'), `key of ${n}`);
    for (const n of [0, 8, 12, 15, 17, 24]) assert.throws(() => hchacha20(key, rand(n)), rangeErr('nonce'), `nonce of ${n}`);
    assertBytes(hchacha20(Buffer.from(key), Buffer.from(nonce)), hchacha20(key, nonce), 'Buffer arguments');
  });

  it('hchacha20: a detached key or nonce is a TypeError', { skip: NO_DETACH }, () => {
    assert.throws(() => hchacha20(detach(rand(32)), rand(16)), TypeError);
    assert.throws(() => hchacha20(rand(32), detach(rand(16))), TypeError);
  });

  // Detached by ArrayBuffer.prototype.transfer() where the engine has it (Node 22+, browsers), else by structuredClone.
  it('buffers detached by transfer are TypeErrors too', { skip: NO_DETACH }, () => {
    const how = HAS_TRANSFER ? 'transfer' : 'structuredClone';
    const key = rand(32);
    const nonce = rand(12);
    const data = rand(50);
    assert.throws(() => chacha20(detach(rand(32), how), nonce, data), TypeError, 'key');
    assert.throws(() => chacha20(key, detach(rand(12), how), data), TypeError, 'nonce');
    assert.throws(() => chacha20(key, nonce, detach(rand(50), how)), TypeError, 'data');
    assert.throws(() => chacha20(key, nonce, data, detach(new Uint8Array(50), how)), TypeError, 'output');
    assert.throws(() => chacha20poly1305(key, nonce, detach(rand(5), how)).encrypt(data), TypeError, 'aad');
    assert.throws(() => chacha20poly1305(key, nonce).encrypt(detach(rand(50), how)), TypeError, 'plaintext');
    assert.throws(() => chacha20poly1305(key, nonce).decrypt(detach(rand(66), how)), TypeError, 'ciphertext');
  });
});
