/**
 * Differential tests of the ChaCha family against independent peers:
 * @noble/ciphers, libsodium (the sumo build's crypto_stream_*_xor_ic for
 * counters below 2^31, which is all its JS wrapper accepts, and the default
 * build's AEADs, whose payload is the stream cipher at block counter 1) and
 * node:crypto (OpenSSL; 64-bit counters split where the high word changes). Every length
 * 0..1100, unaligned views, in-place and caller outputs, random counters,
 * in both tiers; the tiers against each other. The large inputs and the
 * counters at the 2^32 / 2^64 limits are differential-limits.test.ts's.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { chacha20, chacha20orig, xchacha20, chacha8, chacha12, chacha20poly1305, xchacha20poly1305 } from 'fourfold/chacha';
import { assertBytes, blocksOf, forEachTier, loadSodium, NO_SODIUM, NO_SIMD, rand, randInt, sumo, SUMO_MAX_COUNTER, TIERS, TWO32, TWO64 } from '../helpers.js';
import { checkStreamModes, randomCounter64 } from '../stream-modes.js';
import {
  coreStream64,
  coreStreamIetf,
  noble,
  nobleCanDo,
  nodeAeadDecrypt,
  nodeAeadEncrypt,
  nodeChacha20,
  nodeChacha20orig,
  nodeXchacha20,
  NO_NODE_CHACHA,
  sodiumAead,
  sodiumStreamAt1,
} from './peers.js';
import { aeadCase, checkAeadModes, randomIetfCounter } from './differential-cases.js';

const SMALL_MAX = 1100;

before(async () => {
  await loadSodium();
});

// ------------------------------------------------------------------ peers agree with each other

it('the peers agree with each other (guards the reference helpers)', { skip: NO_SODIUM }, () => {
  for (const len of [0, 1, 63, 64, 65, 200, 1000]) {
    const key = rand(32);
    const key16 = rand(16);
    const n12 = rand(12);
    const n8 = rand(8);
    const n24 = rand(24);
    const data = rand(len);
    const c = randInt(1000);
    assertBytes(coreStreamIetf(key, n12, data, c), noble.chacha20(key, n12, data, undefined, c), `chacha20 core/noble ${len}`);
    assertBytes(sodiumStreamAt1.chacha20(key, n12, data), noble.chacha20(key, n12, data, undefined, 1), `chacha20 sodium/noble ${len}`);
    assertBytes(coreStreamIetf(key, n12, data, c, 8), noble.chacha8(key, n12, data, undefined, c), `chacha8 core/noble ${len}`);
    assertBytes(coreStreamIetf(key, n12, data, c, 12), noble.chacha12(key, n12, data, undefined, c), `chacha12 core/noble ${len}`);
    assertBytes(coreStream64(key, n8, data, BigInt(c)), noble.chacha20orig(key, n8, data, undefined, c), `orig core/noble ${len}`);
    assertBytes(coreStream64(key16, n8, data, BigInt(c)), noble.chacha20orig(key16, n8, data, undefined, c), `orig16 core/noble ${len}`);
    assertBytes(sodiumStreamAt1.chacha20orig(key, n8, data), noble.chacha20orig(key, n8, data, undefined, 1), `orig sodium/noble ${len}`);
    assertBytes(sodiumStreamAt1.xchacha20(key, n24, data), noble.xchacha20(key, n24, data, undefined, 1), `xchacha sodium/noble ${len}`);
    const aad = rand(len % 40);
    const s1 = noble.chacha20poly1305(key, n12, aad).encrypt(data);
    assertBytes(sodiumAead(false).encrypt(key, n12, aad, data), s1, `aead sodium/noble ${len}`);
    assertBytes(sodiumAead(true).encrypt(key, n24, aad, data), noble.xchacha20poly1305(key, n24, aad).encrypt(data), `xaead sodium/noble ${len}`);
    const c31 = SUMO_MAX_COUNTER - randInt(1000) - blocksOf(len);
    assertBytes(sumo().crypto_stream_chacha20_ietf_xor_ic(data, n12, c31, key), nodeChacha20(key, n12, data, c31), `chacha20 sumo/node ${len}`);
    assertBytes(sumo().crypto_stream_chacha20_xor_ic(data, n8, c31, key), nodeChacha20orig(key, n8, data, BigInt(c31)), `orig sumo/node ${len}`);
    assertBytes(sumo().crypto_stream_xchacha20_xor_ic(data, n24, c31, key), nodeXchacha20(key, n24, data, BigInt(c31)), `xchacha sumo/node ${len}`);
  }
});

it('node:crypto (OpenSSL) agrees with noble, also across the 2^32 carry and at 2^64 - 1', { skip: NO_NODE_CHACHA }, () => {
  for (const len of [0, 1, 63, 64, 65, 200, 1000]) {
    const key = rand(32);
    const n12 = rand(12);
    const n8 = rand(8);
    const n24 = rand(24);
    const data = rand(len);
    const c = randInt(1000);
    assertBytes(nodeChacha20(key, n12, data, c), noble.chacha20(key, n12, data, undefined, c), `chacha20 node/noble ${len}`);
    assertBytes(nodeChacha20orig(key, n8, data, BigInt(c)), noble.chacha20orig(key, n8, data, undefined, c), `orig node/noble ${len}`);
    assertBytes(nodeXchacha20(key, n24, data, BigInt(c)), noble.xchacha20(key, n24, data, undefined, c), `xchacha node/noble ${len}`);
    const aad = rand(len % 40);
    assertBytes(nodeAeadEncrypt(key, n12, aad, data), noble.chacha20poly1305(key, n12, aad).encrypt(data), `aead node/noble ${len}`);
  }
  // The split OpenSSL computation and noble's core agree across the 2^32 carry and at 2^64 - 1.
  const key = rand(32);
  const n8 = rand(8);
  for (const start of [TWO32 - 3, TWO32 - 1, 2 * TWO32 - 2]) {
    const data = rand(650);
    assertBytes(nodeChacha20orig(key, n8, data, BigInt(start)), coreStream64(key, n8, data, BigInt(start)), `carry at ${start}`);
  }
  const top = rand(256);
  assertBytes(nodeChacha20orig(key, n8, top, TWO64 - 4n), coreStream64(key, n8, top, TWO64 - 4n), 'at 2^64 - 4');
});

// ------------------------------------------------------------------ per tier

forEachTier('differential', () => {
  it(`chacha20 (RFC 8439) for every length 0..${SMALL_MAX} vs node:crypto, noble and libsodium (AEAD and sumo)`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const nonce = rand(12);
      const data = rand(len);
      const expected0 = nodeChacha20(key, nonce, data, 0);
      assertBytes(noble.chacha20(key, nonce, data), expected0, `peers disagree at ${len}`);
      checkStreamModes(chacha20, `chacha20 len ${len}`, key, nonce, data, len % 2 ? undefined : 0, expected0);
      const c = randomIetfCounter(len);
      checkStreamModes(chacha20, `chacha20 len ${len} counter ${c}`, key, nonce, data, c, nodeChacha20(key, nonce, data, c), false);
      assertBytes(chacha20(key, nonce, data, undefined, 1), sodiumStreamAt1.chacha20(key, nonce, data), `chacha20 len ${len} counter 1 vs libsodium`);
      const c31 = randInt(SUMO_MAX_COUNTER + 1);
      assertBytes(
        chacha20(key, nonce, data, undefined, c31),
        sumo().crypto_stream_chacha20_ietf_xor_ic(data, nonce, c31, key),
        `chacha20 len ${len} counter ${c31} vs libsodium (sumo)`,
      );
    }
  });

  for (const [name, fn, ref, rounds] of [
    ['chacha8', chacha8, noble.chacha8, 8],
    ['chacha12', chacha12, noble.chacha12, 12],
  ] as const) {
    it(`${name} for every length 0..${SMALL_MAX} vs noble (and noble's block core for high counters)`, () => {
      for (let len = 0; len <= SMALL_MAX; len++) {
        const key = rand(32);
        const nonce = rand(12);
        const data = rand(len);
        checkStreamModes(fn, `${name} len ${len}`, key, nonce, data, len % 2 ? undefined : 0, ref(key, nonce, data));
        const c = randomIetfCounter(len);
        const expected = nobleCanDo(c, len) ? ref(key, nonce, data, undefined, c) : coreStreamIetf(key, nonce, data, c, rounds);
        checkStreamModes(fn, `${name} len ${len} counter ${c}`, key, nonce, data, c, expected, false);
      }
    });
  }

  it(`chacha20orig (32-byte key) for every length 0..${SMALL_MAX} vs node:crypto, noble and libsodium, random 64-bit counters`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const nonce = rand(8);
      const data = rand(len);
      const expected0 = nodeChacha20orig(key, nonce, data, 0n);
      assertBytes(noble.chacha20orig(key, nonce, data), expected0, `peers disagree at ${len}`);
      checkStreamModes(chacha20orig, `chacha20orig len ${len}`, key, nonce, data, len % 2 ? undefined : 0, expected0);
      const c = randomCounter64(len);
      checkStreamModes(chacha20orig, `chacha20orig len ${len} counter ${c}n`, key, nonce, data, c, nodeChacha20orig(key, nonce, data, c), false);
      assertBytes(
        chacha20orig(key, nonce, data, undefined, 1),
        sodiumStreamAt1.chacha20orig(key, nonce, data),
        `chacha20orig len ${len} counter 1 vs libsodium`,
      );
      const c31 = randInt(SUMO_MAX_COUNTER + 1);
      assertBytes(
        chacha20orig(key, nonce, data, undefined, BigInt(c31)),
        sumo().crypto_stream_chacha20_xor_ic(data, nonce, c31, key),
        `chacha20orig len ${len} counter ${c31}n vs libsodium (sumo)`,
      );
    }
  });

  it(`chacha20orig (16-byte key, "expand 16-byte k") for every length 0..${SMALL_MAX} vs noble`, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(16);
      const nonce = rand(8);
      const data = rand(len);
      checkStreamModes(chacha20orig, `chacha20orig/16 len ${len}`, key, nonce, data, undefined, noble.chacha20orig(key, nonce, data));
      const c = randomCounter64(len);
      checkStreamModes(chacha20orig, `chacha20orig/16 len ${len} counter ${c}n`, key, nonce, data, c, coreStream64(key, nonce, data, c), false);
    }
  });

  it(`xchacha20 for every length 0..${SMALL_MAX} vs noble, node:crypto (+ noble HChaCha20) and libsodium, random 64-bit counters`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const nonce = rand(24);
      const data = rand(len);
      const expected0 = noble.xchacha20(key, nonce, data);
      checkStreamModes(xchacha20, `xchacha20 len ${len}`, key, nonce, data, len % 2 ? undefined : 0, expected0);
      const c = randomCounter64(len);
      const counter = len % 3 === 0 && c <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(c) : c;
      checkStreamModes(xchacha20, `xchacha20 len ${len} counter ${c}`, key, nonce, data, counter, nodeXchacha20(key, nonce, data, c), false);
      assertBytes(xchacha20(key, nonce, data, undefined, 1n), sodiumStreamAt1.xchacha20(key, nonce, data), `xchacha20 len ${len} counter 1n vs libsodium`);
      const c31 = randInt(SUMO_MAX_COUNTER + 1);
      assertBytes(
        xchacha20(key, nonce, data, undefined, c31),
        sumo().crypto_stream_xchacha20_xor_ic(data, nonce, c31, key),
        `xchacha20 len ${len} counter ${c31} vs libsodium (sumo)`,
      );
    }
  });

  for (const withAad of [false, true]) {
    const tag = withAad ? 'with aad' : 'without aad';
    it(`chacha20poly1305 ${tag} for every length 0..${SMALL_MAX} vs noble, node:crypto and libsodium`, { skip: NO_SODIUM }, () => {
      for (let len = 0; len <= SMALL_MAX; len++) {
        const c = aeadCase(12, len, withAad);
        if (len % 16 === 0) {
          assertBytes(nodeAeadEncrypt(c.key, c.nonce, c.aad, c.pt), c.sealed, `peers disagree at ${len}`);
          assertBytes(sodiumAead(false).encrypt(c.key, c.nonce, c.aad, c.pt), c.sealed, `peers disagree at ${len}`);
        }
        checkAeadModes(chacha20poly1305, `chacha20poly1305 ${tag} len ${len}`, c);
        // Our sealing opened by the peers.
        const ours = chacha20poly1305(c.key, c.nonce, c.aad).encrypt(c.pt);
        assertBytes(nodeAeadDecrypt(c.key, c.nonce, c.aad, ours), c.pt, `node opens ours at ${len}`);
        assertBytes(sodiumAead(false).decrypt(c.key, c.nonce, c.aad, ours), c.pt, `libsodium opens ours at ${len}`);
      }
    });

    it(`xchacha20poly1305 ${tag} for every length 0..${SMALL_MAX} vs noble and libsodium`, { skip: NO_SODIUM }, () => {
      for (let len = 0; len <= SMALL_MAX; len++) {
        const c = aeadCase(24, len, withAad);
        if (len % 16 === 0) assertBytes(sodiumAead(true).encrypt(c.key, c.nonce, c.aad, c.pt), c.sealed, `peers disagree at ${len}`);
        checkAeadModes(xchacha20poly1305, `xchacha20poly1305 ${tag} len ${len}`, c);
        const ours = xchacha20poly1305(c.key, c.nonce, c.aad).encrypt(c.pt);
        assertBytes(sodiumAead(true).decrypt(c.key, c.nonce, c.aad, ours), c.pt, `libsodium opens ours at ${len}`);
      }
    });
  }

  it("one AEAD object, many calls: every encrypt equals noble's, with decrypts and other calls in between", () => {
    // noble refuses a second encrypt on one object; fourfold does not (README),
    // so nothing a call leaves in the kernel (keystream blocks from aead_init,
    // the counter, the MAC state) may reach the next one. Lengths cover the
    // two- and four-block starts, a longer message and more than one slice.
    for (const len of [0, 1, 64, 65, 150, 192, 193, 1000, 40000]) {
      for (const nonceLength of [12, 24] as const) {
        const c = aeadCase(nonceLength, len, len % 2 === 1);
        const make = nonceLength === 12 ? chacha20poly1305 : xchacha20poly1305;
        const aead = make(c.key, c.nonce, c.aad);
        const label = `${make.name} ${len}`;
        assertBytes(aead.encrypt(c.pt), c.sealed, `${label}: first encrypt`);
        assertBytes(aead.decrypt(c.sealed), c.pt, `${label}: decrypt between encrypts`);
        chacha20(rand(32), rand(12), rand(len + 7));
        assertBytes(aead.encrypt(c.pt), c.sealed, `${label}: second encrypt`);
        assertBytes(aead.encrypt(c.pt, new Uint8Array(len + 16)), c.sealed, `${label}: third encrypt, into an output`);
      }
    }
  });
});

// ------------------------------------------------------------------ tiers agree

it('the simd and js tiers agree with each other on every primitive', { skip: NO_SIMD }, async () => {
  const lengths = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 4097, 65537];
  for (const len of lengths) {
    const key = rand(32);
    const key16 = rand(16);
    const n12 = rand(12);
    const n8 = rand(8);
    const n24 = rand(24);
    const aad = rand(len % 50);
    const data = rand(len);
    const c64 = BigInt(TWO32 - 2);
    const run = () => [
      chacha20(key, n12, data, undefined, 5),
      chacha8(key, n12, data),
      chacha12(key, n12, data),
      chacha20orig(key, n8, data, undefined, c64),
      chacha20orig(key16, n8, data),
      xchacha20(key, n24, data, undefined, c64),
      chacha20poly1305(key, n12, aad).encrypt(data),
      xchacha20poly1305(key, n24, aad).encrypt(data),
    ];
    const results: Uint8Array[][] = [];
    for (const t of TIERS) {
      assert.equal(await ready({ tier: t }), t);
      results.push(run());
    }
    results[0]!.forEach((r, i) => {
      assertBytes(r, results[1]![i]!, `primitive #${i} at length ${len}: simd vs js`);
    });
  }
});
