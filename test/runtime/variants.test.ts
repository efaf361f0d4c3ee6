/**
 * Kernel variants chosen by timing real calls (src/runtime/variants.ts):
 * the one home of the variant tests. First the picker on a fake clock (it
 * settles on the faster variant, resists pauses and load, re-checks),
 * then each kernel that ships variants (ChaCha's rotations, BLAKE3's
 * 4-wide chunk function: i8x16.swizzle or i8x16.shuffle; scrypt's ROMix
 * in vectors or scalar words), which must give
 * the same bytes through every variant, before, during and after the choice.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import {
  blake3Kernel,
  blake3VariantPicker,
  chachaKernel,
  chachaVariantPicker,
  scryptFormPicker,
  scryptForms,
  VariantPicker,
  variantPicker,
  type VariantKernel,
} from '../internal.js';
import { ready } from 'fourfold';
import { blake3 } from 'fourfold/blake3';
import { chacha20, chacha20poly1305 } from 'fourfold/chacha';
import { scrypt } from 'fourfold/scrypt';
import { chacha20 as nobleChacha20, chacha20poly1305 as nobleAead } from '@noble/ciphers/chacha.js';
import { scrypt as nobleScrypt } from '@noble/hashes/scrypt.js';
import { assertBytes, NO_SIMD } from '../helpers.js';
import { nobleBlake3 } from '../blake3/reference.js';

it('the picker times large calls round-robin and keeps the variant with the least time per byte', () => {
  let selected = -1;
  const selections: number[] = [];
  // A fake clock: each call advances it by its variant's cost, so nothing real is timed.
  let clock = 0;
  const picker = new VariantPicker(
    3,
    (i) => {
      selected = i;
      selections.push(i);
    },
    () => clock,
  );
  assert.equal(picker.wants(1024), false, 'short calls are not timed');
  assert.equal(picker.wants(1 << 20), true);
  const cost = [3, 1, 2]; // ms per call: variant 1 is fastest
  const calls: number[] = [];
  while (picker.chosen === undefined && calls.length < 200) {
    picker.run(4 << 20, () => {
      calls.push(selected);
      clock += cost[selected];
    });
  }
  assert.equal(picker.chosen, 1);
  assert.equal(selected, 1, 'the kernel is left on the chosen variant');
  assert.deepEqual(calls.slice(0, 6), [0, 1, 2, 0, 1, 2], 'variants take turns while measuring');
  assert.equal(picker.wants(1 << 20), false, 'nothing is timed once decided');
  const costs = picker.costs();
  assert.deepEqual(
    costs,
    cost.map((ms) => (ms * 1e6) / (4 << 20)),
    'ns per byte of each variant',
  );
  assert.ok(selections.length > 0);
});

it('one slow call (a garbage-collection pause) does not decide the choice: the median time per byte does', () => {
  let selected = -1;
  let clock = 0;
  const picker = new VariantPicker(
    2,
    (i) => {
      selected = i;
    },
    () => clock,
  );
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
  assert.deepEqual(
    picker.costs(),
    cost.map((ms) => (ms * 1e6) / (4 << 20)),
  );
});

/**
 * A picker over `count` variants on a fake clock: each call of `length`
 * bytes advances it by `cost()[selected]` ns per byte, so nothing real is
 * timed. Returns a driver that makes calls and reports which variant each used.
 */
