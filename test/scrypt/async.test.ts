/**
 * scryptAsync: the same bytes as scrypt(), the event loop free between its
 * turns, progress reported in order and ending at exactly 1, an
 * AbortSignal honoured before and during the call, an exception from
 * onProgress ending the call, and the password and salt read once (a
 * caller changing its arrays during the call changes nothing).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { assertBytes, forEachTier, NO_ABORT, rand, type TierName } from '../helpers.js';

/** N large enough for several turns of the event loop on each tier (tens of milliseconds). */
const N = (tier: TierName) => (tier === 'simd' ? 2 ** 15 : 2 ** 12);

forEachTier('scryptAsync', (tier) => {
  it('gives the bytes of scrypt(), with p > 1 too', async () => {
    const password = rand(20);
    const salt = rand(16);
    for (const opts of [{ N: 16 }, { N: 64, r: 3, p: 3, dkLen: 77 }, { N: N(tier), r: 2 }]) {
      assertBytes(await scryptAsync(password, salt, opts), scrypt(password, salt, opts), JSON.stringify(opts));
    }
  });

  it('lets the event loop run during the call: a timer set after it starts fires before it ends', async () => {
    let fired = false;
    const call = scryptAsync('pw', 'salt', { N: N(tier) });
    setTimeout(() => (fired = true), 0);
    await call;
    assert.ok(fired, 'the timer did not fire during the call');
  });

  it('reports progress: increasing fractions below 1, then 1 exactly once, at the end', async () => {
    const seen: number[] = [];
    const key = await scryptAsync('pw', 'salt', { N: N(tier), p: 2, onProgress: (f) => seen.push(f) });
    assert.ok(seen.length >= 3, `${seen.length} reports`);
    assert.equal(seen[seen.length - 1], 1);
    assert.equal(seen.filter((f) => f === 1).length, 1);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `report ${i}: ${seen[i]} after ${seen[i - 1]}`);
    assert.ok(seen[0]! > 0);
    assertBytes(key, scrypt('pw', 'salt', { N: N(tier), p: 2 }));
  });

  it('an AbortSignal aborted before the call rejects with its reason, and no progress is reported', { skip: NO_ABORT }, async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    let reports = 0;
    await assert.rejects(scryptAsync('pw', 'salt', { N: 16, signal: controller.signal, onProgress: () => reports++ }), (e) => e === reason);
    assert.equal(reports, 0);
  });

  it('an AbortSignal aborted during the call stops it at its next turn, rejecting with the reason', { skip: NO_ABORT }, async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    let reports = 0;
    await assert.rejects(
      scryptAsync('pw', 'salt', {
        N: N(tier),
        signal: controller.signal,
        onProgress: () => {
          reports++;
          controller.abort(reason);
        },
      }),
      (e) => e === reason,
    );
    assert.equal(reports, 1, 'no progress after the abort');
  });

  it('an exception thrown by onProgress ends the call with it', async () => {
    const oops = new Error('from onProgress');
    await assert.rejects(
      scryptAsync('pw', 'salt', {
        N: N(tier),
        onProgress: () => {
          throw oops;
        },
      }),
      (e) => e === oops,
    );
  });

  it('reads the password and salt once: changing them during the call changes nothing', async () => {
    const password = rand(32);
    const salt = rand(16);
    const want = scrypt(password, salt, { N: N(tier) });
    const call = scryptAsync(password, salt, { N: N(tier) });
    password.fill(1);
    salt.fill(2);
    assertBytes(await call, want);
  });
});
