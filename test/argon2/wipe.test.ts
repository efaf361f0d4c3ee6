/**
 * Argon2's memory after every kind of call. On the simd tier, the kernel
 * instance whose memory grew to the call's size is kept for the next call
 * (simd.ts, argon2SpareMemory here): it is all zero, as is every kernel's
 * fixed memory, after argon2id, argon2i and argon2d, their Async forms,
 * calls aborted mid-way or ended by their onProgress, calls running at
 * once, and calls refused by maxmem (which take no memory: the kept one
 * stays as it was). The engines themselves (simdArgon2, jsArgon2): a
 * memory wiped in pieces, then let go, leaves nothing, and the js tier's
 * blocks and scratch are zero once its memory is wiped (the js tier keeps
 * no memory between calls, and touches no kernel's).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { argon2d, argon2dAsync, argon2i, argon2iAsync, argon2id, argon2idAsync } from 'fourfold/argon2';
import { assertKernelsWiped, firstNonZero, forEachTier, isAllZero, NO_ABORT, NO_SIMD } from '../helpers.js';
import { argon2Shape, argon2SpareMemory, Argon2Written, type Argon2Engine, jsArgon2, simdArgon2 } from '../internal.js';

/** Where the blocks start in the kernel's memory, after the scratch page (layout.ts LAYOUT.BASE). */
const BASE = 65536;

/** Bytes of kernel memory a call of m KiB in p lanes needs: the scratch page, then m' blocks. */
const needs = (m: number, p = 1): number => BASE + 4 * p * Math.floor(m / (4 * p)) * 1024;

/** The kept memory exists (a call grew one) and is zero, and so is every kernel's fixed memory. */
function assertSpareWiped(label: string, atLeast: number): Uint8Array {
  const m = argon2SpareMemory();
  assert.ok(m !== undefined, `${label}: no memory is kept after the call`);
  assert.ok(m.length >= atLeast, `${label}: the kept memory is ${m.length} bytes, the call needed ${atLeast}`);
  if (!isAllZero(m)) assert.fail(`${label}: byte ${firstNonZero(m)} of the kept memory (${m.length} bytes) is not zero`);
  assertKernelsWiped(label, 'argon2');
  return m;
}

const SYNC = { argon2id, argon2i, argon2d } as const;
const ASYNC = { argon2idAsync, argon2iAsync, argon2dAsync } as const;

/** 32 MiB: an Async call of several turns, and its memory wiped over two (16 MiB a turn, argon2.ts WIPE_STEP). */
const M_ASYNC = 32768;

