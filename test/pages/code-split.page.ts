/**
 * A code-split page: ready() runs when only the ChaCha family is loaded;
 * BLAKE3 and Serpent arrive later in a chunk of their own (a dynamic
 * import, as a lazily loaded route). Their first calls work at once,
 * without a second ready(), and reach the simd tier as their kernels
 * compile in the background.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { chacha20 } from 'fourfold/chacha';
import { chacha20 as nobleChacha20 } from '@noble/ciphers/chacha.js';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
// ready() and tier() from the runtime's modules, not from 'fourfold': esbuild puts every family the
// root re-exports that a lazy chunk also uses into a chunk the entry loads at once (so BLAKE3 and
// Serpent would be registered before ready()); Rollup leaves them in the lazy chunk.
import { kernelMemories } from '../../dist/runtime/kernel-registry.js';
import { ready, tier } from '../../dist/runtime/kernels.js';
import { refCtr } from '../serpent/reference.js';
import { BEST, HAS_SIMD, hex, pattern, until } from './page.js';

const key = pattern(32, 1);
const iv = pattern(16, 2);
const data = pattern(5000, 3);
const instantiated = () =>
  kernelMemories()
    .map((m) => m.name)
    .sort();

it('ready() compiles the kernels registered so far: ChaCha only', async () => {
  assert.equal(await ready(), BEST);
  assert.equal(hex(chacha20(key, iv.subarray(0, 12), data)), hex(nobleChacha20(key, iv.subarray(0, 12), data)));
  assert.equal(tier(), BEST);
  assert.deepEqual(instantiated(), HAS_SIMD ? ['chacha'] : []);
});

it('a chunk loaded after ready() works at once and reaches the simd tier without another ready()', async () => {
  const { blake3, ctr } = await import('./code-split-lazy.js');
  // The first calls: whichever tier runs them, no throw and the right bytes.
  assert.equal(hex(blake3(data)), hex(nobleBlake3(data)));
  assert.equal(hex(ctr(key, iv).encrypt(data)), hex(refCtr(key, iv, data)));
  const onBest = (call: () => unknown) => {
    call();
    return tier() === BEST;
  };
  await until(() => onBest(() => blake3(data)) && onBest(() => ctr(key, iv).encrypt(data)), `BLAKE3 and Serpent calls run on the ${BEST} tier`);
  assert.equal(hex(blake3(data)), hex(nobleBlake3(data)));
  assert.equal(hex(ctr(key, iv).encrypt(data)), hex(refCtr(key, iv, data)));
  assert.deepEqual(instantiated(), HAS_SIMD ? ['blake3', 'chacha', 'serpent'] : []);
  assert.equal(await ready(), BEST);
});
