/**
 * fourfold/parallel in an engine without threads
 * (Hermes, React Native's engine: no Worker, no worker_threads): the same
 * bytes as the synchronous functions, computed on the calling thread.
 * Elsewhere the other files here test the pool.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { blake3 } from 'fourfold/blake3';
import { chacha20, xchacha20poly1305 } from 'fourfold/chacha';
import * as P from 'fourfold/parallel';
import { poly1305 } from 'fourfold/poly1305';
import { assertBytes, rand } from '../helpers.js';

const HAS_THREADS = typeof Worker === 'function' || (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
const skip = HAS_THREADS && 'not applicable: this engine has threads (the pool is tested by the other files here)';

before(() => ready());

it("without threads, fourfold/parallel's blake3 gives blake3's bytes (plain, keyed, derive_key, dkLen) on the calling thread", { skip }, async () => {
  const key = rand(32);
  for (const n of [0, 1025, (3 << 20) + 5, (5 << 20) - 1]) {
    const data = rand(n);
    assertBytes(await P.blake3(data), blake3(data), `${n} bytes`);
    assertBytes(await P.blake3(data, { key }), blake3(data, { key }), `${n} bytes, keyed`);
    assertBytes(
      await P.blake3(data, { context: 'fourfold no-threads test', dkLen: 77 }),
      blake3(data, { context: 'fourfold no-threads test', dkLen: 77 }),
      `${n} bytes, derive_key`,
    );
  }
});

it('without threads, ChaCha20, XChaCha20-Poly1305 and Poly1305 of several pieces give the synchronous bytes; no worker started', { skip }, async () => {
  const key = rand(32);
  const n12 = rand(12);
  const n24 = rand(24);
  for (const n of [100, (3 << 20) + 7]) {
    const data = rand(n);
    assertBytes(await P.chacha20(key, n12, data), chacha20(key, n12, data), `chacha20 ${n}`);
    const sealed = await P.xchacha20poly1305(key, n24).encrypt(data);
    assertBytes(sealed, xchacha20poly1305(key, n24).encrypt(data), `xchacha20poly1305 ${n}`);
    assertBytes(await P.xchacha20poly1305(key, n24).decrypt(sealed), data, `xchacha20poly1305 decrypt ${n}`);
    assertBytes(await P.poly1305(data, key), poly1305(data, key), `poly1305 ${n}`);
  }
  assert.equal(P.status().ready, 0);
});
