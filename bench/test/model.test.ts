/**
 * The model of fourfold/parallel (report/model.ts) on numbers worked out
 * by hand, and the simple bound W / max((W + C) / n, C) on a worked example
 * (BLAKE3 of 64 MiB: W 37 ms, C one copy pass of 6 ms: 1.72x on 2 cores).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { boundSpeedup, copyPasses, projectedMs, projectedSpeedup, type Costs } from '../report/model.js';

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} is not ${expected}`);

describe('the model', () => {
  const k: Costs = { w: 37, copies: 12, touch: 0, messages: 0, pieces: 0 };

  it('balances the calling thread against the workers: x·W + (1 − x)·O = (1 − x)·W / (n − 1)', () => {
    // n = 2: x = (37 − 12) / (37 + 37 − 12) = 25/62; T = 25/62·37 + 37/62·12 = 1369/62.
    close(projectedMs(k, 2), 1369 / 62, 'T(2)');
    close(projectedSpeedup(k, 2), 37 / (1369 / 62), 'speedup(2)');
    // n = 4: W/3 = 37/3; x = (37/3 − 12)/(37 + 37/3 − 12) = (1/3)/(112/3) = 1/112; T = 37/112 + 111/112·12.
    close(projectedMs(k, 4), 37 / 112 + (111 / 112) * 12, 'T(4)');
    const t = projectedMs(k, 4);
    const x = 1 / 112;
    close(x * k.w + (1 - x) * k.copies, ((1 - x) * k.w) / 3, 'both sides finish together');
    assert.ok(t < projectedMs(k, 2));
  });

  it('once the copies outlast the workers the calling thread only copies, and more cores gain nothing', () => {
    // n = 8: W/7 ≈ 5.3 < 12, so x = 0 and T = O = 12.
    close(projectedMs(k, 8), 12, 'T(8)');
    close(projectedMs(k, 16), 12, 'T(16)');
    close(projectedSpeedup(k, 16), 37 / 12, 'speedup(16)');
  });

  it("adds the messages to the copies, and the pieces' own cost serially; one core is the synchronous call plus the pieces", () => {
    const m: Costs = { w: 37, copies: 10, touch: 0, messages: 2, pieces: 1.5 };
    close(projectedMs(m, 2), projectedMs({ ...k, copies: 12 }, 2) + 1.5, 'T(2) with m·J and K');
    close(projectedMs(m, 1), 38.5, 'T(1)');
    // Without copies or messages (SharedArrayBuffer input and output), the speedup is n.
    close(projectedSpeedup({ w: 40, copies: 0, touch: 0, messages: 0, pieces: 0 }, 8), 8, 'shared, 8 cores');
  });

  it("the output's allocation and first touch, part of W, leave the workers' work for the calling thread's copies", () => {
    // V = (37 − 6) / 1 = 31; x = (31 − 12) / (37 + 31 − 12) = 19/56; T = 19/56·37 + 37/56·12 = 1147/56.
    const touched: Costs = { ...k, touch: 6 };
    close(projectedMs(touched, 2), 1147 / 56, 'T(2)');
    assert.ok(projectedMs(touched, 2) < projectedMs(k, 2));
    // When the copies outlast the workers, the touch changes nothing: T = C.
    close(projectedMs(touched, 16), 12, 'T(16)');
  });

  it('a serial call (CBC encryption) runs on one worker: never faster than the synchronous call', () => {
    const serial: Costs = { w: 300, copies: 12, touch: 5, messages: 1, pieces: 2, serial: true };
    // The worker writes no output of the caller's: the output's first touch (5) is the calling thread's, in its copies.
    for (const n of [2, 4, 8, 16]) close(projectedMs(serial, n), 297, `T(${n})`);
    close(boundSpeedup(serial, 16), 1, 'bound');
  });

  it('the simple bound W / max((W + C) / n, C): 1.72x for blake3 on 2 cores (W 37 ms, one pass of 6 ms)', () => {
    const blake3: Costs = { w: 37, copies: 6, touch: 0, messages: 0, pieces: 0 };
    close(boundSpeedup(blake3, 2), 37 / 21.5, 'bound(2)');
    assert.equal(boundSpeedup(blake3, 2).toFixed(2), '1.72');
    close(boundSpeedup(blake3, 16), 37 / 6, 'bound(16): the copies');
    // The model copies only the workers' share, so it may pass the bound.
    assert.ok(projectedSpeedup(blake3, 2) > boundSpeedup(blake3, 2));
  });

  it("copies by op: a MAC or hash has no output to copy, an AEAD decryption into the caller's output reads its input twice, CBC encryption is serial, shared memory is not copied", () => {
    assert.deepEqual(copyPasses('chacha20'), { in: 1, out: 1 });
    assert.deepEqual(copyPasses('poly1305'), { in: 1, out: 0 });
    assert.deepEqual(copyPasses('blake3-keyed'), { in: 1, out: 0 });
    assert.deepEqual(copyPasses('xchacha20poly1305-encrypt'), { in: 1, out: 1 });
    assert.deepEqual(copyPasses('xsalsa20poly1305-decrypt'), { in: 1, out: 1 });
    assert.deepEqual(copyPasses('xsalsa20poly1305-decrypt', 'reused'), { in: 2, out: 1 });
    assert.deepEqual(copyPasses('chacha20', 'reused'), { in: 1, out: 1 });
    assert.deepEqual(copyPasses('chacha20', 'shared'), { in: 0, out: 0, serial: false });
    assert.deepEqual(copyPasses('serpent-cbc-decrypt'), { in: 1, out: 1 });
    assert.deepEqual(copyPasses('serpent-cbc-encrypt'), { in: 1, out: 1, serial: true });
  });
});
