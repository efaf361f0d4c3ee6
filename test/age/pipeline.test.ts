/**
 * The parts of age's payload handling that the file-level tests reach
 * only through their effects: the workers' in-place jobs (a piece sealed
 * or opened inside one slot, its output at or before its input) give the
 * bytes of sealing and opening into separate arrays, on both tiers'
 * engines; and the pipeline hands a Runner batches of whole chunks, none
 * larger than its batch, the final one last and flagged, in place where a
 * write holds half a batch or more, whatever the writes' sizes.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { assertBytes, NO_SIMD, rand } from '../helpers.js';
import {
  hereRunner,
  jsChacha,
  openInPlace,
  openRun,
  PayloadOpener,
  PayloadSealer,
  type Runner,
  sealInPlace,
  sealPlainAt,
  sealRun,
  simdChacha,
} from '../internal.js';

const CHUNK = 65536;
const SEALED = CHUNK + 16;
const sealedLength = (n: number) => n + 16 * Math.max(1, Math.ceil(n / CHUNK));
const engines = [
  { name: 'js', engine: jsChacha, skip: false as const },
  { name: 'simd', engine: simdChacha, skip: NO_SIMD },
];

describe('the in-place jobs', () => {
  before(async () => {
    await ready();
  });
  const key = rand(32);
  const lengths = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17, 15 * CHUNK];
  for (const { name, engine, skip } of engines) {
    it(`seal and open in one slot give the bytes of separate arrays (${name})`, { skip }, () => {
      for (const length of lengths) {
        for (const run of [
          { counter: 0, final: true },
          { counter: 2 ** 32 + 5, final: false },
        ]) {
          if (length % CHUNK !== 0 && !run.final) continue;
          const plain = rand(length);
          const expected = new Uint8Array(sealedLength(length));
          sealRun(engine, key, run, plain, expected);
          const slot = rand(1 << 20);
          slot.set(plain, sealPlainAt(length));
          sealInPlace(engine, key, run, slot, length);
          assertBytes(slot.subarray(0, expected.length), expected, `${name} seal, ${length} bytes, counter ${run.counter}`);
          const chunks = Math.max(1, Math.ceil(length / CHUNK));
          assert.equal(openInPlace(engine, key, run, slot, expected.length), chunks, `${name} open, ${length} bytes`);
          assertBytes(slot.subarray(0, length), plain, `${name} open, ${length} bytes`);
        }
      }
    });

    it(`open in place stops at a changed chunk: those before it opened, it zeroed (${name})`, { skip }, () => {
      const plain = rand(5 * CHUNK);
      const run = { counter: 7, final: true };
      const sealed = new Uint8Array(sealedLength(plain.length));
      sealRun(engine, key, run, plain, sealed);
      for (const bad of [0, 2, 4]) {
        const slot = new Uint8Array(1 << 20);
        slot.set(sealed);
        slot[bad * SEALED + 100]! ^= 1;
        const separate = new Uint8Array(plain.length);
        assert.equal(openRun(engine, key, run, slot.slice(0, sealed.length), separate), bad);
        assert.equal(openInPlace(engine, key, run, slot, sealed.length), bad, `${name}: chunk ${bad}`);
        assertBytes(slot.subarray(0, bad * CHUNK), plain.subarray(0, bad * CHUNK), `${name}: before chunk ${bad}`);
        assert.ok(
          slot.subarray(bad * CHUNK, (bad + 1) * CHUNK).every((b) => b === 0),
          `${name}: chunk ${bad}'s place is not zeroed`,
        );
      }
    });
  }
});

/** A Runner on this thread that records each batch it is given: its first chunk, its length, whether it is final, and whether it was the caller's own array. */
function recording(
  batchChunks: number,
  writes: Uint8Array[],
): { runner: Runner; batches: { counter: number; length: number; final: boolean; inPlace: boolean }[] } {
  const batches: { counter: number; length: number; final: boolean; inPlace: boolean }[] = [];
  const runner: Runner = {
    batchChunks,
    seal(key, run, plain, out) {
      batches.push({ counter: run.counter, length: plain.length, final: run.final, inPlace: writes.some((w) => w.buffer === plain.buffer) });
      return hereRunner.seal(key, run, plain, out);
    },
    open(key, run, sealed, out) {
      batches.push({ counter: run.counter, length: sealed.length, final: run.final, inPlace: writes.some((w) => w.buffer === sealed.buffer) });
      return hereRunner.open(key, run, sealed, out);
    },
    done: () => {},
  };
  return { runner, batches };
}

