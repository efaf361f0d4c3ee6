/**
 * Differential tests of the ChaCha family at its limits, in both tiers:
 * large inputs (4 KiB around its edges, 64 KiB around its edges, 1 MiB +
 * 7) for every stream cipher and both AEADs against node:crypto, noble
 * and libsodium; IETF counters up to block 2^32 - 1, 64-bit counters
 * carrying from word 12 into 13 and up to block 2^64 - 1.
 */
import { it, before } from 'node:test';
import { chacha20, chacha20orig, xchacha20, chacha8, chacha12, chacha20poly1305, xchacha20poly1305 } from 'fourfold/chacha';
import { assertBytes, blocksOf, forEachTier, loadSodium, NO_SODIUM, rand, randInt, sumo, SUMO_MAX_COUNTER, TWO32, TWO64 } from '../helpers.js';
import { checkStreamModes, randomCounter64 } from '../stream-modes.js';
import { coreStream64, coreStreamIetf, noble, nodeAeadEncrypt, nodeChacha20, nodeChacha20orig, nodeXchacha20, sodiumAead, sodiumStreamAt1 } from './peers.js';
import { aeadCase, checkAeadModes, randomIetfCounter } from './differential-cases.js';

const LARGE = [4095, 4096, 4097, 65535, 65536, 65537, (1 << 20) + 7];

before(async () => {
  await loadSodium();
});

