/**
 * The fuzzing's properties of Poly1305 and BLAKE3: one-shot calls and
 * their incremental objects against @noble and hash-wasm, at lengths
 * around BLAKE3's chunk and SIMD edges. The shape is property.ts.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Poly1305, poly1305 } from 'fourfold/poly1305';
import { Blake3, blake3 } from 'fourfold/blake3';
import { hex, loadSodium, sumo } from '../helpers.js';
import { noblePoly1305 } from '../chacha/peers.js';
import { blake3 as hashWasmBlake3 } from 'hash-wasm';
import { nobleBlake3 } from '../blake3/reference.js';
import { bytesOf, cut, dataArb, equal, join, keyArb, layoutArb, lengthArb, place, splitArb, tiersOf } from './gen.js';
import type { FuzzProperty } from './property.js';

export const poly: FuzzProperty = {
  name: 'poly1305',
  cases: 200,
  tiers: tiersOf(false),
  setup: loadSodium,
  property: () =>
    fc.asyncProperty(keyArb(32), dataArb(9000, [16, 64, 128, 256, 1024]), splitArb, layoutArb, async (key, d, splits, layout) => {
      const msg = bytesOf(d.length, d.seed);
      const expected = sumo().crypto_onetimeauth(msg, key);
      const placed = place(msg, layout);
      const h = new Poly1305(key);
      for (const piece of cut(placed.view, splits)) h.update(piece);
      const into = place(16, layout);
      h.digestInto(into.view);
      const c = poly1305.create(key);
      for (const piece of cut(msg, splits.slice(1))) c.update(piece);
      return equal(poly1305(placed.view, key), expected) && equal(into.view, expected) && equal(c.digest(), noblePoly1305(msg, key)) && into.intact();
    }),
};

const BLAKE3_EDGES = [64, 1024, 2048, 4096, 8192, 16384];

/**
 * hash-wasm's one-shot BLAKE3, which reuses one WebAssembly instance:
 * test/blake3/reference.ts's hashWasm keeps an instance per length and
 * key, and the thousands of keys a long run draws ran out of WebAssembly
 * memory.
 */
export const hashWasmOnce = async (data: Uint8Array, dkLen: number, key?: Uint8Array): Promise<Uint8Array> => hex(await hashWasmBlake3(data, 8 * dkLen, key));

export const blake3s: FuzzProperty = {
  name: 'blake3',
  cases: 160,
  tiers: tiersOf(false),
  property: () =>
    fc.asyncProperty(
      dataArb(40_000, BLAKE3_EDGES),
      fc.record({
        mode: fc.constantFrom('hash' as const, 'keyed' as const, 'derive' as const),
        key: keyArb(32),
        context: fc.string({ maxLength: 40 }),
        dkLen: lengthArb(300, [32, 64]),
        xof: fc.array(lengthArb(130, [32, 64]), { maxLength: 4 }),
      }),
      splitArb,
      layoutArb,
      async (d, m, splits, layout) => {
        const data = bytesOf(d.length, d.seed);
        const opts = { dkLen: m.dkLen, ...(m.mode === 'keyed' ? { key: m.key } : m.mode === 'derive' ? { context: m.context } : {}) };
        const nobleOpts = {
          dkLen: m.dkLen,
          ...(m.mode === 'keyed' ? { key: m.key } : m.mode === 'derive' ? { context: new TextEncoder().encode(m.context) } : {}),
        };
        const expected = nobleBlake3(data, nobleOpts);
        const placed = place(data, layout);
        assert.ok(equal(blake3(placed.view, opts), expected), 'blake3() against @noble/hashes');
        if (m.mode !== 'derive' && m.dkLen > 0) {
          assert.ok(equal(await hashWasmOnce(data, m.dkLen, m.mode === 'keyed' ? m.key : undefined), expected), 'hash-wasm against @noble/hashes');
        }
        const h = new Blake3(opts);
        for (const piece of cut(placed.view, splits)) h.update(piece);
        const copy = h.clone();
        const out = place(m.dkLen, layout);
        assert.ok(equal(h.digestInto(out.view), expected) && out.intact(), 'Blake3 updates and digestInto against @noble/hashes');
        // xof() continues the output stream, piece after piece.
        const total = m.xof.reduce((a, b) => a + b, 0);
        const whole = nobleBlake3(data, { ...nobleOpts, dkLen: Math.max(total, 1) }).subarray(0, total);
        assert.ok(equal(join(m.xof.map((n) => copy.xof(n))), whole), 'xof() of a clone against @noble/hashes');
        return placed.intact();
      },
    ),
};
