/**
 * BLAKE3 against @noble/hashes and hash-wasm (noble alone where there is
 * no WebAssembly: see reference.ts): every length 0..2100, chunk and tree
 * boundaries up to several MiB, random update splits, XOF reads at odd
 * offsets and lengths, keyed_hash and derive_key, in both tiers.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { blake3, type Blake3Opts } from 'fourfold/blake3';
import { assertBytes, forEachTier, guarded, rand, randInt } from '../helpers.js';
import { HASH_WASM, hashWasm, hashWasmSync, loadHashWasm, nobleBlake3, randomSplit, utf8 } from './reference.js';

const SMALL_MAX = 2100;
/** Chunk and tree boundaries: 1024 * 2^k - 1, + 0, + 1 for k = 0..10, and a few MiB. */
const BOUNDARIES = [
  ...Array.from({ length: 11 }, (_, k) => [1024 * 2 ** k - 1, 1024 * 2 ** k, 1024 * 2 ** k + 1]).flat(),
  3 * 1024 - 1,
  5 * 1024 + 1,
  31 * 1024,
  33 * 1024 + 7,
  100 * 1024 - 3,
  (3 << 20) + 5,
  (5 << 20) - 1024,
  8 << 20,
  (8 << 20) + 1,
];

function incremental(opts: Blake3Opts | undefined, msg: Uint8Array, sizes: number[]): Uint8Array {
  const h = blake3.create(opts);
  let pos = 0;
  for (const n of sizes) {
    const r = h.update(msg.subarray(pos, pos + n));
    assert.equal(r, h, 'update() returns the hasher, for chaining');
    pos += n;
  }
  assert.equal(pos, msg.length);
  return h.digest();
}

/** noble's output for the same options (its context takes bytes only). */
function noble(msg: Uint8Array, opts: Blake3Opts = {}): Uint8Array {
  const context = typeof opts.context === 'string' ? utf8(opts.context) : opts.context;
  return nobleBlake3(msg, { dkLen: opts.dkLen, key: opts.key, context });
}

before(async () => {
  await loadHashWasm();
});