describe('argon2 memory is wiped (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('after argon2id, argon2i and argon2d: one lane and several, versions 0x13 and 0x10, key and associated data', () => {
    for (const [name, f] of Object.entries(SYNC)) {
      f('pw', 'saltsalt', { t: 2, m: 1024 });
      assertSpareWiped(`${name}, m = 1024`, needs(1024));
      f('pw', 'saltsalt', { t: 3, m: 300, p: 3, version: 0x10, key: 'pepper', personalization: 'data' });
      assertSpareWiped(`${name}, m = 300, p = 3, version 0x10`, needs(300, 3));
      f(new Uint8Array(64).fill(1), new Uint8Array(8), { t: 1, m: 8 });
      assertSpareWiped(`${name}, m = 8 (segments of 2 blocks)`, needs(8));
    }
  });

  it('a smaller call after a larger one reuses the kept memory and leaves all of it zero', () => {
    argon2id('pw', 'saltsalt', { t: 1, m: 8192 });
    const large = assertSpareWiped('m = 8192', needs(8192)).length;
    argon2id('pw', 'saltsalt', { t: 1, m: 64 });
    assert.equal(assertSpareWiped('m = 64 after m = 8192', needs(64)).length, large, 'the kept memory is the larger one, reused');
  });

  it('after argon2idAsync, argon2iAsync and argon2dAsync, wiped over several turns', async () => {
    for (const [name, f] of Object.entries(ASYNC)) {
      await f('pw', 'saltsalt', { t: 1, m: M_ASYNC });
      assertSpareWiped(name, needs(M_ASYNC));
      await f('pw', 'saltsalt', { t: 2, m: 256, p: 4, dkLen: 80 });
      assertSpareWiped(`${name}, p = 4`, needs(256, 4));
    }
  });

  it('after an Async call aborted mid-way', { skip: NO_ABORT }, async () => {
    for (const [name, f] of Object.entries(ASYNC)) {
      const controller = new AbortController();
      const reason = new Error('stop');
      let reports = 0;
      await assert.rejects(
        f('pw', 'saltsalt', {
          t: 2,
          m: M_ASYNC,
          signal: controller.signal,
          onProgress: () => {
            reports++;
            controller.abort(reason);
          },
        }),
        (e) => e === reason,
      );
      assert.equal(reports, 1, `${name}: aborted at its first report`);
      assertSpareWiped(`${name}, aborted`, needs(M_ASYNC));
    }
  });

  it('after an Async call ended by an exception from its onProgress', async () => {
    for (const [name, f] of Object.entries(ASYNC)) {
      const oops = new Error('from onProgress');
      await assert.rejects(
        f('pw', 'saltsalt', {
          t: 1,
          m: M_ASYNC,
          onProgress: () => {
            throw oops;
          },
        }),
        (e) => e === oops,
      );
      assertSpareWiped(`${name}, ended by onProgress`, needs(M_ASYNC));
    }
  });

  it('after Async calls running at once: the larger memory is kept, zero', async () => {
    const controller = new AbortController();
    const calls = [
      argon2idAsync('pw', 'saltsalt', { t: 1, m: M_ASYNC }),
      argon2iAsync('pw', 'saltsalt', { t: 2, m: 2048, p: 2 }),
      argon2dAsync('pw', 'saltsalt', { t: 1, m: 4096, signal: controller.signal, onProgress: () => controller.abort() }),
    ];
    const settled = await Promise.allSettled(calls);
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    assertSpareWiped('three calls at once', needs(M_ASYNC));
  });

  it('a call refused by maxmem takes no memory: the kept memory stays as it was, zero', async () => {
    argon2id('pw', 'saltsalt', { t: 1, m: 1024 });
    const kept = assertSpareWiped('before', needs(1024));
    for (const [name, f] of Object.entries(SYNC)) {
      assert.throws(() => f('pw', 'saltsalt', { t: 1, m: 4096, maxmem: 2 ** 20 }), /maxmem/);
      assert.equal(assertSpareWiped(`${name} refused`, needs(1024)).length, kept.length, `${name}: the kept memory did not grow`);
    }
    for (const [name, f] of Object.entries(ASYNC)) {
      await assert.rejects(f('pw', 'saltsalt', { t: 1, m: 2 ** 32 - 1 }), /maxmem/);
      assert.equal(assertSpareWiped(`${name} refused`, needs(1024)).length, kept.length, `${name}: the kept memory did not grow`);
    }
  });

  it('simdArgon2: a memory wiped in pieces is kept only once all of it is zero', () => {
    assertEngineWipes(simdArgon2, 'simdArgon2');
    assertSpareWiped('simdArgon2, after the pieces', needs(4096));
  });
});

/** Opens a memory of 4 MiB in two lanes on `engine`, fills its first pass, shows it to `onFilled`, and wipes it in 1 MiB pieces. */
function fillAndWipe(engine: Argon2Engine, label: string, onFilled: (memory: ReturnType<Argon2Engine['open']>) => void = () => {}): void {
  const shape = argon2Shape(4096, 2, 1, 0x13);
  const memory = engine.open(shape, 'argon2id');
  const block = new Uint8Array(1024).fill(0x5a);
  for (const index of [0, 1, shape.laneLength, shape.laneLength + 1]) memory.setBlock(index, block);
  for (let slice = 0; slice < 4; slice++) {
    for (let lane = 0; lane < 2; lane++) {
      const from = slice === 0 ? 2 : 0;
      memory.fill(0, slice, lane, from, shape.segmentLength - from);
    }
  }
  onFilled(memory);
  let pieces = 0;
  while (!memory.wipe(2 ** 20)) pieces++;
  assert.ok(pieces >= 3, `${label}: wiped in ${pieces + 1} pieces`);
  memory.abandon();
  assert.equal(memory.wipe(2 ** 20), true, `${label}: wiped again once let go`);
}

/** A simd engine's memory: kept once wiped, and not before. */
function assertEngineWipes(engine: Argon2Engine, label: string): void {
  fillAndWipe(engine, label, (memory) => {
    assert.equal(memory.wipe(2 ** 20), false, `${label}: a first piece`);
    // The memory is held until wiped: the kept one (if any) is another, zero.
    const spare = argon2SpareMemory();
    if (spare !== undefined) assert.ok(isAllZero(spare), `${label}: the kept memory is not zero while another is in use`);
  });
}

/** The private arrays of the js tier's memory (js.ts JsMemory): the blocks (undefined once let go) and the compression's scratch. */
interface JsMemoryInside {
  m: Int32Array | undefined;
  q: Int32Array;
  addressing: Int32Array;
}

type Inside = { [K in keyof JsMemoryInside]: Int32Array };

