/**
 * The engines' tree operations, which the public API composes and a
 * parallel hasher will use directly: subtree chaining values pushed onto a
 * tree state give the same hash as the whole input; chunk and output
 * counters at 2^32 and far beyond; deep stacks. Both engines, and the two
 * mixed (their states are interchangeable).
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from 'fourfold';
import { type Blake3Engine, jsBlake3, simdBlake3, type TreeState } from '../internal.js';
import { assertBytes, NO_SIMD, rand, randInt } from '../helpers.js';
import { nobleBlake3, referenceCompress, referenceOutput } from './reference.js';

const IV_BYTES = new Uint8Array(new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]).buffer);
const KEYED_HASH = 16;
const CHUNK_START = 1,
  CHUNK_END = 2,
  PARENT = 4,
  ROOT = 8;
const TWO32 = 2 ** 32;

const freshState = (key: Uint8Array, flags: number, chunks = 0): TreeState => ({ key, flags, chunks, base: chunks, depth: 0, stack: new Uint8Array(32 * 56) });

/** The input's root, its whole chunks (all but the last) hashed as aligned subtrees of at most `maxChunks` by `hashing` and pushed by `merging`. */
function treeHash(hashing: Blake3Engine, merging: Blake3Engine, key: Uint8Array, flags: number, msg: Uint8Array, maxChunks: number, length = 32): Uint8Array {
  const state = freshState(key, flags);
  const whole = msg.length > 1024 ? Math.floor((msg.length - 1) / 1024) : 0;
  let c = 0;
  while (c < whole) {
    let s = 1;
    while (2 * s <= Math.min(whole - c, maxChunks) && c % (2 * s) === 0) s *= 2;
    const cv = new Uint8Array(32);
    hashing.subtree(key, flags, msg.subarray(1024 * c, 1024 * (c + s)), c, cv);
    merging.push(state, cv, s);
    c += s;
  }
  assert.equal(state.chunks, whole);
  const root = new Uint8Array(104);
  merging.finish(state, msg.subarray(1024 * whole), root);
  const out = new Uint8Array(length);
  merging.output(root, 0, out);
  return out;
}

const words = (b: Uint8Array): number[] => Array.from({ length: b.length / 4 }, (_, i) => new DataView(b.buffer, b.byteOffset).getUint32(4 * i, true));
const bytesOf = (w: number[]): Uint8Array => {
  const out = new Uint8Array(4 * w.length);
  w.forEach((x, i) => {
    new DataView(out.buffer).setUint32(4 * i, x, true);
  });
  return out;
};

/** A whole chunk's chaining value by the reference compression, with any (bigint) chunk counter. */
function referenceChunkCv(key: Uint8Array, flags: number, chunk: Uint8Array, counter: bigint): Uint8Array {
  let cv = words(key);
  for (let b = 0; b < 16; b++) {
    const f = flags | (b === 0 ? CHUNK_START : 0) | (b === 15 ? CHUNK_END : 0);
    cv = referenceCompress(cv, words(chunk.subarray(64 * b, 64 * b + 64)), counter, 64, f).slice(0, 8);
  }
  return bytesOf(cv);
}

const ENGINES: [string, Blake3Engine, Blake3Engine][] = [
  ['simd', simdBlake3, simdBlake3],
  ['js', jsBlake3, jsBlake3],
  ['simd subtrees, js merges', simdBlake3, jsBlake3],
  ['js subtrees, simd merges', jsBlake3, simdBlake3],
];

