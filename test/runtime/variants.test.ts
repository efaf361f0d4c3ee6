/**
 * Kernel variants chosen by timing real calls (src/runtime/variants.ts):
 * the picker settles on the faster variant, and the ChaCha kernels give the
 * same bytes before, during and after the choice.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { VariantPicker } from '../../dist/runtime/variants.js';
import { chachaKernel, chachaVariants } from '../../dist/chacha/wasm.js';
import { ready } from 'fourfold';
import { chacha20, chacha20poly1305 } from 'fourfold/chacha';
import { chacha20 as nobleChacha20, chacha20poly1305 as nobleAead } from '@noble/ciphers/chacha.js';
import { NO_SIMD } from '../helpers.js';

it('the picker times large calls round-robin and keeps the variant with the least time per byte', () => {
  let selected = -1;
  const selections: number[] = [];
  // A fake clock: each call advances it by its variant's cost, so nothing real is timed.
  let clock = 0;
  const picker = new VariantPicker(3, (i) => { selected = i; selections.push(i); }, () => clock);
  assert.equal(picker.wants(1024), false, 'short calls are not timed');
  assert.equal(picker.wants(1 << 20), true);
  const cost = [3, 1, 2]; // ms per call: variant 1 is fastest
  const calls: number[] = [];
  while (picker.chosen === undefined && calls.length < 200) {
    picker.run(4 << 20, () => { calls.push(selected); clock += cost[selected]; });
  }
  assert.equal(picker.chosen, 1);
  assert.equal(selected, 1, 'the kernel is left on the chosen variant');
  assert.deepEqual(calls.slice(0, 6), [0, 1, 2, 0, 1, 2], 'variants take turns while measuring');
  assert.equal(picker.wants(1 << 20), false, 'nothing is timed once decided');
  const costs = picker.costs();
  assert.deepEqual(costs, cost.map((ms) => (ms * 1e6) / (4 << 20)), 'ns per byte of each variant');
  assert.ok(selections.length > 0);
});

it('one slow call (a garbage-collection pause) does not decide the choice: the median time per byte does', () => {
  let selected = -1;
  let clock = 0;
  const picker = new VariantPicker(2, (i) => { selected = i; }, () => clock);
  const cost = [2, 1]; // ms per call: variant 1 is fastest
  let calls = 0;
  let paused = false;
  while (picker.chosen === undefined && calls < 200) {
    picker.run(4 << 20, () => {
      // Variant 1's first call pauses for longer than all of variant 0's calls together.
      const pause = selected === 1 && !paused ? 1000 : 0;
      if (pause > 0) paused = true;
      clock += cost[selected] + pause;
    });
    calls++;
  }
  assert.ok(paused, 'the pause happened while measuring');
  assert.equal(picker.chosen, 1);
  assert.deepEqual(picker.costs(), cost.map((ms) => (ms * 1e6) / (4 << 20)));
});

it('a single variant needs no measurement', () => {
  const picker = new VariantPicker(1, () => assert.fail('nothing to select'));
  assert.equal(picker.chosen, 0);
  assert.equal(picker.wants(1 << 30), false);
});

it('ChaCha20 and its AEAD give the same bytes through every variant, before, during and after the choice', { skip: NO_SIMD }, async () => {
  await ready({ tier: 'simd' });
  const { k } = chachaKernel();
  assert.ok(k.variant_count() >= 2, 'the kernel ships several variants');
  const key = Uint8Array.from({ length: 32 }, (_, i) => i * 3);
  const nonce = Uint8Array.from({ length: 12 }, (_, i) => i + 9);
  const data = Uint8Array.from({ length: (1 << 20) + 77 }, (_, i) => (i * 131) & 0xff);
  const stream = nobleChacha20(key, nonce, data);
  const sealed = nobleAead(key, nonce).encrypt(data);
  const picker = chachaVariants(k);
  let calls = 0;
  while (picker.chosen === undefined && calls < 100) {
    assert.deepEqual(chacha20(key, nonce, data), stream, `call ${calls}`);
    assert.deepEqual(chacha20poly1305(key, nonce).encrypt(data), sealed, `AEAD call ${calls}`);
    calls++;
  }
  assert.notEqual(picker.chosen, undefined, 'the picker decided within 100 MiB of traffic');
  assert.deepEqual(chacha20(key, nonce, data), stream, 'after the choice');
  for (let i = 0; i < k.variant_count(); i++) {
    k.select_variant(i);
    assert.deepEqual(chacha20poly1305(key, nonce).encrypt(data), sealed, `variant ${i}`);
  }
  k.select_variant(picker.chosen!);
});
