/**
 * The simd tier copies the state, the key block and data through
 * WebAssembly linear memory. After every BLAKE2b call (successful or not),
 * each kernel's whole memory must be zero again; an incremental hasher
 * keeps its state in JavaScript between calls.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { blake2b } from 'fourfold/blake2';
import { kernelMemories } from '../internal.js';
import { assertBytes, assertKernelsWiped, NO_SIMD, rand, wiped as wipedIn } from '../helpers.js';
import { noble } from './reference.js';

/** The wiping rule after `f`, with the blake2 kernel required to be instantiated. */
const wiped = (label: string, f: () => unknown, expected?: new (...a: never[]) => Error) => wipedIn(label, f, expected, 'blake2');

const SIZES = [0, 1, 127, 128, 129, 16385, 65535, 65536, 65537, 65664, 200 * 1024 + 3];

describe('kernel memories are wiped after BLAKE2b calls (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('the check detects a leftover byte in the blake2 kernel', () => {
    blake2b(rand(100));
    assertKernelsWiped('after one call', 'blake2');
    const m = kernelMemories().find((x) => x.name === 'blake2')!;
    m.bytes[70000] = 1;
    assert.throws(() => assertKernelsWiped('planted', 'blake2'), /not wiped/);
    m.bytes[70000] = 0;
  });

  it('one-shot: unkeyed, keyed, salted, every size', () => {
    for (const len of SIZES) {
      const data = rand(len);
      wiped(`hash ${len}`, () => blake2b(data));
      wiped(`keyed ${len}`, () => blake2b(data, { key: rand(64), dkLen: 32 }));
      wiped(`salted ${len}`, () => blake2b(data, { salt: rand(16), personalization: rand(16) }));
      wiped(`unaligned ${len}`, () => blake2b(new Uint8Array(len + 3).subarray(3)));
    }
    const data = rand(100000);
    let out: Uint8Array = new Uint8Array(0);
    wiped('value check', () => (out = blake2b(data, { key: data.subarray(0, 64) })));
    assertBytes(out, noble(data, { key: data.subarray(0, 64) }));
  });

  it('incremental: after each update, digest and destroy; a failed call too', () => {
    for (const len of SIZES) {
      const data = rand(len);
      const h = blake2b.create({ key: rand(32) });
      wiped(`update 1 of ${len}`, () => h.update(data.subarray(0, len >> 1)));
      wiped(`update 2 of ${len}`, () => h.update(data.subarray(len >> 1)));
      const c = h.clone();
      wiped(`digest ${len}`, () => h.digest());
      wiped(`destroy ${len}`, () => c.destroy());
    }
    wiped('bad dkLen', () => blake2b(rand(10), { dkLen: 65 }), RangeError);
    wiped('digestInto too short', () => blake2b.create().update(rand(300)).digestInto(new Uint8Array(3)), RangeError);
  });
});