function simulate(count: number) {
  let selected = -1;
  let clock = 0;
  const picker = new VariantPicker(
    count,
    (i) => (selected = i),
    () => clock,
  );
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
  for (const [slow, fast] of [
    [0, 1],
    [1, 0],
  ]) {
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

it('the first round warms up: calls on baseline code while the optimized compiles decide nothing', () => {
  // V8 runs a kernel's baseline code until its optimized code is in, at the start of a later call:
  // Argon2's first 32 MiB ran at twice the cost, where the variant 3.5% slower looked 5% faster (a
  // lead MARGIN would then keep for good, the real one being under 5%).
  for (const { warm, truth, want } of [
    { warm: [1.16, 1.1], truth: [0.576, 0.597], want: 0 },
    { warm: [1.0, 1.2], truth: [0.66, 0.576], want: 1 },
  ]) {
    const { picker, calls, CALL } = simulate(2);
    // 4 MiB calls, 16 MiB a variant: the whole warm-up round.
    const used = calls(warm, () => false, 8);
    assert.deepEqual(used, [0, 1, 0, 1, 0, 1, 0, 1], 'the warm-up round alternates as a counted one');
    assert.equal(picker.chosen, undefined, 'and decides nothing');
    assert.equal(picker.rounds, 0);
    const counted = calls(truth, () => picker.rounds === 1);
    assert.equal(counted.length, (2 * (16 << 20)) / CALL, 'one counted round of 16 MiB a variant decides');
    assert.equal(picker.chosen, want, `the optimized code's costs decide (${truth.join(', ')})`);
  }
});

it('a single variant needs no measurement', () => {
  const picker = new VariantPicker(1, () => assert.fail('nothing to select'));
  assert.equal(picker.chosen, 0);
  assert.equal(picker.wants(1 << 30), false);
});

it("a family's picker accessor makes one picker, on the kernel's own variant count and selector", () => {
  let selected = -1;
  const kernel: VariantKernel = { variant_count: () => 3, select_variant: (i) => void (selected = i) };
  const access = variantPicker<VariantKernel>();
  const picker = access(kernel);
  assert.equal(access(kernel), picker, 'the same picker on every call');
  const used: number[] = [];
  for (let i = 0; i < 3; i++) picker.run(4 << 20, () => used.push(selected));
  assert.deepEqual(used, [0, 1, 2], "measuring, it runs each variant in turn, selected through the kernel's select_variant");
});

/** 1 MiB + 77 bytes: long enough to be timed, and not a whole number of blocks or chunks. */
const DATA = Uint8Array.from({ length: (1 << 20) + 77 }, (_, i) => (i * 131) & 0xff);
/** Shorter than the picker times (8 KiB), and one slice or less: a call that leaves the picker alone. */
const UNTIMED = DATA.subarray(0, 8191);
const KEY = DATA.subarray(5, 37);
const NONCE = DATA.subarray(40, 52);

/**
 * Each kernel that ships variants: how to reach it and its picker, and the
 * calls its variants serve, as fourfold's outputs (`ours`) and a peer's
 * (`theirs`) for the same input.
 */
const FAMILIES: {
  name: string;
  kernel(): VariantKernel;
  picker(): VariantPicker;
  ours(data: Uint8Array): Uint8Array[];
  theirs(data: Uint8Array): Uint8Array[];
}[] = [
  {
    name: 'ChaCha20 and its AEAD',
    kernel: () => chachaKernel().k,
    picker: () => chachaVariantPicker(chachaKernel().k),
    ours: (data) => [chacha20(KEY, NONCE, data), chacha20poly1305(KEY, NONCE).encrypt(data)],
    theirs: (data) => [nobleChacha20(KEY, NONCE, data), nobleAead(KEY, NONCE).encrypt(data)],
  },
  {
    name: 'BLAKE3',
    kernel: () => blake3Kernel().k,
    picker: () => blake3VariantPicker(blake3Kernel().k),
    ours: (data) => [blake3(data), blake3.create({ key: KEY }).update(data).digest()],
    theirs: (data) => [nobleBlake3(data), nobleBlake3(data, { key: KEY })],
  },
  {
    // The picker weighs a run by the bytes its BlockMixes go through: N = 2, r = 1 (512 bytes) is never
    // timed, N = 1024, r = 8 (2 MiB) is; the password is the data, the salt a part of it.
    name: "scrypt's ROMix (X in vectors or in scalar words)",
    kernel: () => scryptForms,
    picker: () => scryptFormPicker,
    ours: (data) => [scrypt(data, KEY, scryptCost(data))],
    theirs: (data) => [nobleScrypt(data, KEY, scryptCost(data))],
  },
];

/** The scrypt cost of a variant test's call: short data, a run too short to time; long, one the picker times. */
function scryptCost(data: Uint8Array) {
  return data.length < 8192 ? { N: 2, r: 1, p: 1, dkLen: 64 } : { N: 1024, r: 8, p: 1, dkLen: 64 };
}

for (const family of FAMILIES) {
  it(`${family.name}: the same bytes through every variant, before, during and after the choice`, { skip: NO_SIMD }, async () => {
    await ready({ tier: 'simd' });
    const k = family.kernel();
    assert.ok(k.variant_count() >= 2, 'the kernel ships several variants');
    const same = (data: Uint8Array, want: Uint8Array[], label: string) =>
      family.ours(data).forEach((out, i) => {
        assertBytes(out, want[i]!, `${label}, output ${i}`);
      });
    const untimed = family.theirs(UNTIMED);
    const expected = family.theirs(DATA);
    const picker = family.picker();
    const before = picker.chosen;
    for (let v = 0; v < k.variant_count(); v++) {
      k.select_variant(v);
      same(UNTIMED, untimed, `variant ${v}, an untimed call`);
    }
    if (before !== undefined) k.select_variant(before);
    let calls = 0;
    while (picker.chosen === undefined && calls < 100) same(DATA, expected, `call ${calls++}`);
    assert.notEqual(picker.chosen, undefined, 'the picker decided within 100 calls of 1 MiB');
    same(DATA, expected, 'after the choice');
    for (let v = 0; v < k.variant_count(); v++) {
      k.select_variant(v);
      same(DATA, expected, `variant ${v}, after the choice`);
    }
    k.select_variant(picker.chosen!);
  });
}
