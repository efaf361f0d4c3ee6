/**
 * Differential tests of the Salsa20 family against independent peers:
 * libsodium (the sumo build's compiled crypto_stream_salsa20_xor_ic,
 * crypto_stream_xsalsa20_xor_ic with full 64-bit counters,
 * crypto_stream_salsa2012/208, crypto_core_salsa20* for counters and round
 * counts the stream functions cannot take, crypto_core_hsalsa20 and
 * crypto_secretbox_easy) and @noble/ciphers (salsa20 with 16-byte keys,
 * xsalsa20, hsalsa, xsalsa20poly1305, secretbox). Every length 0..1100 and
 * the block, group, slice and 64 KiB boundaries, unaligned views, in place
 * and caller outputs, counters across 2^32 and up to 2^64 - 1, both tiers.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { hsalsa20, salsa20, salsa2012, salsa208, secretbox, xsalsa20, xsalsa20poly1305 } from 'fourfold/salsa';
import * as nobleSalsa from '@noble/ciphers/salsa.js';
import { assertBytes, blocksOf, forEachTier, guarded, loadSodium, NO_SODIUM, rand, randInt, sodium, sumo, TWO32, TWO64 } from '../helpers.js';
import { checkStreamModes, randomCounter64 } from '../stream-modes.js';
import { coreStream, sodiumReduced, sodiumSalsa20, sodiumXsalsa20 } from './peers.js';

const SMALL_MAX = 1100;
/** Block (64), 4- and 8-block group (256, 512), slice (32768, and the secretbox's 32736) and 64 KiB boundaries. */
const LARGE = [4095, 4096, 4097, 32735, 32736, 32737, 32767, 32768, 32769, 65535, 65536, 65537, (1 << 20) + 7];
/** Guard offsets for unaligned views: 16-bit alignment too. */
const OFFSETS = [1, 2, 3] as const;
/** checkStreamModes with these offsets. */
const checkModes: typeof checkStreamModes = (fn, label, key, nonce, data, counter, expected, all = true) =>
  checkStreamModes(fn, label, key, nonce, data, counter, expected, all, OFFSETS);

/**
 * The secretbox in every mode against `sealed` (libsodium's): encrypt and
 * decrypt, both directions in place as libsodium allows (output starting at
 * the input, and output holding the input at its ciphertext position),
 * caller outputs, unaligned views, seal/open, and a flipped bit rejected
 * with the output wiped.
 */