forEachTier('differential', () => {
  it(`large inputs (${LARGE.join(', ')} bytes): every stream cipher`, { skip: NO_SODIUM }, () => {
    for (const len of LARGE) {
      const key = rand(32);
      const key16 = rand(16);
      const n12 = rand(12);
      const n8 = rand(8);
      const n24 = rand(24);
      const data = rand(len);
      checkStreamModes(chacha20, `chacha20 ${len}`, key, n12, data, undefined, nodeChacha20(key, n12, data), len < 70000);
      const c = randomIetfCounter(len);
      checkStreamModes(chacha20, `chacha20 ${len} counter ${c}`, key, n12, data, c, nodeChacha20(key, n12, data, c), false);
      checkStreamModes(chacha8, `chacha8 ${len}`, key, n12, data, 7, noble.chacha8(key, n12, data, undefined, 7), len < 70000);
      checkStreamModes(chacha12, `chacha12 ${len}`, key, n12, data, 0, noble.chacha12(key, n12, data), len < 70000);
      checkStreamModes(chacha20orig, `chacha20orig ${len}`, key, n8, data, 3, nodeChacha20orig(key, n8, data, 3n), len < 70000);
      const c64 = randomCounter64(len);
      checkStreamModes(chacha20orig, `chacha20orig ${len} counter ${c64}n`, key, n8, data, c64, nodeChacha20orig(key, n8, data, c64), false);
      checkStreamModes(chacha20orig, `chacha20orig/16 ${len}`, key16, n8, data, undefined, noble.chacha20orig(key16, n8, data), false);
      checkStreamModes(xchacha20, `xchacha20 ${len}`, key, n24, data, undefined, noble.xchacha20(key, n24, data), len < 70000);
      checkStreamModes(xchacha20, `xchacha20 ${len} counter ${c64}n`, key, n24, data, c64, nodeXchacha20(key, n24, data, c64), false);
      assertBytes(chacha20(key, n12, data, undefined, 1), sodiumStreamAt1.chacha20(key, n12, data), `chacha20 ${len} vs libsodium`);
      assertBytes(xchacha20(key, n24, data, undefined, 1), sodiumStreamAt1.xchacha20(key, n24, data), `xchacha20 ${len} vs libsodium`);
      const c31 = randInt(SUMO_MAX_COUNTER - blocksOf(len));
      assertBytes(
        chacha20(key, n12, data, undefined, c31),
        sumo().crypto_stream_chacha20_ietf_xor_ic(data, n12, c31, key),
        `chacha20 ${len} vs libsodium (sumo)`,
      );
      assertBytes(
        chacha20orig(key, n8, data, undefined, c31),
        sumo().crypto_stream_chacha20_xor_ic(data, n8, c31, key),
        `chacha20orig ${len} vs libsodium (sumo)`,
      );
      assertBytes(
        xchacha20(key, n24, data, undefined, c31),
        sumo().crypto_stream_xchacha20_xor_ic(data, n24, c31, key),
        `xchacha20 ${len} vs libsodium (sumo)`,
      );
    }
  });

  it(`large inputs (${LARGE.join(', ')} bytes): both AEADs, with and without aad`, { skip: NO_SODIUM }, () => {
    for (const len of LARGE) {
      for (const withAad of [false, true]) {
        const c = aeadCase(12, len, withAad);
        assertBytes(nodeAeadEncrypt(c.key, c.nonce, c.aad, c.pt), c.sealed, `peers disagree at ${len}`);
        checkAeadModes(chacha20poly1305, `chacha20poly1305 ${len} aad=${withAad}`, c, len < 70000);
        const x = aeadCase(24, len, withAad);
        assertBytes(sodiumAead(true).encrypt(x.key, x.nonce, x.aad, x.pt), x.sealed, `peers disagree at ${len}`);
        checkAeadModes(xchacha20poly1305, `xchacha20poly1305 ${len} aad=${withAad}`, x, len < 70000);
      }
    }
    // A large AAD with a small message, and the reverse of the usual sizes.
    const key = rand(32);
    const nonce = rand(12);
    const aad = rand(70001);
    const pt = rand(33);
    const sealed = nodeAeadEncrypt(key, nonce, aad, pt);
    checkAeadModes(chacha20poly1305, 'large aad', { key, nonce, aad, pt, sealed });
  });

  it('IETF counters (chacha20, chacha8, chacha12) up to block 2^32 - 1 exactly', () => {
    const key = rand(32);
    const nonce = rand(12);
    const ref = {
      chacha20: (d: Uint8Array, c: number) => nodeChacha20(key, nonce, d, c),
      chacha8: (d: Uint8Array, c: number) => coreStreamIetf(key, nonce, d, c, 8),
      chacha12: (d: Uint8Array, c: number) => coreStreamIetf(key, nonce, d, c, 12),
    };
    const ours = { chacha20, chacha8, chacha12 };
    for (const name of ['chacha20', 'chacha8', 'chacha12'] as const) {
      for (let blocks = 1; blocks <= 9; blocks++) {
        const start = TWO32 - blocks;
        for (const len of [64 * blocks, 64 * blocks - 1, 64 * (blocks - 1) + 1]) {
          const data = rand(len);
          checkStreamModes(ours[name], `${name} counter 2^32-${blocks} len ${len}`, key, nonce, data, start, ref[name](data, start), len % 2 === 0);
        }
      }
      // Long enough for the four-block path to end exactly on the last block.
      const big = rand(64 * 1024);
      const start = TWO32 - 1024;
      checkStreamModes(ours[name], `${name} 1024 blocks ending at 2^32-1`, key, nonce, big, start, ref[name](big, start), false);
      assertBytes(ours[name](key, nonce, big.subarray(1), undefined, start), ref[name](big.subarray(1), start), `${name} 1023.98 blocks`);
      // Nothing to encrypt at the last valid counter.
      assertBytes(ours[name](key, nonce, new Uint8Array(0), undefined, 0xffffffff), new Uint8Array(0), `${name} empty at 2^32-1`);
    }
  });

  it('64-bit counters carry from word 12 into word 13 (chacha20orig with 32- and 16-byte keys, xchacha20)', () => {
    const key = rand(32);
    const key16 = rand(16);
    const n8 = rand(8);
    const n24 = rand(24);
    for (let back = 1; back <= 8; back++) {
      for (const hi of [0, 1, 0xfffffffe]) {
        const start = BigInt(hi) * BigInt(TWO32) + BigInt(TWO32 - back);
        for (const len of [640 + 10, 64 * 16, 64 * 16 + 33]) {
          const data = rand(len);
          const label = `start 0x${start.toString(16)} len ${len}`;
          checkStreamModes(chacha20orig, `chacha20orig ${label}`, key, n8, data, start, nodeChacha20orig(key, n8, data, start), back === 3);
          checkStreamModes(chacha20orig, `chacha20orig/16 ${label}`, key16, n8, data, start, coreStream64(key16, n8, data, start), false);
          checkStreamModes(xchacha20, `xchacha20 ${label}`, key, n24, data, start, nodeXchacha20(key, n24, data, start), false);
        }
      }
    }
    // The brief's example: start at 2^32 - 3 with ten blocks, given as a number and as a bigint.
    const data = rand(640);
    const expected = nodeChacha20orig(key, n8, data, BigInt(TWO32 - 3));
    assertBytes(chacha20orig(key, n8, data, undefined, TWO32 - 3), expected, 'number counter 2^32 - 3');
    assertBytes(chacha20orig(key, n8, data, undefined, BigInt(TWO32 - 3)), expected, 'bigint counter 2^32 - 3');
    // Number and bigint counters are the same counter.
    const safe = Number.MAX_SAFE_INTEGER - 20;
    assertBytes(xchacha20(key, n24, data, undefined, safe), nodeXchacha20(key, n24, data, BigInt(safe)), 'largest safe numbers');
    assertBytes(xchacha20(key, n24, data, undefined, safe), xchacha20(key, n24, data, undefined, BigInt(safe)), 'number vs bigint');
  });

  it('64-bit counters up to block 2^64 - 1 exactly', () => {
    const key = rand(32);
    const n8 = rand(8);
    const n24 = rand(24);
    for (let blocks = 1; blocks <= 6; blocks++) {
      const start = TWO64 - BigInt(blocks);
      for (const len of [64 * blocks, 64 * blocks - 5]) {
        const data = rand(len);
        checkStreamModes(chacha20orig, `chacha20orig 2^64-${blocks} len ${len}`, key, n8, data, start, nodeChacha20orig(key, n8, data, start), blocks === 4);
        checkStreamModes(xchacha20, `xchacha20 2^64-${blocks} len ${len}`, key, n24, data, start, nodeXchacha20(key, n24, data, start), false);
      }
    }
    const big = rand(64 * 257);
    const start = TWO64 - 257n;
    assertBytes(chacha20orig(key, n8, big, undefined, start), nodeChacha20orig(key, n8, big, start), '257 blocks ending at 2^64 - 1');
    assertBytes(chacha20orig(key, n8, new Uint8Array(0), undefined, TWO64 - 1n), new Uint8Array(0), 'empty at 2^64 - 1');
  });
});