const joined = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('the pipeline', () => {
  before(async () => {
    await ready();
  });

  it('hands out whole-chunk batches of at most a batch, in order, the final last; in place where a write holds half a batch', async () => {
    const batchChunks = 8;
    const total = 37 * CHUNK + 123;
    const data = rand(total);
    for (const writeSize of [1000, CHUNK, 3 * CHUNK + 5, 4 * CHUNK, 8 * CHUNK, 8 * CHUNK + 1, 20 * CHUNK, total]) {
      const key = rand(32);
      const writes: Uint8Array[] = [];
      const sealedParts: Uint8Array[] = [];
      const { runner, batches } = recording(batchChunks, writes);
      const sealer = new PayloadSealer(key.slice(), runner, (b) => sealedParts.push(b));
      for (let at = 0; at < total; at += writeSize) {
        const w = data.slice(at, at + writeSize);
        writes.push(w);
        await sealer.write(w);
      }
      await sealer.end();
      let counter = 0;
      for (const [i, b] of batches.entries()) {
        const last = i === batches.length - 1;
        assert.equal(b.counter, counter, `writes of ${writeSize}: batch ${i}'s counter`);
        assert.ok(b.length <= batchChunks * CHUNK, `writes of ${writeSize}: batch ${i} of ${b.length} bytes`);
        if (!last) assert.equal(b.length % CHUNK, 0, `writes of ${writeSize}: batch ${i} is not whole chunks`);
        assert.equal(b.final, last, `writes of ${writeSize}: batch ${i}'s final flag`);
        counter += Math.max(1, Math.ceil(b.length / CHUNK));
      }
      if (writeSize >= 4 * CHUNK + 1)
        assert.ok(
          batches.some((b) => b.inPlace),
          `writes of ${writeSize}: no batch was taken in place`,
        );
      if (writeSize < 4 * CHUNK) assert.ok(!batches.some((b) => b.inPlace), `writes of ${writeSize}: a batch was taken in place`);
      const sealed = joined(sealedParts);
      const expected = new Uint8Array(sealedLength(total));
      sealRun(jsChacha, key, { counter: 0, final: true }, data, expected);
      assertBytes(sealed, expected, `writes of ${writeSize}: sealed`);

      const opened: Uint8Array[] = [];
      const back = recording(batchChunks, []);
      const opener = new PayloadOpener(key.slice(), back.runner, (b) => opened.push(b));
      for (let at = 0; at < sealed.length; at += writeSize) await opener.write(sealed.slice(at, at + writeSize));
      await opener.end();
      assertBytes(joined(opened), data, `writes of ${writeSize}: opened`);
      assert.equal(back.batches[back.batches.length - 1]!.final, true);
      assert.ok(back.batches.slice(0, -1).every((b) => b.length % SEALED === 0 && !b.final && b.length <= batchChunks * SEALED));
    }
  });

  it('an empty payload is one empty final chunk; a payload that is exactly whole batches ends with a short final batch, never an empty one', async () => {
    for (const total of [0, 8 * CHUNK, 16 * CHUNK]) {
      const { runner, batches } = recording(8, []);
      const parts: Uint8Array[] = [];
      const sealer = new PayloadSealer(rand(32), runner, (b) => parts.push(b));
      if (total > 0) await sealer.write(rand(total));
      await sealer.end();
      const last = batches[batches.length - 1]!;
      assert.equal(last.final, true);
      assert.ok(total === 0 ? last.length === 0 : last.length > 0, `${total}: a final batch of ${last.length} bytes`);
      assert.equal(joined(parts).length, sealedLength(total));
    }
  });
});