forEachTier('blake3 differential', () => {
  it(`every length 0..${SMALL_MAX}: hash vs noble and hash-wasm, keyed and derive_key vs noble, one-shot and random splits`, () => {
    const key = rand(32);
    for (let len = 0; len <= SMALL_MAX; len++) {
      const msg = rand(len);
      const copy = msg.slice();
      const expected = hashWasmSync(msg);
      assertBytes(blake3(msg), expected, `hash ${len}`);
      assertBytes(msg, copy, 'input modified');
      if (HASH_WASM && len % 7 === 0) assertBytes(noble(msg), expected, `noble and hash-wasm disagree at ${len}`);
      assertBytes(incremental(undefined, msg, randomSplit(len)), expected, `incremental ${len}`);
      assertBytes(blake3(msg, { key }), noble(msg, { key }), `keyed ${len}`);
      assertBytes(blake3(msg, { context: `ctx ${len % 5}` }), noble(msg, { context: `ctx ${len % 5}` }), `derive_key ${len}`);
      if (len % 3 === 0) {
        const g = guarded(msg, [1, 2, 3][len % 3]!);
        assertBytes(blake3(g.view), expected, `unaligned ${len}`);
        assert.ok(g.intact());
      }
    }
  });

  it(`chunk and tree boundaries (1024 * 2^k +- 1 to 1 MiB, and up to 8 MiB): vs noble and hash-wasm`, async () => {
    const key = rand(32);
    for (const len of BOUNDARIES) {
      const msg = rand(len);
      const expected = await hashWasm(msg);
      assertBytes(blake3(msg), expected, `hash ${len}`);
      assertBytes(incremental(undefined, msg, randomSplit(len)), expected, `random split ${len}`);
      assertBytes(incremental(undefined, msg, [len >> 1, len - (len >> 1)]), expected, `halves ${len}`);
      if (len <= 1 << 20 || len % 2 === 1) {
        const keyed = noble(msg, { key });
        if (HASH_WASM) assertBytes(keyed, await hashWasm(msg, 32, key), `noble and hash-wasm disagree (keyed) at ${len}`);
        assertBytes(blake3(msg, { key }), keyed, `keyed ${len}`);
        assertBytes(incremental({ key }, msg, randomSplit(len)), keyed, `keyed split ${len}`);
        assertBytes(blake3(msg, { context: 'fourfold tests 2026' }), noble(msg, { context: 'fourfold tests 2026' }), `derive_key ${len}`);
      }
    }
  });

  it('updates of every size from 1 to 2100 bytes, then the rest, around 1 MiB + 3', () => {
    const msg = rand((1 << 20) + 3);
    const expected = hashWasmSync(msg);
    for (const step of [1, 63, 64, 65, 1023, 1024, 1025, 2047, 2100, 4096 + 1, 32768, 32769, 65536 + 5]) {
      const h = blake3.create();
      for (let pos = 0; pos < msg.length; pos += step) h.update(msg.subarray(pos, pos + step));
      assertBytes(h.digest(), expected, `updates of ${step}`);
    }
  });

  it('XOF: reads at odd offsets and lengths continue one stream (vs noble), all modes', () => {
    for (const opts of [{}, { key: rand(32) }, { context: rand(40) }] as Blake3Opts[]) {
      for (const len of [0, 1, 64, 1024, 1025, 5000, 70000]) {
        const msg = rand(len);
        const total = 300000;
        const expected = nobleBlake3
          .create(opts as never)
          .update(msg)
          .xof(total);
        const h = blake3.create(opts).update(msg);
        const got = new Uint8Array(total);
        let pos = 0;
        while (pos < total) {
          const kind = randInt(5);
          const n = Math.min(total - pos, kind === 0 ? randInt(3) : kind === 1 ? 64 * randInt(70) : kind === 2 ? randInt(65) + 1 : randInt(40000));
          if (randInt(2) === 0) got.set(h.xof(n), pos);
          else h.xofInto(got.subarray(pos, pos + n));
          pos += n;
        }
        assertBytes(got, expected, `stream of ${len}-byte input, ${JSON.stringify(Object.keys(opts))}`);
      }
    }
  });

  it('dkLen: any output length one-shot (0..300, block multiples, past 64 KiB where it is allocated first, 1 MiB + 13) is a prefix of the stream', () => {
    const msg = rand(3000);
    const key = rand(32);
    const stream = nobleBlake3(msg, { dkLen: (1 << 20) + 13 });
    const keyed = nobleBlake3(msg, { key, dkLen: 70000 });
    for (const n of [...Array.from({ length: 301 }, (_, i) => i), 511, 512, 513, 32767, 32768, 32769, 65536, 65537, (1 << 20) + 13]) {
      assertBytes(blake3(msg, { dkLen: n }), stream.subarray(0, n), `dkLen ${n}`);
      const h = blake3.create({ dkLen: n }).update(msg);
      assert.equal(h.outputLen, n);
      assertBytes(h.digest(), stream.subarray(0, n), `create({ dkLen: ${n} }).digest()`);
      if (n <= 70000) assertBytes(blake3(msg, { key, dkLen: n }), keyed.subarray(0, n), `keyed dkLen ${n}`);
    }
    // A large input with a large output: both cross slice boundaries.
    const big = rand(200000);
    assertBytes(blake3(big, { dkLen: 100000 }), nobleBlake3(big, { dkLen: 100000 }), 'large input, large output');
    assertBytes(blake3(big, { dkLen: 100000, context: 'c' }), noble(big, { dkLen: 100000, context: 'c' }), 'large derive_key output');
  });

  it('derive_key: a string context is its UTF-8 bytes; bytes contexts of any length', () => {
    const material = rand(100);
    for (const context of ['', 'é∆ 🔑 context', 'x'.repeat(1025), 'BLAKE3 2019-12-27 16:29:52 test vectors context']) {
      assertBytes(blake3(material, { context }), blake3(material, { context: utf8(context) }), `context ${context.slice(0, 10)}`);
      assertBytes(blake3(material, { context }), noble(material, { context }), `noble, context ${context.slice(0, 10)}`);
    }
    for (const n of [0, 1, 64, 1024, 1025, 5000]) {
      const context = rand(n);
      assertBytes(blake3(material, { context, dkLen: 77 }), noble(material, { context, dkLen: 77 }), `bytes context ${n}`);
    }
  });

  it('digestInto (exact and larger buffers), clone, and chaining', () => {
    const msg = rand(5000);
    const expected = hashWasmSync(msg);
    const h = blake3.create().update(msg.subarray(0, 3000));
    const copy = h.clone();
    h.update(msg.subarray(3000));
    copy.update(msg.subarray(3000, 4000)).update(msg.subarray(4000));
    const out = new Uint8Array(40).fill(7);
    assert.equal(h.digestInto(out), out);
    assertBytes(out.subarray(0, 32), expected, 'digestInto');
    assertBytes(out.subarray(32), new Uint8Array(8).fill(7), 'digestInto writes outputLen bytes only');
    assertBytes(copy.digest(), expected, 'clone');
    // A clone in the middle of the output stream continues it independently.
    const s = blake3.create().update(msg);
    s.xof(100);
    const t = s.clone();
    assertBytes(t.xof(50), s.xof(50), 'cloned XOF position');
    assertBytes(blake3.create().digest(), hashWasmSync(new Uint8Array(0)), 'no update');
  });

  it('the key passed to create() is copied; update() keeps no reference to its data', () => {
    const key = rand(32);
    const msg = rand(3000);
    const expected = nobleBlake3(msg, { key });
    const k = key.slice();
    const h = blake3.create({ key: k });
    k.fill(0);
    const part = msg.slice(0, 1500);
    h.update(part);
    part.fill(0);
    h.update(msg.subarray(1500));
    assertBytes(h.digest(), expected);
  });

  it('Buffer input and outputs are plain Uint8Arrays of the right length', () => {
    const msg = rand(2000);
    const out = blake3(Buffer.from(msg));
    assertBytes(out, hashWasmSync(msg));
    assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype);
    assert.equal(blake3.outputLen, 32);
    assert.equal(blake3.blockLen, 64);
  });
});