describe('blake3 engines: trees, counters, stacks', { skip: NO_SIMD }, () => {
  before(async () => {
    // The simd engine needs its kernel; each engine is called directly, whatever the tier.
    assert.equal(await ready({ tier: 'simd' }), 'simd');
  });

  for (const [name, hashing, merging] of ENGINES) {
    it(`${name}: subtree CVs pushed onto a tree state give the whole input's hash`, () => {
      const key = rand(32);
      for (const len of [0, 1, 1024, 1025, 2049, 4096, 4097, 37 * 1024 + 100, 64 * 1024 + 1, 200 * 1024 + 5, (1 << 20) + 1024]) {
        const msg = rand(len);
        const expected = nobleBlake3(msg, { dkLen: 100 });
        const keyed = nobleBlake3(msg, { key });
        for (const max of [1, 2, 4, 8, 32, 64, 1 << 20]) {
          assertBytes(treeHash(hashing, merging, IV_BYTES, 0, msg, max, 100), expected, `${len} bytes, subtrees of up to ${max} chunks`);
        }
        assertBytes(treeHash(hashing, merging, key, KEYED_HASH, msg, 16), keyed, `keyed, ${len} bytes`);
      }
    });
  }

  for (const [name, engine] of [
    ['simd', simdBlake3],
    ['js', jsBlake3],
  ] as const) {
    it(`${name}: output blocks at counters 2^32 - 6 .. 2^32 + 9, 2^40 + 3, 2^53 - 40 and, as bigints, past 2^53 to 2^64 - 1 (vs the reference compression)`, () => {
      const root = new Uint8Array(104);
      const state = freshState(IV_BYTES, 0);
      const msg = rand(5000);
      engine.update(state, msg.subarray(0, 4096));
      engine.finish(state, msg.subarray(4096), root);
      assertBytes(root.subarray(0, 32), IV_BYTES, 'a parent root starts from the key');
      for (const [counter, blocks] of [
        [TWO32 - 6, 16],
        [TWO32 - 1, 5],
        [2 ** 40 + 3, 9],
        [2 ** 53 - 40, 13],
      ]) {
        const out = new Uint8Array(64 * blocks - 7);
        engine.output(root, counter, out);
        assertBytes(out, referenceOutput(root, BigInt(counter), blocks).subarray(0, out.length), `counter ${counter}`);
      }
      // b3sum --seek reaches block 2^58 - 1 (and goes on): 64-bit counters, carrying from the low word.
      for (const [counter, blocks] of [
        [2n ** 53n + 1n, 3],
        [2n ** 58n - 2n, 4],
        [2n ** 63n + 2n ** 32n - 2n, 5],
        [2n ** 64n - 3n, 3],
      ] as const) {
        const out = new Uint8Array(64 * blocks - 5);
        engine.output(root, counter, out);
        assertBytes(out, referenceOutput(root, counter, blocks).subarray(0, out.length), `counter ${counter}`);
      }
      const asNumber = new Uint8Array(200);
      const asBigint = new Uint8Array(200);
      engine.output(root, TWO32 - 2, asNumber);
      engine.output(root, BigInt(TWO32 - 2), asBigint);
      assertBytes(asBigint, asNumber, 'a counter as a bigint or a number');
      // And at 0, the stream noble produces.
      const out = new Uint8Array(1000);
      engine.output(root, 0, out);
      assertBytes(out, nobleBlake3(msg, { dkLen: 1000 }));
    });

    it(`${name}: chunk counters at and past 2^32 (vs the reference compression, and between engines)`, () => {
      for (const start of [TWO32 - 4, TWO32, TWO32 + 8, 2 ** 45, 2 ** 52]) {
        const chunk = rand(1024);
        const cv = new Uint8Array(32);
        engine.subtree(IV_BYTES, 0, chunk, start + 3, cv);
        assertBytes(cv, referenceChunkCv(IV_BYTES, 0, chunk, BigInt(start + 3)), `one chunk at ${start + 3}`);
        // Four chunks at an aligned start: the lanes' counters.
        const four = rand(4096);
        engine.subtree(IV_BYTES, 0, four, start, cv);
        const left = new Uint8Array([
          ...referenceChunkCv(IV_BYTES, 0, four.subarray(0, 1024), BigInt(start)),
          ...referenceChunkCv(IV_BYTES, 0, four.subarray(1024, 2048), BigInt(start + 1)),
        ]);
        const right = new Uint8Array([
          ...referenceChunkCv(IV_BYTES, 0, four.subarray(2048, 3072), BigInt(start + 2)),
          ...referenceChunkCv(IV_BYTES, 0, four.subarray(3072), BigInt(start + 3)),
        ]);
        const parent = (pair: Uint8Array) => bytesOf(referenceCompress(words(IV_BYTES), words(pair), 0n, 64, PARENT).slice(0, 8));
        assertBytes(cv, parent(new Uint8Array([...parent(left), ...parent(right)])), `four chunks at ${start}`);
      }
      // A tree state whose counter crosses 2^32 in the middle of the input: both engines agree.
      const msg = rand(13 * 1024 + 9);
      const roots = [simdBlake3, jsBlake3].map((e) => {
        const state = freshState(IV_BYTES, 0, TWO32 - 6);
        e.update(state, msg.subarray(0, 7 * 1024));
        e.update(state, msg.subarray(7 * 1024, 13 * 1024));
        assert.equal(state.chunks, TWO32 + 7);
        const root = new Uint8Array(104);
        e.finish(state, msg.subarray(13 * 1024), root);
        return root;
      });
      assertBytes(roots[0]!, roots[1]!, 'simd and js roots');
    });

    it(`${name}: a stack 52 deep (subtrees of 2^51, 2^50, ..., 1 chunks pushed), then the root (vs the reference compression)`, () => {
      const state = freshState(IV_BYTES, 0);
      const cvs: Uint8Array[] = [];
      for (let k = 51; k >= 0; k--) {
        const cv = rand(32);
        cvs.push(cv);
        engine.push(state, cv, 2 ** k);
      }
      assert.equal(state.chunks, 2 ** 52 - 1);
      assert.equal(state.depth, 52);
      const last = rand(1 + randInt(1024));
      const root = new Uint8Array(104);
      engine.finish(state, last, root);
      // The reference: the last chunk's CV (counter 2^52 - 1), folded with the pushed CVs from the right.
      const padded = new Uint8Array(1024);
      padded.set(last);
      const blocks = Math.max(1, Math.ceil(last.length / 64));
      let cv = words(IV_BYTES);
      for (let b = 0; b < blocks; b++) {
        const n = b === blocks - 1 ? last.length - 64 * b : 64;
        const f = (b === 0 ? CHUNK_START : 0) | (b === blocks - 1 ? CHUNK_END : 0);
        cv = referenceCompress(cv, words(padded.subarray(64 * b, 64 * b + 64)), BigInt(2 ** 52 - 1), n, f).slice(0, 8);
      }
      let right = bytesOf(cv);
      for (let i = cvs.length - 1; i >= 1; i--) {
        right = bytesOf(referenceCompress(words(IV_BYTES), words(new Uint8Array([...cvs[i]!, ...right])), 0n, 64, PARENT).slice(0, 8));
      }
      const expected = bytesOf(referenceCompress(words(IV_BYTES), words(new Uint8Array([...cvs[0]!, ...right])), 0n, 64, PARENT | ROOT));
      const out = new Uint8Array(64);
      engine.output(root, 0, out);
      assertBytes(out, expected, 'root output block 0');
    });
  }
});
