/**
 * A page that never waits for ready(): every call works from the first one
 * on, with @noble's bytes. On the page's main thread the first calls run
 * on the js tier while the kernels compile in the background, and later
 * calls reach the simd tier with no ready() at all; incremental objects
 * begun before give the right bytes after. A Web Worker may compile
 * synchronously: its first call already runs on the simd tier.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ready, tier } from 'fourfold';
import { chacha20, xchacha20poly1305 } from 'fourfold/chacha';
import { poly1305 } from 'fourfold/poly1305';
import { blake3 } from 'fourfold/blake3';
import { chacha20 as nobleChacha20, xchacha20poly1305 as nobleXchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { poly1305 as noblePoly1305 } from '@noble/ciphers/_poly1305.js';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { BEST, HAS_SIMD, hex, pattern, until } from './page.js';

const key = pattern(32, 1);
const nonce = pattern(12, 2);
const nonce24 = pattern(24, 3);
// Past BLAKE3's 16 KiB input buffer, so that incremental hashing reaches the engine before the switch.
const data = pattern(40_000, 4);

it('the first calls, before ready(), give the right bytes on the js tier', () => {
  assert.equal(tier(), undefined);
  assert.equal(hex(chacha20(key, nonce, data)), hex(nobleChacha20(key, nonce, data)));
  assert.equal(tier(), 'js', 'the ChaCha kernel cannot be compiled yet: compiling on the main thread is asynchronous');
  assert.equal(hex(xchacha20poly1305(key, nonce24).encrypt(data)), hex(nobleXchacha20poly1305(key, nonce24).encrypt(data)));
  assert.equal(hex(poly1305(data, key)), hex(noblePoly1305(data, key)));
  assert.equal(hex(blake3(data)), hex(nobleBlake3(data)));
  assert.equal(tier(), 'js');
});

it('calls reach the simd tier without ready(), and objects begun before finish with the right bytes', async () => {
  const mac = poly1305.create(key).update(data.subarray(0, 20_001));
  const hasher = blake3.create().update(data.subarray(0, 30_000));
  const onBest = (call: () => unknown) => {
    call();
    return tier() === BEST;
  };
  await until(() => onBest(() => chacha20(key, nonce, data)) && onBest(() => blake3(data)), `ChaCha20 and BLAKE3 calls run on the ${BEST} tier`);
  assert.equal(hex(chacha20(key, nonce, data)), hex(nobleChacha20(key, nonce, data)));
  assert.equal(hex(blake3(data)), hex(nobleBlake3(data)));
  mac.update(data.subarray(20_001));
  hasher.update(data.subarray(30_000));
  assert.equal(tier(), BEST, 'the BLAKE3 hasher continued on the tier now active');
  assert.equal(hex(mac.digest()), hex(noblePoly1305(data, key)));
  assert.equal(hex(hasher.digest()), hex(nobleBlake3(data)));
  assert.equal(await ready(), BEST);
});

it('in a Web Worker, the first call compiles synchronously and runs on the simd tier', async () => {
  const worker = new Worker(new URL('./before-ready.worker.js', import.meta.url), { type: 'module' });
  try {
    const answer = await new Promise<unknown>((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
    });
    assert.deepEqual(answer, { tier: BEST, chacha20: hex(nobleChacha20(key, nonce, data)), simd: HAS_SIMD });
  } finally {
    worker.terminate();
  }
});
