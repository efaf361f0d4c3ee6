/**
 * The BLAKE3 kernel ships its 4-wide chunk function in several variants
 * (rotations as i8x16.swizzle or i8x16.shuffle) and keeps the one that
 * real calls show to be fastest (src/runtime/variants.ts): every variant
 * gives the same bytes, before, during and after the choice.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { blake3 } from 'fourfold/blake3';
import { blake3Kernel, blake3Variants } from '../internal.js';
import { assertBytes, NO_SIMD } from '../helpers.js';
import { nobleBlake3 } from './reference.js';

it('every variant hashes alike, and the picker decides', { skip: NO_SIMD }, async () => {
  await ready({ tier: 'simd' });
  const { k } = blake3Kernel();
  assert.ok(k.variant_count() >= 2, 'the kernel ships several variants');
  const data = Uint8Array.from({ length: (1 << 20) + 77 }, (_, i) => (i * 131) & 0xff);
  const key = data.subarray(5, 37);
  const expected = nobleBlake3(data);
  const keyed = nobleBlake3(data, { key });
  for (let v = 0; v < k.variant_count(); v++) {
    k.select_variant(v);
    assertBytes(blake3(data.subarray(0, 32768)), nobleBlake3(data.subarray(0, 32768)), `variant ${v}, one slice`);
  }
  const picker = blake3Variants(k);
  let calls = 0;
  while (picker.chosen === undefined && calls < 100) {
    assertBytes(blake3(data), expected, `call ${calls}`);
    assertBytes(blake3.create({ key }).update(data).digest(), keyed, `keyed call ${calls}`);
    calls++;
  }
  assert.notEqual(picker.chosen, undefined, 'the picker decided within 200 MiB of traffic');
  assertBytes(blake3(data), expected, 'after the choice');
});
