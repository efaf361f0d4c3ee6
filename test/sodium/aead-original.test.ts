/**
 * libsodium's original ChaCha20-Poly1305 (crypto_aead_chacha20poly1305,
 * 8-byte nonce; chacha/original.ts) on each tier, where the simd tier
 * changes its way: aad and message each side of the 2 KiB the kernel
 * takes in one call, and past it, against libsodium-wrappers-sumo byte for byte, opened both ways, a
 * changed byte anywhere refused; a caller's output and in place, a wrong
 * tag giving nothing, the kernel's memory wiped after each call (the simd
 * tier). Where node:crypto has ChaCha20 and ready() names no tier, its
 * keystream takes the calls from the keystream's crossover, with the same
 * bytes.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready, tier } from 'fourfold';
import * as sodium from 'fourfold/sodium';
import { crossoverFor, openOriginal, RUNTIME, sealOriginal } from '../internal.js';
import { assertBytes, assertKernelsWiped, ENGINE_HAS_SIMD, forEachTier, NO_SODIUM, rand } from '../helpers.js';
import { loadSumo, peer, same } from './peer.js';

before(loadSumo);
const opts = { skip: NO_SODIUM };

/** The most aad + message bytes the simd tier takes in one kernel call (chacha/original.ts). */
const ONE_CALL = 2048;
/** The kernel's slice. */
const SLICE = 32768;

/** Aad lengths: none, short, a Poly1305 block and one past, and longer than a slice. */
const AADS = [0, 5, 16, 17, SLICE + 3];

/**
 * The first keystream blocks aead_init leaves: 1 (for a message of up to 64
 * bytes) or 3 (up to 192); each side of those, the 16-byte steps between and
 * lengths that end inside a 16-byte step (the bytes after a message, its
 * length, follow it in the kernel's memory).
 */
const FIRST_BLOCKS = [1, 15, 16, 17, 31, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193, 200, 255, 256, 257];

/** Message lengths for `aad` bytes of aad: the first blocks', each side of the one-call edge, of a slice, and longer. */
function lengthsFor(aad: number): number[] {
  const lengths = new Set<number>([0, ...FIRST_BLOCKS, 3 * SLICE + 5]);
  for (const e of [ONE_CALL - aad, SLICE]) for (const d of [-17, -1, 0, 1, 15]) if (e + d >= 0) lengths.add(e + d);
  return [...lengths];
}

const NAME = 'crypto_aead_chacha20poly1305';
type Seal = (m: Uint8Array, ad: Uint8Array, ns: null, n: Uint8Array, k: Uint8Array) => Uint8Array;
type Open = (ns: null, c: Uint8Array, ad: Uint8Array, n: Uint8Array, k: Uint8Array) => Uint8Array;

