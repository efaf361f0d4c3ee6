/**
 * A libsodium-wrappers program on a page: `await sodium.ready`, then a
 * burst of calls in the same task (a file decrypted on a click). As
 * libsodium.js's `ready` resolves once its WebAssembly runs, fourfold/sodium's
 * resolves once the kernels of the families the page imported run: the
 * first calls after it already run on the simd tier, where a page's main
 * thread would otherwise still be compiling them in the background.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import sodium from 'fourfold/sodium';
import { xchacha20poly1305 as nobleXchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
// tier() from the runtime's module, not from 'fourfold', whose root would bring every family's kernel.
import { tier } from '../../dist/runtime/kernels.js';
import { BEST, hex, pattern } from './page.js';

const key = pattern(32, 1);
const nonce = pattern(24, 2);
const data = pattern(100_000, 3);

it('after await sodium.ready, the first calls run on the best tier and give the same bytes', async () => {
  assert.equal(tier(), undefined, 'no call ran before');
  assert.equal(await sodium.ready, undefined);
  const sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(data, null, null, nonce, key);
  assert.equal(tier(), BEST, 'the AEAD');
  assert.equal(hex(sealed), hex(nobleXchacha20poly1305(key, nonce).encrypt(data)));
  const hash = sodium.crypto_generichash(32, data, null);
  assert.equal(tier(), BEST, 'BLAKE2b');
  assert.equal(hex(hash), hex(nobleBlake2b(data, { dkLen: 32 })));
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const pushed = sodium.crypto_secretstream_xchacha20poly1305_push(state, data, null, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
  assert.equal(tier(), BEST, 'secretstream');
  const pulled = sodium.crypto_secretstream_xchacha20poly1305_pull(sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, key), pushed, null);
  assert.ok(pulled !== false);
  assert.equal(hex(pulled.message), hex(data));
  assert.equal(pulled.tag, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
});
