/**
 * BLAKE2b against @noble/hashes and libsodium in both tiers, over every
 * edge: lengths around the block, the incremental buffer and the kernel's
 * slice, up to 1 MiB; every digest length 1..64; every key length 0..64;
 * salt and personalization; incremental updates split at every position
 * and at random; clone(); unaligned and shared inputs.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { blake2b, type Blake2Opts } from 'fourfold/blake2';
import { assertBytes, forEachTier, loadSodium, NO_SODIUM, rand } from '../helpers.js';
import { noble, sodiumBlake2b } from './reference.js';
import { randomSplit } from '../blake3/reference.js';

/** Why the shared-memory case does not apply here (a page that is not cross-origin isolated), or false. */
const NO_SHARED_MEMORY = typeof SharedArrayBuffer !== 'function' ? 'not applicable: this engine (or page) has no SharedArrayBuffer' : false;

/** Block, incremental-buffer (16 KiB) and slice (64 KiB) edges, and beyond. */
const LENGTHS = [
  0,
  1,
  2,
  63,
  64,
  65,
  127,
  128,
  129,
  255,
  256,
  257,
  383,
  384,
  385,
  1000,
  16255,
  16256,
  16257,
  16383,
  16384,
  16385,
  65407,
  65408,
  65409,
  65535,
  65536,
  65537,
  65663,
  65664,
  65665,
  131073,
  3 * 65536 + 5,
  1 << 20,
];
const KEYS = [undefined, 1, 32, 63, 64];

function incremental(opts: Blake2Opts | undefined, msg: Uint8Array, sizes: number[]): Uint8Array {
  const h = blake2b.create(opts);
  let pos = 0;
  for (const n of sizes) {
    assert.equal(h.update(msg.subarray(pos, pos + n)), h, 'update() returns the hasher, for chaining');
    pos += n;
  }
  assert.equal(pos, msg.length);
  return h.digest();
}

before(async () => {
  await loadSodium();
});

