/**
 * Kernel variants chosen by timing real calls (src/runtime/variants.ts):
 * the picker settles on the faster variant, and the ChaCha kernels give the
 * same bytes before, during and after the choice.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { chachaKernel, chachaVariants, VariantPicker } from '../internal.js';
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

/**
 * A picker over `count` variants on a fake clock: each call of `length`
 * bytes advances it by `cost()[selected]` ns per byte, so nothing real is
 * timed. Returns a driver that makes calls and reports which variant each used.
 */
function simulate(count: number) {
  let selected = -1;
  let clock = 0;
  const picker = new VariantPicker(count, (i) => (selected = i), () => clock);
  const CALL = 4 << 20;
  return {
    picker,
    /** Calls of 4 MiB at `cost` ns per byte per variant until `until()` holds (at most `max` calls); the variants they used. */
    calls(cost: number[], until: () => boolean, max = 10_000): number[] {
      const used: number[] = [];
      while (!until() && used.length < max) {
        picker.run(CALL, () => {
          used.push(selected);
          clock += (cost[selected]! * CALL) / 1e6;
        });
      }
      return used;
    },
    CALL,
  };
}

it('a choice misled by load is corrected by a later round of measurement', () => {
  // The case: variants at 0.88 and 0.72 ns per byte, the first round taken while other
  // jobs slowed the fast one down. Either variant may be the default (index 0).
  for (const [slow, fast] of [[0, 1], [1, 0]]) {
    const { picker, calls } = simulate(2);
    const truth = [0, 0];
    truth[slow] = 0.88;
    truth[fast] = 0.72;
    const loaded = [...truth];
    loaded[fast] = 1.1;
    calls(loaded, () => picker.rounds === 1);
    assert.equal(picker.chosen, slow, 'the loaded round picks the slow variant');
    // Untimed traffic runs on it; then a round on a quiet machine picks the fast one.
    const used = calls(truth, () => picker.rounds === 2);
    assert.equal(picker.chosen, fast, `the next round corrects the choice (slow ${slow}, fast ${fast})`);
    assert.ok(used.includes(fast), 'the second round timed the fast variant');
    assert.ok(used.length * (4 << 20) <= (512 + 64) << 20, `corrected within 576 MiB of traffic (took ${used.length * 4} MiB)`);
    // And it stays corrected: the following round agrees.
    calls(truth, () => picker.rounds === 3);
    assert.equal(picker.chosen, fast);
  }
});

it('between rounds nothing is timed, short calls do not count, and each stretch is four times the last', () => {
  const { picker, calls, CALL } = simulate(2);
  calls([1, 2], () => picker.rounds === 1);
  assert.equal(picker.chosen, 0);
  let stretch = 0;
  for (let round = 1; round <= 3; round++) {
    // The call that reaches the stretch's end is the first one timed again.
    let untimed = CALL;
    for (let i = 0; i < 1000; i++) assert.equal(picker.wants(8191), false, 'a short call is never timed');
    // (Bounded, so a picker that never re-checks fails rather than hangs.)
    for (let i = 0; i < 2048 && !picker.wants(CALL); i++) untimed += CALL;
    if (round > 1) assert.equal(untimed, 4 * stretch, `round ${round}: the stretch grew fourfold`);
    else assert.equal(untimed, 512 << 20, 'the first re-check after 512 MiB (16 rounds of 2 x 16 MiB)');
    stretch = untimed;
    calls([1, 2], () => picker.rounds === round + 1);
    assert.equal(picker.chosen, 0, 'the same choice each round');
  }
});

it('a near tie does not leave the variant in use: another must be 5% faster', () => {
  const { picker, calls } = simulate(2);
  calls([1, 0.97], () => picker.rounds === 1);
  assert.equal(picker.chosen, 0, 'a 3% lead does not leave the default');
  calls([1, 0.9], () => picker.rounds === 2);
  assert.equal(picker.chosen, 1, 'a 10% lead does');
  calls([0.97, 1], () => picker.rounds === 3);
  assert.equal(picker.chosen, 1, 'and a 3% lead does not switch back');
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