function checkBoxModes(label: string, key: Uint8Array, nonce: Uint8Array, pt: Uint8Array, sealed: Uint8Array, all = true): void {
  const len = pt.length;
  const box = () => xsalsa20poly1305(key, nonce);
  const input = pt.slice();
  assertBytes(box().encrypt(input), sealed, `${label}: encrypt`);
  assertBytes(input, pt, `${label}: encrypt modified its input`);
  assertBytes(box().decrypt(sealed.slice()), pt, `${label}: decrypt`);

  // In place, libsodium's way: the plaintext at the start of a buffer with room for the tag.
  const buf = new Uint8Array(len + 16);
  buf.set(pt);
  assert.equal(box().encrypt(buf.subarray(0, len), buf), buf);
  assertBytes(buf, sealed, `${label}: in-place encrypt (output at the input)`);
  const dec = buf.subarray(0, len);
  assert.equal(box().decrypt(buf, dec), dec);
  assertBytes(dec, pt, `${label}: in-place decrypt (output at the input)`);
  // In place with the text where the ciphertext goes (@noble/ciphers' layout).
  const buf2 = new Uint8Array(len + 16);
  buf2.set(pt, 16);
  box().encrypt(buf2.subarray(16), buf2);
  assertBytes(buf2, sealed, `${label}: in-place encrypt (input at output + 16)`);
  box().decrypt(buf2, buf2.subarray(16));
  assertBytes(buf2.subarray(16), pt, `${label}: in-place decrypt (output at input + 16)`);

  const bad = sealed.slice();
  const bit = randInt(bad.length * 8);
  bad[bit >> 3] ^= 1 << (bit & 7);
  const wiped = new Uint8Array(len).fill(0xee);
  assert.throws(() => box().decrypt(bad, wiped), AuthenticationError, `${label}: flipped bit ${bit}`);
  assert.ok(
    wiped.every((x) => x === 0),
    `${label}: output not wiped after a failed decrypt`,
  );
  assert.throws(() => secretbox(key, nonce).open(bad), AuthenticationError, `${label}: secretbox.open flipped bit ${bit}`);
  if (!all) return;

  assertBytes(secretbox(key, nonce).seal(pt), sealed, `${label}: secretbox.seal`);
  assertBytes(secretbox(key, nonce).open(sealed), pt, `${label}: secretbox.open`);
  const eo = new Uint8Array(len + 16).fill(0x5a);
  assert.equal(box().encrypt(pt, eo), eo);
  assertBytes(eo, sealed, `${label}: encrypt into caller output`);
  const dout = new Uint8Array(len).fill(0x5a);
  assert.equal(box().decrypt(sealed, dout), dout);
  assertBytes(dout, pt, `${label}: decrypt into caller output`);
  const gp = guarded(pt, OFFSETS[len % 3]);
  const ge = guarded(new Uint8Array(len + 16), OFFSETS[(len + 1) % 3]);
  const gk = guarded(key, OFFSETS[(len + 2) % 3]);
  const gn = guarded(nonce, OFFSETS[len % 3]);
  xsalsa20poly1305(gk.view, gn.view).encrypt(gp.view, ge.view);
  assertBytes(ge.view, sealed, `${label}: unaligned encrypt`);
  const gs = guarded(sealed, OFFSETS[(len + 2) % 3]);
  const gd = guarded(new Uint8Array(len), OFFSETS[len % 3]);
  xsalsa20poly1305(gk.view, gn.view).decrypt(gs.view, gd.view);
  assertBytes(gd.view, pt, `${label}: unaligned decrypt`);
  assert.ok(
    [gp, ge, gk, gn, gs, gd].every((g) => g.intact()),
    `${label}: wrote outside the views`,
  );
}

before(async () => {
  await loadSodium();
});

it('the peers agree with each other (guards the reference helpers)', { skip: NO_SODIUM }, () => {
  for (const len of [0, 1, 63, 64, 65, 200, 1000]) {
    const key = rand(32);
    const n8 = rand(8);
    const n24 = rand(24);
    const data = rand(len);
    const c = randInt(1000);
    assertBytes(sodiumSalsa20(key, n8, data, BigInt(c)), nobleSalsa.salsa20(key, n8, data, undefined, c), `salsa20 sodium/noble ${len}`);
    assertBytes(coreStream(20, key, n8, data, BigInt(c)), sodiumSalsa20(key, n8, data, BigInt(c)), `salsa20 core/stream ${len}`);
    assertBytes(coreStream(12, key, n8, data, 0n), sodiumReduced(12, key, n8, data), `salsa2012 core/stream ${len}`);
    assertBytes(coreStream(8, key, n8, data, 0n), sodiumReduced(8, key, n8, data), `salsa208 core/stream ${len}`);
    assertBytes(sodiumXsalsa20(key, n24, data, BigInt(c)), nobleSalsa.xsalsa20(key, n24, data, undefined, c), `xsalsa20 sodium/noble ${len}`);
    assertBytes(nobleSalsa.xsalsa20poly1305(key, n24).encrypt(data), sodium.crypto_secretbox_easy(data, n24, key), `secretbox noble/sodium ${len}`);
  }
  // libsodium carries the 64-bit counter itself; the core-built stream agrees across 2^32.
  const key = rand(32);
  const n8 = rand(8);
  const data = rand(650);
  assertBytes(sodiumSalsa20(key, n8, data, BigInt(TWO32 - 3)), coreStream(20, key, n8, data, BigInt(TWO32 - 3)), 'carry at 2^32');
});

