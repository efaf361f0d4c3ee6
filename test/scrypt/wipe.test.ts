/**
 * The simd tier's scrypt memory after every kind of call: the lane's
 * memory, kept for the next call (simd.ts), is all zero, as is every
 * kernel's fixed memory, after scrypt(), scryptAsync(), a call aborted
 * mid-way and a call ended by its onProgress.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { assertKernelsWiped, firstNonZero, NO_SIMD } from '../helpers.js';
import { spareMemory } from '../internal.js';

/** The kept memory exists (a call grew one) and is zero. */
function assertLaneWiped(label: string, atLeast: number): void {
  const m = spareMemory();
  assert.ok(m !== undefined, `${label}: no memory is kept after the call`);
  assert.ok(m.length >= atLeast, `${label}: the kept memory is ${m.length} bytes, the call needed ${atLeast}`);
  assert.equal(firstNonZero(m), -1, `${label}: byte ${firstNonZero(m)} of the lane's memory is not zero`);
  assertKernelsWiped(label, 'scrypt');
}

describe('scrypt memory is wiped (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('after scrypt(), for one lane and for several', () => {
    scrypt('pw', 'salt', { N: 1024, r: 8 });
    assertLaneWiped('N = 1024, r = 8', 1024 * 8 * 128);
    scrypt('pw', 'salt', { N: 64, r: 5, p: 3 });
    assertLaneWiped('N = 64, r = 5, p = 3', 64 * 5 * 128);
  });

  it('after scryptAsync(), ended normally, aborted mid-way or by its onProgress', async () => {
    // 32 MiB: wiped over several turns.
    await scryptAsync('pw', 'salt', { N: 2 ** 15, r: 8 });
    assertLaneWiped('scryptAsync', 2 ** 15 * 8 * 128);
    const controller = new AbortController();
    await assert.rejects(scryptAsync('pw', 'salt', { N: 2 ** 15, signal: controller.signal, onProgress: () => controller.abort() }));
    assertLaneWiped('aborted', 2 ** 15 * 8 * 128);
    await assert.rejects(
      scryptAsync('pw', 'salt', {
        N: 2 ** 15,
        onProgress: () => {
          throw new Error('stop');
        },
      }),
    );
    assertLaneWiped('ended by onProgress', 2 ** 15 * 8 * 128);
  });
});