describe('argon2 memory is wiped (js)', () => {
  it('jsArgon2: the blocks and the scratch are zero once the memory is wiped in pieces, and it is let go', () => {
    let inside: Inside | undefined;
    fillAndWipe(jsArgon2, 'jsArgon2', (memory) => {
      const o = memory as unknown as JsMemoryInside;
      assert.ok(o.m instanceof Int32Array && o.q instanceof Int32Array && o.addressing instanceof Int32Array);
      assert.equal(o.m.length, (4096 * 1024) / 4);
      assert.ok(!isAllZero(new Uint8Array(o.m.buffer)), 'the blocks were written');
      assert.ok(!isAllZero(new Uint8Array(o.addressing.buffer)), 'argon2id computed its addresses in the first slices');
      inside = { m: o.m, q: o.q, addressing: o.addressing };
    });
    for (const [name, a] of Object.entries(inside!)) {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      if (!isAllZero(bytes)) assert.fail(`jsArgon2: byte ${firstNonZero(bytes)} of ${name} is not zero`);
    }
  });
});

forEachTier('argon2 calls touch no kernel memory they leave behind', (tier) => {
  it('sync, Async, aborted and refused calls', async () => {
    argon2id('pw', 'saltsalt', { t: 2, m: 512, p: 2 });
    await argon2dAsync('pw', 'saltsalt', { t: 1, m: tier === 'simd' ? M_ASYNC : 2048 });
    await assert.rejects(
      argon2iAsync('pw', 'saltsalt', {
        t: 1,
        m: tier === 'simd' ? M_ASYNC : 2048,
        onProgress: () => {
          throw new Error('stop');
        },
      }),
    );
    assert.throws(() => argon2i('pw', 'saltsalt', { t: 1, m: 2048, maxmem: 2 ** 20 }), /maxmem/);
    if (tier === 'simd') assertSpareWiped(tier, needs(M_ASYNC));
    else {
      // The js tier keeps no memory: the kept one (a simd call's, if not yet let go) is untouched, zero.
      const spare = argon2SpareMemory();
      if (spare !== undefined) assert.ok(isAllZero(spare), 'the kept memory is not zero after js-tier calls');
      if (!NO_SIMD) assertKernelsWiped(tier);
    }
  });
});

describe('what a call wrote, for the wipe at its end (written.ts)', () => {
  // 3 lanes of 16 columns, segments of 4; a unit of 10, block 0 at 1000, a head of 7 units (a kernel's scratch page).
  const shape = argon2Shape(48, 3, 1, 0x13);
  const made = () => new Argon2Written(shape, 10, 1000, 7);
  /** Every range wipe() gives, taking `most` units a call until it says all is wiped (bounded, so a wipe that never ends fails). */
  function wiped(w: InstanceType<typeof Argon2Written>, most = Number.POSITIVE_INFINITY): [number, number][] {
    const ranges: [number, number][] = [];
    for (let calls = 0; !w.wipe(most, (from, count) => ranges.push([from, count])); calls++) assert.ok(calls < 1000, 'the wipe never ended');
    return ranges;
  }
  /** Ranges that follow each other joined, to compare pieces with whole ranges. */
  const joined = (ranges: [number, number][]): [number, number][] =>
    ranges.reduce<[number, number][]>((all, [from, count]) => {
      const last = all.at(-1);
      if (last !== undefined && last[0] + last[1] === from) last[1] += count;
      else all.push([from, count]);
      return all;
    }, []);

  it("the head, then each lane's columns reached, never a column past them", () => {
    assert.deepEqual(wiped(made()), [[0, 7]], 'nothing reached: the head alone');
    const w = made();
    for (const lane of [0, 1, 2]) for (const column of [0, 1]) w.reachBlock(lane * 16 + column);
    // The first pass's second slice, all its blocks handed out in every lane.
    w.reachSegment(0, 1, 4, [0, 1, 2]);
    const lanes = [
      [0, 7],
      [1000, 80],
      [1160, 80],
      [1320, 80],
    ];
    assert.deepEqual(wiped(w), lanes);
    const pieces = made();
    pieces.reachSegment(0, 1, 4, [0, 1, 2]);
    const small = wiped(pieces, 13);
    assert.ok(
      small.every(([, count]) => count <= 13),
      'no piece over the units asked',
    );
    assert.deepEqual(joined(small), lanes, 'in pieces of 13 units: the same ranges');
  });

  it('each lane as far as it got: a segment cut short, a lane in a later pass, none; again() all of it once more', () => {
    const w = made();
    w.reachBlock(1);
    w.reachSegment(0, 2, 3, [1]);
    w.reachSegment(0, 0, 2, [1]);
    assert.deepEqual(wiped(w), [
      [0, 7],
      [1000, 20],
      [1160, 110],
    ]);
    const later = made();
    later.reachSegment(0, 3, 4, [2]);
    later.reachSegment(1, 0, 1, [0]);
    assert.deepEqual(wiped(later), [
      [0, 7],
      [1000, 160],
      [1320, 160],
    ]);
    w.again();
    assert.deepEqual(joined(wiped(w)), [
      [0, 7],
      [1000, 480],
    ]);
  });
});
