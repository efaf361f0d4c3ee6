/**
 * RFC 7914's own vectors: scryptROMix (section 10) through each tier's
 * engine, and scrypt (section 12) through scrypt(), scryptAsync() and
 * fourfold's top-level export, on both tiers. The fourth vector takes
 * 1 GiB and about a second on the simd tier; the js tier computes the same
 * code path on the three smaller ones (a minute or more of plain
 * JavaScript for the fourth).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { scrypt as fromRoot, ready } from 'fourfold';
import { scrypt, scryptAsync } from 'fourfold/scrypt';
import { assertBytes, EMULATED, forEachTier, hex, loadJson, NO_SIMD, toHex } from '../helpers.js';
import { jsScrypt, type ScryptEngine, simdScrypt } from '../internal.js';

interface Vectors {
  romix: { name: string; r: number; N: number; input: string; output: string }[];
  scrypt: { name: string; password: string; salt: string; N: number; r: number; p: number; dkLen: number; output: string }[];
}

const V = loadJson<Vectors>('vectors/scrypt.json');
const ONE_GIB = 2 ** 30;

function romix(e: ScryptEngine, input: Uint8Array, N: number, r: number): Uint8Array {
  const run = e.romix(input, N, r);
  // In uneven steps, across the turn from the first loop to the second.
  for (const step of [1, 3, N - 5, 2, N]) run.step(step);
  assert.equal(run.done, 2 * N);
  const out = new Uint8Array(input.length);
  run.finish(out);
  // Wiped in pieces, as scryptAsync does: not done until the last.
  let pieces = 1;
  while (!run.wipe(4096)) pieces++;
  assert.equal(pieces, Math.ceil(((N + 2) * 128 * r) / 4096), 'pieces wiped');
  assert.equal(run.wipe(4096), true, 'a run wiped stays wiped');
  return out;
}

it('scryptROMix, RFC 7914 section 10: the js engine', () => {
  for (const v of V.romix) assertBytes(romix(jsScrypt, hex(v.input), v.N, v.r), hex(v.output), v.name);
});

it('scryptROMix, RFC 7914 section 10: the simd engine', { skip: NO_SIMD }, async () => {
  // The engine is used directly, so its kernel must be compiled first (a page compiles it in the background).
  assert.equal(await ready({ tier: 'simd' }), 'simd');
  for (const v of V.romix) assertBytes(romix(simdScrypt, hex(v.input), v.N, v.r), hex(v.output), v.name);
});

forEachTier('scrypt, RFC 7914 section 12', (tier) => {
  for (const v of V.scrypt) {
    const big = v.N * v.r * 128 >= ONE_GIB;
    const skip = big && (tier === 'js' ? 'the 1 GiB vector runs on the simd tier only (minutes of plain JavaScript)' : EMULATED);
    it(v.name, { skip }, async () => {
      // The default maxmem allows every vector, the fourth's 1 GiB included.
      const opts = { N: v.N, r: v.r, p: v.p, dkLen: v.dkLen };
      assert.equal(toHex(scrypt(v.password, v.salt, opts)), v.output);
      if (big) return;
      assert.equal(toHex(await scryptAsync(v.password, v.salt, opts)), v.output);
      const utf8 = (s: string) => new TextEncoder().encode(s);
      assert.equal(toHex(fromRoot(utf8(v.password), utf8(v.salt), opts)), v.output);
    });
  }
});