forEachTier('blake2b differential', () => {
  it('lengths around blocks, the buffer and slices, up to 1 MiB, unkeyed and keyed: vs noble, one-shot and random splits', () => {
    for (const len of LENGTHS) {
      const msg = rand(len);
      const copy = msg.slice();
      for (const k of KEYS) {
        const opts = k === undefined ? undefined : { key: rand(k) };
        const expected = noble(msg, opts);
        assertBytes(blake2b(msg, opts), expected, `one-shot ${len}, key ${k}`);
        assertBytes(incremental(opts, msg, randomSplit(len)), expected, `incremental ${len}, key ${k}`);
      }
      assertBytes(msg, copy, 'input modified');
    }
  });

  it('the same lengths vs libsodium crypto_generichash', { skip: NO_SODIUM }, () => {
    for (const len of LENGTHS) {
      const msg = rand(len);
      for (const k of KEYS) {
        const opts = k === undefined ? undefined : { key: rand(k) };
        assertBytes(blake2b(msg, opts), sodiumBlake2b(msg, opts), `one-shot ${len}, key ${k}`);
      }
    }
  });

  it('every dkLen 1..64, unkeyed and keyed, vs noble and libsodium', () => {
    for (const len of [0, 3, 128, 300]) {
      const msg = rand(len);
      for (let dkLen = 1; dkLen <= 64; dkLen++) {
        for (const opts of [{ dkLen }, { dkLen, key: rand(1 + (dkLen % 64)) }]) {
          const expected = noble(msg, opts);
          assertBytes(blake2b(msg, opts), expected, `dkLen ${dkLen}, ${len} bytes`);
          assertBytes(blake2b.create(opts).update(msg).digest(), expected, `incremental dkLen ${dkLen}, ${len} bytes`);
          if (!NO_SODIUM) assertBytes(sodiumBlake2b(msg, opts), expected, `libsodium, dkLen ${dkLen}`);
        }
      }
    }
  });

  it('every key length 0..64 (0: no key), vs libsodium and noble', () => {
    for (const len of [0, 1, 127, 128, 129, 1000]) {
      const msg = rand(len);
      for (let k = 0; k <= 64; k++) {
        const opts = { key: rand(k) };
        const expected = noble(msg, opts);
        if (!NO_SODIUM) assertBytes(sodiumBlake2b(msg, opts), expected, `libsodium and noble disagree, key ${k}`);
        assertBytes(blake2b(msg, opts), expected, `key ${k}, ${len} bytes`);
        assertBytes(incremental(opts, msg, randomSplit(len)), expected, `incremental key ${k}, ${len} bytes`);
      }
    }
    const m = rand(10);
    assertBytes(blake2b(m, { key: new Uint8Array(0) }), blake2b(m), 'an empty key is no key');
  });

  it('salt and personalization (16 bytes each), alone and together, with keys and dkLen, vs noble (and libsodium, which takes them with the empty message only)', () => {
    for (const len of [0, 1, 128, 129, 5000]) {
      const msg = rand(len);
      for (const opts of [
        { salt: rand(16) },
        { personalization: rand(16) },
        { salt: rand(16), personalization: rand(16) },
        { salt: rand(16), personalization: rand(16), key: rand(64), dkLen: 32 },
        { personalization: rand(16), key: rand(7), dkLen: 20 },
      ] as Blake2Opts[]) {
        const expected = noble(msg, opts);
        if (!NO_SODIUM && len === 0) assertBytes(sodiumBlake2b(msg, opts), expected, 'libsodium and noble disagree');
        assertBytes(blake2b(msg, opts), expected, `one-shot ${len}`);
        assertBytes(incremental(opts, msg, randomSplit(len)), expected, `incremental ${len}`);
      }
    }
  });

  it('incremental: split in two at every position, and in three around every block edge', () => {
    for (const opts of [undefined, { key: rand(33) }]) {
      const msg = rand(520);
      const expected = noble(msg, opts);
      for (let i = 0; i <= msg.length; i++) assertBytes(incremental(opts, msg, [i, msg.length - i]), expected, `split at ${i}`);
      for (const edge of [127, 128, 129, 255, 256, 257, 384]) {
        for (let j = edge; j <= msg.length; j += 61) assertBytes(incremental(opts, msg, [edge, j - edge, msg.length - j]), expected, `split ${edge}, ${j}`);
      }
      // Around the 16 KiB buffer.
      const long = rand(40000);
      const longExpected = noble(long, opts);
      for (const i of [16255, 16256, 16257, 16383, 16384, 16385, 16512]) {
        assertBytes(incremental(opts, long, [i, long.length - i]), longExpected, `long split at ${i}`);
        assertBytes(incremental(opts, long, [1, i, long.length - i - 1]), longExpected, `long split 1, ${i}`);
      }
    }
  });

  it('clone() continues independently; digestInto writes the start of a longer array', () => {
    const a = rand(300);
    const b = rand(500);
    const key = rand(40);
    const h = blake2b.create({ key, dkLen: 48 }).update(a);
    const c = h.clone();
    assert.equal(c.outputLen, 48);
    h.update(b);
    assertBytes(c.digest(), noble(a, { key, dkLen: 48 }), 'the clone');
    const out = new Uint8Array(80).fill(7);
    assert.equal(h.digestInto(out), out);
    assertBytes(out.subarray(0, 48), noble(new Uint8Array([...a, ...b]), { key, dkLen: 48 }), 'digestInto');
    assert.ok(
      out.subarray(48).every((x) => x === 7),
      'digestInto wrote past outputLen',
    );
  });

  it('inputs at odd offsets; the key is copied when the hasher is made', () => {
    const backing = rand(70000);
    for (const len of [0, 1, 129, 65537]) {
      const view = backing.subarray(3, 3 + len);
      const expected = noble(view.slice());
      assertBytes(blake2b(view), expected, `offset 3, ${len}`);
    }
    const key = rand(32);
    const keyCopy = key.slice();
    const h = blake2b.create({ key });
    key.fill(0);
    assertBytes(h.update(rand(0)).digest(), noble(new Uint8Array(0), { key: keyCopy }), 'a key changed after create()');
    assertBytes(key, new Uint8Array(32), 'the caller key is left as the caller set it');
  });

  it('inputs on shared memory', { skip: NO_SHARED_MEMORY }, () => {
    const shared = new Uint8Array(new SharedArrayBuffer(70000));
    shared.set(rand(70000));
    for (const len of [0, 1, 129, 65537]) assertBytes(blake2b(shared.subarray(5, 5 + len)), noble(shared.slice(5, 5 + len)), `shared, ${len}`);
  });

  it('the fields: outputLen, blockLen, canXOF', () => {
    assert.equal(blake2b.outputLen, 64);
    assert.equal(blake2b.blockLen, 128);
    assert.equal(blake2b.canXOF, false);
    const h = blake2b.create({ dkLen: 17 });
    assert.equal(h.outputLen, 17);
    assert.equal(h.blockLen, 128);
    assert.equal(h.canXOF, false);
    assert.equal(h.digest().length, 17);
  });
});
