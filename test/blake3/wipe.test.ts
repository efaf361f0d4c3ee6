/**
 * The simd tier copies keys, chaining values and data through WebAssembly
 * linear memory. After every BLAKE3 call (successful or not), each
 * kernel's whole memory must be zero again; an incremental hasher keeps
 * its state in JavaScript between calls.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { blake3 } from 'fourfold/blake3';
import { jsBlake3, kernelMemories, simdBlake3 } from '../internal.js';
import { assertBytes, assertKernelsWiped, NO_SIMD, rand, wiped as wipedIn } from '../helpers.js';

/** The wiping rule after `f`, with the blake3 kernel required to be instantiated. */
const wiped = (label: string, f: () => unknown, expected?: new (...a: never[]) => Error) => wipedIn(label, f, expected, 'blake3');
import { nobleBlake3 } from './reference.js';

const SIZES = [0, 1, 64, 65, 1024, 1025, 2048, 3000, 4097, 32768, 32769, 65537, 300 * 1024 + 3];

describe('kernel memories are wiped after BLAKE3 calls (simd)', { skip: NO_SIMD }, () => {
  before(async () => {
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  it('the check detects a leftover byte in the blake3 kernel', () => {
    blake3(rand(100));
    assertKernelsWiped('after one call', 'blake3');
    const m = kernelMemories().find((x) => x.name === 'blake3')!;
    m.bytes[40000] = 1;
    assert.throws(() => assertKernelsWiped('planted', 'blake3'), /not wiped/);
    m.bytes[40000] = 0;
  });

  it('one-shot: hash, keyed_hash, derive_key, long outputs, every size', () => {
    for (const len of SIZES) {
      const data = rand(len);
      wiped(`hash ${len}`, () => blake3(data));
      wiped(`keyed ${len}`, () => blake3(data, { key: rand(32) }));
      wiped(`derive_key ${len}`, () => blake3(data, { context: 'wipe test', dkLen: 100 }));
      wiped(`dkLen 70000, ${len}`, () => blake3(data, { dkLen: 70000 }));
      wiped(`unaligned ${len}`, () => blake3(new Uint8Array(len + 3).subarray(3)));
    }
    const data = rand(100000);
    let out: Uint8Array = new Uint8Array(0);
    wiped('value check', () => (out = blake3(data, { key: data.subarray(0, 32) })));
    assertBytes(out, nobleBlake3(data, { key: data.subarray(0, 32) }));
  });

  it('incremental: after each update, digest, xof and destroy', () => {
    for (const len of SIZES) {
      const data = rand(len);
      const h = blake3.create({ key: rand(32) });
      wiped(`update 1 of ${len}`, () => h.update(data.subarray(0, len >> 1)));
      wiped(`update 2 of ${len}`, () => h.update(data.subarray(len >> 1)));
      const x = h.clone();
      wiped(`digest ${len}`, () => h.digest());
      wiped(`xof ${len}`, () => x.xof(1000));
      wiped(`xof again ${len}`, () => x.xof(100000));
      const d = blake3.create({ context: rand(10) }).update(data);
      wiped(`destroy ${len}`, () => d.destroy());
    }
  });

  it('engine operations: subtree, push, finish, output', () => {
    const key = rand(32);
    const state = { key, flags: 16, chunks: 0, base: 0, depth: 0, stack: new Uint8Array(32 * 56) };
    const cv = new Uint8Array(32);
    wiped('subtree', () => simdBlake3.subtree(key, 16, rand(64 * 1024), 0, cv));
    wiped('push', () => simdBlake3.push(state, cv, 64));
    wiped('update', () => simdBlake3.update(state, rand(3 * 1024)));
    const root = new Uint8Array(104);
    wiped('finish', () => simdBlake3.finish(state, rand(500), root));
    wiped('output', () => simdBlake3.output(root, 2 ** 32 - 2, new Uint8Array(777)));
    // The js engine computes the same root from the same calls (and touches no kernel memory).
    const js = { key, flags: 16, chunks: 0, base: 0, depth: 0, stack: new Uint8Array(32 * 56) };
    const jsCv = new Uint8Array(32);
    jsBlake3.subtree(key, 16, new Uint8Array(64 * 1024), 0, jsCv);
    jsBlake3.push(js, jsCv, 64);
    assert.equal(js.depth, 1);
    assertKernelsWiped('js engine calls', 'blake3');
  });

  it('failing calls leave nothing behind', () => {
    wiped('bad key', () => blake3(rand(10), { key: rand(31) }), RangeError);
    wiped('key and context', () => blake3(rand(10), { key: rand(32), context: 'x' }), TypeError);
    wiped('bad data', () => blake3('text' as never), TypeError);
    wiped('bad dkLen', () => blake3(rand(10), { dkLen: -1 }), RangeError);
    const h = blake3.create().update(rand(5000));
    wiped('bad xof output', () => h.xofInto('x' as never), TypeError);
  });
});