forEachTier('the original ChaCha20-Poly1305 around the one kernel call', (onTier) => {
  /** The kernels' memory checked on the simd tier (on the js tier an engine may have instantiated none). */
  const wiped = (label: string): void => {
    if (onTier === 'simd') assertKernelsWiped(label);
  };

  it(`${NAME}: aad and message around the edge, as libsodium-wrappers-sumo`, opts, () => {
    const key = rand(32);
    const nonce = rand(8);
    for (const aadBytes of AADS) {
      const aad = rand(aadBytes);
      for (const n of lengthsFor(aadBytes)) {
        const message = rand(n);
        const sealed = same(`${NAME}_encrypt`, [message, aad, null, nonce, key], `aad ${aadBytes}, ${n}`) as Uint8Array;
        same(`${NAME}_decrypt`, [null, sealed, aad, nonce, key], `aad ${aadBytes}, ${n}`);
        assertBytes((peer()[`${NAME}_decrypt`] as Open)(null, sealed, aad, nonce, key), message);
      }
    }
  });

  it(`${NAME}: a changed byte of the aad, the ciphertext or the tag is refused on either way`, opts, () => {
    const key = rand(32);
    const nonce = rand(8);
    for (const [aadBytes, n] of [
      [5, 100],
      [5, ONE_CALL - 5],
      [5, ONE_CALL - 5 + 1],
      [SLICE + 3, 2 * SLICE + 7],
    ] as const) {
      const aad = rand(aadBytes);
      const sealed = (peer()[`${NAME}_encrypt`] as Seal)(rand(n), aad, null, nonce, key);
      for (const at of [0, n - 1, n, n + 15, Math.floor(n / 2)]) {
        const changed = sealed.slice();
        changed[at] ^= 0x40;
        same(`${NAME}_decrypt`, [null, changed, aad, nonce, key], `aad ${aadBytes}, ${n}, byte ${at}`);
      }
      for (const at of [0, aadBytes - 1]) {
        const changed = aad.slice();
        changed[at] ^= 1;
        same(`${NAME}_decrypt`, [null, sealed, changed, nonce, key], `aad byte ${at}`);
      }
    }
  });

  it('sealOriginal and openOriginal: a new output, a caller output and in place; a wrong tag gives nothing; memory wiped', () => {
    const key = rand(32);
    const nonce = rand(8);
    for (const [aadBytes, n] of [
      [0, 0],
      [13, 300],
      [13, ONE_CALL - 13],
      [13, ONE_CALL - 12],
      [SLICE + 3, 3 * SLICE + 5],
    ] as const) {
      const aad = rand(aadBytes);
      const message = rand(n);
      const expected = sealOriginal(key, nonce, aad, message);
      wiped(`seal ${aadBytes} ${n}`);
      if (!NO_SODIUM) assertBytes(expected, (peer()[`${NAME}_encrypt`] as Seal)(message, aad, null, nonce, key));
      assertBytes(sealOriginal(key, nonce, aad, message, new Uint8Array(n + 16)), expected);
      const inPlace = new Uint8Array(n + 16);
      inPlace.set(message);
      assertBytes(sealOriginal(key, nonce, aad, inPlace.subarray(0, n), inPlace), expected);
      const ciphertext = expected.subarray(0, n);
      const tag = expected.subarray(n);
      assertBytes(openOriginal(key, nonce, aad, ciphertext, tag) ?? new Uint8Array(0), message);
      wiped(`open ${aadBytes} ${n}`);
      const wrong = tag.slice();
      wrong[15] ^= 1;
      assert.equal(openOriginal(key, nonce, aad, ciphertext, wrong), undefined);
      wiped(`failed open ${aadBytes} ${n}`);
    }
  });
});

/** Whether this runtime's node:crypto has the ciphers (Bun's has not). */
const NATIVE = RUNTIME === 'deno' || (RUNTIME?.startsWith('node') ?? false);

describe('the original ChaCha20-Poly1305 on the native tier', { skip: (!NATIVE || NO_SODIUM) && 'not applicable: no node:crypto ciphers here' }, () => {
  before(async () => {
    await ready();
  });

  it("node:crypto's keystream from the crossover: the same bytes, a changed byte refused, a shared ciphertext read once", () => {
    const from = crossoverFor(ENGINE_HAS_SIMD ? 'simd' : 'js')?.chacha20;
    assert.ok(from !== undefined, 'a crossover for this runtime');
    const key = rand(32);
    const nonce = rand(8);
    for (const n of [0, 64, from - 1, from, from + 1, 65536 + 3, (1 << 20) + 1]) {
      const aad = rand(n % 2 === 0 ? 13 : 0);
      const message = rand(n);
      const sealed = sodium.crypto_aead_chacha20poly1305_encrypt(message, aad, null, nonce, key);
      assert.equal(tier() === 'native', n >= from, `encrypt, ${n} bytes: tier() is ${tier()}`);
      assertBytes(sealed, (peer()[`${NAME}_encrypt`] as Seal)(message, aad, null, nonce, key), `${n} bytes`);
      assertBytes(sodium.crypto_aead_chacha20poly1305_decrypt(null, sealed, aad, nonce, key), message);
      assert.equal(tier() === 'native', n >= from, `decrypt, ${n} bytes: tier() is ${tier()}`);
      const shared = new Uint8Array(new SharedArrayBuffer(sealed.length));
      shared.set(sealed);
      assertBytes(sodium.crypto_aead_chacha20poly1305_decrypt(null, shared, aad, nonce, key), message);
      for (const at of [0, n - 1, sealed.length - 1].filter((i) => i >= 0)) {
        const changed = sealed.slice();
        changed[at] ^= 2;
        assert.throws(
          () => sodium.crypto_aead_chacha20poly1305_decrypt(null, changed, aad, nonce, key),
          /ciphertext cannot be decrypted/,
          `${n} bytes, byte ${at}`,
        );
      }
      const { ciphertext, mac } = sodium.crypto_aead_chacha20poly1305_encrypt_detached(message, aad, null, nonce, key);
      assertBytes(ciphertext, sealed.subarray(0, n));
      assertBytes(mac, sealed.subarray(n));
    }
  });
});
