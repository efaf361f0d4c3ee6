/**
 * The parts of age's payload handling that the file-level tests reach
 * only through their effects: the workers' in-place jobs (a piece sealed
 * or opened inside one slot, its output at or before its input) give the
 * bytes of sealing and opening into separate arrays, on both tiers'
 * engines; and the pipeline hands a Runner's lane pieces of whole chunks,
 * none larger than a piece, the final one last and flagged, views of the
 * writes only for a lane that is done with them at once, and the same
 * bytes whatever the writes' sizes and the lane's order of work.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError, ready } from 'fourfold';
import { assertBytes, NO_SIMD, rand } from '../helpers.js';
import {
  hereRunner,
  jsChacha,
  openInPlace,
  openRun,
  PayloadOpener,
  PayloadSealer,
  type PayloadPiece,
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

/**
 * A Runner on this thread that records each piece its lane is given: its
 * first chunk, its length, whether it is final, and whether it is a view
 * of one of the caller's writes, and each buffer its lane makes. An
 * asynchronous one (as the pool's) holds pieces and does them three at a
 * time, latest first, a turn later; or, `atOnce`, does each as it comes
 * (as the typage API's lane before the pool), still asynchronous.
 */
function recording(
  pieceChunks: number,
  writes: Uint8Array[],
  synchronous = true,
  atOnce = false,
): { runner: Runner; pieces: { counter: number; length: number; final: boolean; inPlace: boolean }[]; buffers: Uint8Array[] } {
  const pieces: { counter: number; length: number; final: boolean; inPlace: boolean }[] = [];
  const buffers: Uint8Array[] = [];
  const runner: Runner = {
    pieceChunks,
    seal: hereRunner.seal,
    open: hereRunner.open,
    lane(key, opening) {
      const here = hereRunner.lane(key, opening);
      const held: PayloadPiece[] = [];
      const doHeld = (): PayloadPiece[] => {
        for (const p of held.slice().reverse()) here.add(p);
        return held.splice(0);
      };
      return {
        synchronous,
        add(p) {
          pieces.push({ counter: p.run.counter, length: p.input.length, final: p.run.final, inPlace: writes.some((w) => w.buffer === p.input.buffer) });
          if (synchronous) return here.add(p);
          if (atOnce) return Promise.resolve(here.add(p));
          held.push(p);
          return new Promise((resolve) => setTimeout(() => resolve(held.length >= 3 ? doHeld() : []), 0));
        },
        finish: () => doHeld(),
        abandon: () => held.splice(0),
        buffer: (bytes) => buffers[buffers.push(new Uint8Array(bytes)) - 1]!,
      };
    },
    files: hereRunner.files,
    done: () => {},
  };
  return { runner, pieces, buffers };
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

  for (const synchronous of [true, false]) {
    const lane = synchronous ? 'a synchronous lane' : 'an asynchronous lane';
    it(`hands ${lane} whole-chunk pieces of at most a piece, in order, the final last; the bytes whatever the writes`, async () => {
      const pieceChunks = 8;
      const total = 37 * CHUNK + 123;
      const data = rand(total);
      for (const writeSize of [1000, CHUNK, 3 * CHUNK + 5, 4 * CHUNK, 8 * CHUNK, 8 * CHUNK + 1, 20 * CHUNK, total]) {
        const key = rand(32);
        const writes: Uint8Array[] = [];
        const sealedParts: Uint8Array[] = [];
        const { runner, pieces } = recording(pieceChunks, writes, synchronous);
        const sealer = new PayloadSealer(key.slice(), runner, (b) => sealedParts.push(b.slice()));
        for (let at = 0; at < total; at += writeSize) {
          const w = data.slice(at, at + writeSize);
          writes.push(w);
          await sealer.write(w);
          // Once a write resolved, the pipeline reads it no more: the caller may reuse it.
          w.fill(0xa5);
        }
        await sealer.end();
        let counter = 0;
        for (const [i, b] of pieces.entries()) {
          const last = i === pieces.length - 1;
          assert.equal(b.counter, counter, `writes of ${writeSize}: piece ${i}'s counter`);
          assert.ok(b.length <= pieceChunks * CHUNK, `writes of ${writeSize}: piece ${i} of ${b.length} bytes`);
          if (!last) assert.equal(b.length % CHUNK, 0, `writes of ${writeSize}: piece ${i} is not whole chunks`);
          assert.equal(b.final, last, `writes of ${writeSize}: piece ${i}'s final flag`);
          counter += Math.max(1, Math.ceil(b.length / CHUNK));
        }
        // Only a lane that is done with a piece before add() returns may read a write where it is.
        if (synchronous && writeSize >= 4 * CHUNK + 1)
          assert.ok(
            pieces.some((b) => b.inPlace),
            `writes of ${writeSize}: no piece was taken in place`,
          );
        if (!synchronous || writeSize < 4 * CHUNK) assert.ok(!pieces.some((b) => b.inPlace), `writes of ${writeSize}: a piece was taken in place`);
        const sealed = joined(sealedParts);
        const expected = new Uint8Array(sealedLength(total));
        sealRun(jsChacha, key, { counter: 0, final: true }, data, expected);
        assertBytes(sealed, expected, `writes of ${writeSize}: sealed`);

        const opened: Uint8Array[] = [];
        const back = recording(pieceChunks, [], synchronous);
        const opener = new PayloadOpener(key.slice(), back.runner, (b) => opened.push(b.slice()));
        for (let at = 0; at < sealed.length; at += writeSize) {
          const w = sealed.slice(at, at + writeSize);
          await opener.write(w);
          w.fill(0x5a);
        }
        await opener.end();
        assertBytes(joined(opened), data, `writes of ${writeSize}: opened`);
        assert.equal(back.pieces[back.pieces.length - 1]!.final, true);
        assert.ok(back.pieces.slice(0, -1).every((b) => b.length % SEALED === 0 && !b.final && b.length <= pieceChunks * SEALED));
      }
    });

    it(`through ${lane}, a changed chunk releases exactly the chunks before it, then fails`, async () => {
      const key = rand(32);
      const data = rand(30 * CHUNK + 5);
      const sealed = new Uint8Array(sealedLength(data.length));
      sealRun(jsChacha, key, { counter: 0, final: true }, data, sealed);
      for (const bad of [0, 7, 8, 17, 30]) {
        const changed = sealed.slice();
        changed[bad * SEALED + 3]! ^= 1;
        const opened: Uint8Array[] = [];
        const opener = new PayloadOpener(key.slice(), recording(8, [], synchronous).runner, (b) => opened.push(b.slice()));
        await assert.rejects(async () => {
          for (let at = 0; at < changed.length; at += 3 * CHUNK) await opener.write(changed.subarray(at, at + 3 * CHUNK));
          await opener.end();
        }, AuthenticationError);
        opener.forget();
        assertBytes(joined(opened), data.subarray(0, bad * CHUNK), `chunk ${bad} changed: what was released`);
      }
    });
  }

  it('an empty payload is one empty final chunk; a payload that is exactly whole pieces ends with a short final piece, never an empty one', async () => {
    for (const total of [0, 8 * CHUNK, 16 * CHUNK]) {
      const { runner, pieces } = recording(8, []);
      const parts: Uint8Array[] = [];
      const sealer = new PayloadSealer(rand(32), runner, (b) => parts.push(b));
      if (total > 0) await sealer.write(rand(total));
      await sealer.end();
      const last = pieces[pieces.length - 1]!;
      assert.equal(last.final, true);
      assert.ok(total === 0 ? last.length === 0 : last.length > 0, `${total}: a final piece of ${last.length} bytes`);
      assert.equal(joined(parts).length, sealedLength(total));
    }
  });

  it('gathers into few buffers, wiped once the stream is done: one within a chunk, then pieces, reused as they come back', async () => {
    const pieceChunks = 8;
    const piece = pieceChunks * CHUNK;
    const data = rand(3 * piece + 5);
    for (const [lane, atOnce, most] of [
      ['a lane that does each piece as it comes', true, 1],
      ['a lane that holds pieces', false, 5],
    ] as const) {
      const { runner, buffers } = recording(pieceChunks, [], false, atOnce);
      const sealedParts: Uint8Array[] = [];
      const sealer = new PayloadSealer(rand(32), runner, (b) => sealedParts.push(b));
      for (let at = 0; at < data.length; at += CHUNK) await sealer.write(data.subarray(at, at + CHUNK));
      await sealer.end();
      assert.equal(joined(sealedParts).length, sealedLength(data.length));
      const small = buffers.filter((b) => b.length < piece);
      assert.ok(small.length === 1 && small[0]!.length <= CHUNK, `${lane}: buffers below a piece of ${small.map((b) => b.length)} bytes`);
      const pieces = buffers.length - small.length;
      assert.ok(pieces >= 1 && pieces <= most, `${lane}: ${pieces} piece buffers, at most ${most}`);
      assert.ok(
        buffers.every((b) => b.every((x) => x === 0)),
        `${lane}: a buffer holds plaintext once the stream is done`,
      );
    }
  });

  it('an opener that fails leaves no buffer holding its bytes once forgotten', async () => {
    const key = rand(32);
    const data = rand(20 * CHUNK);
    const sealed = new Uint8Array(sealedLength(data.length));
    sealRun(jsChacha, key, { counter: 0, final: true }, data, sealed);
    sealed[12 * SEALED]! ^= 1;
    const { runner, buffers } = recording(8, [], false, true);
    const opener = new PayloadOpener(key.slice(), runner, () => {});
    await assert.rejects(async () => {
      for (let at = 0; at < sealed.length; at += CHUNK) await opener.write(sealed.subarray(at, at + CHUNK));
      await opener.end();
    }, AuthenticationError);
    opener.forget();
    assert.ok(buffers.length > 0 && buffers.every((b) => b.every((x) => x === 0)));
  });
});