forEachTier('differential', () => {
  it(`salsa20 for every length 0..${SMALL_MAX} vs libsodium and noble, random 64-bit counters`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const nonce = rand(8);
      const data = rand(len);
      const expected0 = sodiumSalsa20(key, nonce, data);
      assertBytes(nobleSalsa.salsa20(key, nonce, data), expected0, `peers disagree at ${len}`);
      checkModes(salsa20, `salsa20 len ${len}`, key, nonce, data, len % 2 ? undefined : 0, expected0);
      const c = randomCounter64(len);
      const counter = len % 3 === 0 && c <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(c) : c;
      checkModes(salsa20, `salsa20 len ${len} counter ${c}`, key, nonce, data, counter, sodiumSalsa20(key, nonce, data, c), false);
    }
  });

  it(`salsa20 with a 16-byte key ("expand 16-byte k") for every length 0..${SMALL_MAX} vs noble`, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(16);
      const nonce = rand(8);
      const data = rand(len);
      const c = randInt(2 ** 31);
      checkModes(salsa20, `salsa20/16 len ${len}`, key, nonce, data, c, nobleSalsa.salsa20(key, nonce, data, undefined, c), len % 4 === 0);
    }
  });

  for (const [name, fn, rounds] of [
    ['salsa2012', salsa2012, 12],
    ['salsa208', salsa208, 8],
  ] as const) {
    it(`${name} for every length 0..${SMALL_MAX} vs libsodium (and its core function for other counters)`, { skip: NO_SODIUM }, () => {
      for (let len = 0; len <= SMALL_MAX; len++) {
        const key = rand(32);
        const nonce = rand(8);
        const data = rand(len);
        checkModes(fn, `${name} len ${len}`, key, nonce, data, undefined, sodiumReduced(rounds, key, nonce, data), len % 2 === 0);
        if (len % 7 === 0) {
          const c = randomCounter64(len);
          checkModes(fn, `${name} len ${len} counter ${c}`, key, nonce, data, c, coreStream(rounds, key, nonce, data, c), false);
        }
      }
    });
  }

  it(`xsalsa20 for every length 0..${SMALL_MAX} vs libsodium and noble, random 64-bit counters`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const nonce = rand(24);
      const data = rand(len);
      const expected0 = sodiumXsalsa20(key, nonce, data);
      assertBytes(nobleSalsa.xsalsa20(key, nonce, data), expected0, `peers disagree at ${len}`);
      checkModes(xsalsa20, `xsalsa20 len ${len}`, key, nonce, data, len % 2 ? undefined : 0n, expected0);
      const c = randomCounter64(len);
      checkModes(xsalsa20, `xsalsa20 len ${len} counter ${c}`, key, nonce, data, c, sodiumXsalsa20(key, nonce, data, c), false);
    }
  });

  it('hsalsa20 vs libsodium crypto_core_hsalsa20 and noble hsalsa', { skip: NO_SODIUM }, () => {
    for (let i = 0; i < 200; i++) {
      const key = rand(32);
      const input = rand(16);
      const expected = (sumo() as unknown as { crypto_core_hsalsa20(input: Uint8Array, key: Uint8Array): Uint8Array }).crypto_core_hsalsa20(input, key);
      assertBytes(hsalsa20(key, input), expected, `hsalsa20 #${i}`);
      const words = (b: Uint8Array) => new Uint32Array(b.slice().buffer);
      const out = new Uint32Array(8);
      nobleSalsa.hsalsa(words(new TextEncoder().encode('expand 32-byte k')), words(key), words(input), out);
      assertBytes(new Uint8Array(out.buffer), expected, `noble hsalsa #${i}`);
    }
  });

  it(`secretbox (xsalsa20poly1305) for every length 0..${SMALL_MAX} vs libsodium and noble`, { skip: NO_SODIUM }, () => {
    for (let len = 0; len <= SMALL_MAX; len++) {
      const key = rand(32);
      const nonce = rand(24);
      const pt = rand(len);
      const sealed = sodium.crypto_secretbox_easy(pt, nonce, key);
      if (len % 16 === 0) assertBytes(nobleSalsa.secretbox(key, nonce).seal(pt), sealed, `peers disagree at ${len}`);
      checkBoxModes(`secretbox len ${len}`, key, nonce, pt, sealed, len % 3 === 0 || len < 300);
      const ours = secretbox(key, nonce).seal(pt);
      assertBytes(sodium.crypto_secretbox_open_easy(ours, nonce, key), pt, `libsodium opens ours at ${len}`);
    }
  });

  it("one secretbox object, many calls: every seal equals libsodium's, with opens and other calls in between", { skip: NO_SODIUM }, () => {
    // fourfold, unlike noble, lets one object seal again (README): nothing a
    // call leaves in the kernel may reach the next one.
    for (const len of [0, 1, 31, 32, 33, 64, 65, 1000, 40000]) {
      const key = rand(32);
      const nonce = rand(24);
      const pt = rand(len);
      const sealed = sodium.crypto_secretbox_easy(pt, nonce, key);
      const box = secretbox(key, nonce);
      const aead = xsalsa20poly1305(key, nonce);
      assertBytes(box.seal(pt), sealed, `seal ${len}`);
      assertBytes(box.open(sealed), pt, `open between seals ${len}`);
      salsa20(rand(32), rand(8), rand(len + 7));
      assertBytes(box.seal(pt), sealed, `second seal ${len}`);
      assertBytes(aead.encrypt(pt), sealed, `xsalsa20poly1305 encrypt ${len}`);
      assertBytes(aead.encrypt(pt, new Uint8Array(len + 16)), sealed, `xsalsa20poly1305 second encrypt, into an output ${len}`);
    }
  });

  it(`large inputs (${LARGE.join(', ')} bytes): every stream cipher and the secretbox`, { skip: NO_SODIUM }, () => {
    for (const len of LARGE) {
      const key = rand(32);
      const n8 = rand(8);
      const n24 = rand(24);
      const data = rand(len);
      const all = len < 70000;
      checkModes(salsa20, `salsa20 ${len}`, key, n8, data, undefined, sodiumSalsa20(key, n8, data), all);
      const c = randomCounter64(len);
      checkModes(salsa20, `salsa20 ${len} counter ${c}`, key, n8, data, c, sodiumSalsa20(key, n8, data, c), false);
      checkModes(salsa2012, `salsa2012 ${len}`, key, n8, data, undefined, sodiumReduced(12, key, n8, data), false);
      checkModes(salsa208, `salsa208 ${len}`, key, n8, data, undefined, sodiumReduced(8, key, n8, data), false);
      checkModes(xsalsa20, `xsalsa20 ${len}`, key, n24, data, 3, sodiumXsalsa20(key, n24, data, 3n), all);
      checkModes(xsalsa20, `xsalsa20 ${len} counter ${c}`, key, n24, data, c, sodiumXsalsa20(key, n24, data, c), false);
      checkBoxModes(`secretbox ${len}`, key, n24, data, sodium.crypto_secretbox_easy(data, n24, key), all);
    }
  });

  it('counters across the 2^32 carry and up to the last block 2^64 - 1', { skip: NO_SODIUM }, () => {
    const key = rand(32);
    for (const len of [1, 64, 65, 255, 256, 257, 511, 512, 513, 1000, 5000]) {
      const n8 = rand(8);
      const n24 = rand(24);
      const data = rand(len);
      const starts = [TWO32 - 1, TWO32 - 3, TWO32 - 8, TWO32 - blocksOf(len), 2 * TWO32 - 5].map(BigInt);
      for (const c of [...starts, TWO64 - (1n << 32n) - 4n, TWO64 - BigInt(blocksOf(len) + 5)]) {
        const start = c <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(c) : c;
        checkModes(salsa20, `salsa20 ${len} at ${start}`, key, n8, data, start, sodiumSalsa20(key, n8, data, c), false);
        checkModes(salsa208, `salsa208 ${len} at ${start}`, key, n8, data, c, coreStream(8, key, n8, data, c), false);
        checkModes(xsalsa20, `xsalsa20 ${len} at ${start}`, key, n24, data, c, sodiumXsalsa20(key, n24, data, c), false);
      }
      const last = TWO64 - BigInt(blocksOf(len));
      checkModes(salsa20, `salsa20 ${len} ending at 2^64 - 1`, key, n8, data, last, coreStream(20, key, n8, data, last), false);
      checkModes(salsa2012, `salsa2012 ${len} ending at 2^64 - 1`, key, n8, data, last, coreStream(12, key, n8, data, last), false);
    }
  });
});
