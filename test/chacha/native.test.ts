/**
 * The native tier (src/chacha/native.ts): where node:crypto has the
 * ciphers (Node, Deno), calls from the crossover up go to OpenSSL and
 * calls below it stay on fourfold's tier, with the same bytes as the js
 * and simd engines on both sides of every crossover; a forgery releases
 * nothing; ready({ tier }) keeps calls off it. Elsewhere (browsers, Bun)
 * no call ever goes native.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError, ready, tier } from 'fourfold';
import { chacha20, chacha20orig, chacha20poly1305, xchacha20, xchacha20poly1305 } from 'fourfold/chacha';
import { assertBytes, ENGINE_HAS_SIMD, isAllZero, rand } from '../helpers.js';
import {
  type ChachaEngine,
  COPIED_PIECEWISE_FROM,
  cpuVendor,
  crossoverFor,
  grown,
  jsChacha,
  NATIVE_KEY,
  NATIVE_PIECE,
  PIECEWISE_FROM,
  RUNTIME,
  simdChacha,
} from '../internal.js';

/** Whether this runtime's node:crypto has the ciphers (Bun's has not). */
const NATIVE = RUNTIME === 'deno' || (RUNTIME?.startsWith('node') ?? false);
/** The engines the bytes are compared with: every tier this engine runs. */
const REFERENCES: ChachaEngine[] = ENGINE_HAS_SIMD ? [jsChacha, simdChacha] : [jsChacha];
const crossover = crossoverFor(ENGINE_HAS_SIMD ? 'simd' : 'js');

/** The sizes that test a crossover `c`: both sides of it, the edges of a block, and large ones. */
const around = (c: number) => [0, 1, 63, 64, 65, c - 1, c, c + 1, 65536 + 3, (1 << 20) + 1].filter((n) => n >= 0);

/** Runs `call`, and checks that it went native exactly when `length` reaches `from`. */
function onTier<T>(label: string, length: number, from: number | undefined, call: () => T): T {
  const result = call();
  const native = NATIVE && from !== undefined && length >= from;
  assert.equal(tier() === 'native', native, `${label}, ${length} bytes: tier() is ${tier()}`);
  return result;
}

describe('the native tier', () => {
  before(async () => {
    await ready();
  });
  after(async () => {
    await ready();
  });

  it('is there exactly where node:crypto has the ciphers, with a crossover for each operation', () => {
    assert.equal(crossover !== undefined, NATIVE, `runtime ${RUNTIME}`);
  });

  it('crossovers by runtime and processor maker: the nearest Node measured, the larger of the makers where unknown', () => {
    const at = (runtime: string | undefined, vendor: string | undefined) => crossoverFor('simd', { runtime, vendor });
    const [amd20, intel20, intel26] = [at('node20', 'amd'), at('node20', 'intel'), at('node26', 'intel')];
    assert.ok(amd20 !== undefined && intel20 !== undefined && intel26 !== undefined);
    assert.notDeepEqual(amd20, intel20, 'the makers measured apart');
    assert.deepEqual(at('node22', 'intel'), intel20, 'Node 22 takes Node 20’s row');
    assert.deepEqual(at('node30', 'intel'), intel26, 'a newer Node takes the newest row');
    assert.deepEqual(at('node18', 'intel'), intel20, 'an older Node takes the oldest row');
    const unknown = at('node20', undefined);
    for (const op of Object.keys(amd20) as (keyof typeof amd20)[]) assert.equal(unknown?.[op], Math.max(amd20[op], intel20[op]), op);
    assert.deepEqual(at('node20', 'arm'), unknown);
    assert.equal(at('bun', 'amd'), undefined);
    assert.equal(at(undefined, 'amd'), undefined);
  });

  it('the rule a reader sees: per runtime, tier and maker one row, every operation native from a positive size', () => {
    const ops = ['chacha20', 'open', 'seal', 'xchacha20', 'xopen', 'xseal'];
    for (const runtime of ['node20', 'node26', 'deno']) {
      for (const own of ['simd', 'js'] as const) {
        for (const vendor of ['amd', 'intel', undefined]) {
          const row = crossoverFor(own, { runtime, vendor });
          assert.ok(row !== undefined, `${runtime} ${own} ${vendor}`);
          assert.deepEqual(Object.keys(row).sort(), ops);
          for (const [op, from] of Object.entries(row)) assert.ok(Number.isInteger(from) && from > 0, `${runtime} ${own} ${vendor} ${op}: ${from}`);
        }
      }
      // The split stands on every runtime measured: with one row per runtime a maker lost more than 10% there (crossovers.ts).
      assert.notDeepEqual(crossoverFor('simd', { runtime, vendor: 'amd' }), crossoverFor('simd', { runtime, vendor: 'intel' }), runtime);
    }
    // What the calls here use is the row of this runtime and this processor's maker.
    for (const own of ['simd', 'js'] as const) assert.deepEqual(crossoverFor(own), crossoverFor(own, { runtime: RUNTIME, vendor: cpuVendor() }), own);
  });

  it('chacha20poly1305 and xchacha20poly1305: the same bytes on both sides of each crossover', () => {
    for (const [name, aead, nonceLength, seal, open] of [
      ['chacha20poly1305', chacha20poly1305, 12, crossover?.seal, crossover?.open],
      ['xchacha20poly1305', xchacha20poly1305, 24, crossover?.xseal, crossover?.xopen],
    ] as const) {
      for (const length of around(seal ?? 8192)) {
        const key = rand(32);
        const nonce = rand(nonceLength);
        const aad = rand(length % 3 === 0 ? 0 : 13);
        const plain = rand(length);
        const sealed = onTier(`${name} encrypt`, length, seal, () => aead(key, nonce, aad).encrypt(plain));
        for (const ref of REFERENCES) assertBytes(sealed, ref.seal(key, nonce, aad, plain), `${name} encrypt, ${length} bytes`);
        const opened = onTier(`${name} decrypt`, length, open, () => aead(key, nonce, aad).decrypt(sealed));
        assertBytes(opened, plain, `${name} decrypt, ${length} bytes`);
        assert.equal(Object.getPrototypeOf(opened), Uint8Array.prototype, 'a plain Uint8Array, not a Buffer');
        // Into a caller's output, and in place.
        const out = new Uint8Array(length + 16);
        out.set(plain);
        onTier(`${name} encrypt in place`, length, seal, () => aead(key, nonce, aad).encrypt(out.subarray(0, length), out));
        assertBytes(out, sealed, `${name} encrypt in place, ${length} bytes`);
        onTier(`${name} decrypt in place`, length, open, () => aead(key, nonce, aad).decrypt(out, out.subarray(0, length)));
        assertBytes(out.subarray(0, length), plain, `${name} decrypt in place, ${length} bytes`);
      }
    }
  });

  it('a forgery on either side of the crossover: AuthenticationError, the caller’s output zeroed', () => {
    for (const length of around(crossover?.open ?? 8192).filter((n) => n > 0)) {
      const key = rand(32);
      const nonce = rand(12);
      const sealed = chacha20poly1305(key, nonce).encrypt(rand(length));
      for (const at of [0, length - 1, length + 15]) {
        const forged = sealed.slice();
        forged[at] = forged[at]! ^ 1;
        const out = new Uint8Array(length).fill(0xaa);
        assert.throws(() => chacha20poly1305(key, nonce).decrypt(forged, out), AuthenticationError);
        assert.ok(isAllZero(out), `${length} bytes, byte ${at} changed: the output was not zeroed`);
      }
      assert.throws(() => xchacha20poly1305(key, rand(24)).decrypt(sealed), AuthenticationError);
    }
  });

  it('chacha20, chacha20orig and xchacha20: the same bytes on both sides of each crossover, counters across 2^32', () => {
    for (const [name, cipher, nonceLength, from, counters] of [
      ['chacha20', chacha20, 12, crossover?.chacha20, [0, 1, 0xffffffff - (1 << 14) - 1]],
      ['chacha20orig', chacha20orig, 8, crossover?.chacha20, [0, 0xffffffff, 2n ** 40n - 3n, 2n ** 33n + 5n]],
      ['xchacha20', xchacha20, 24, crossover?.xchacha20, [0, 0xfffffffe, 2n ** 63n + 0xffffffffn, 2n ** 63n + 7n]],
    ] as const) {
      for (const length of around(from ?? 8192).filter((n) => n <= 1 << 16)) {
        for (const counter of counters) {
          const key = rand(32);
          const nonce = rand(nonceLength);
          const data = rand(length);
          const low = Number(BigInt(counter) & 0xffffffffn);
          const high = Number(BigInt(counter) >> 32n);
          // A 64-bit counter that carries from word 12 into 13 stays on fourfold's tier (Deno's node:crypto does not carry).
          const carries = nonceLength !== 12 && low + Math.ceil(length / 64) > 2 ** 32;
          const mine = onTier(name, length, carries ? undefined : from, () => cipher(key, nonce, data, undefined, counter));
          for (const ref of REFERENCES) assertBytes(mine, ref.xor(key, nonce, low, high, 10, data), `${name}, ${length} bytes from block ${counter}`);
          assert.equal(Object.getPrototypeOf(mine), Uint8Array.prototype, 'a plain Uint8Array, not a Buffer');
        }
      }
    }
  });

  it('past PIECEWISE_FROM (COPIED_PIECEWISE_FROM), where results are written in pieces: the same bytes, new and into an output, in place', () => {
    const REFERENCE = ENGINE_HAS_SIMD ? simdChacha : jsChacha;
    for (const length of [
      COPIED_PIECEWISE_FROM - 1,
      COPIED_PIECEWISE_FROM,
      COPIED_PIECEWISE_FROM + NATIVE_PIECE + 5,
      PIECEWISE_FROM - 1,
      PIECEWISE_FROM,
      PIECEWISE_FROM + NATIVE_PIECE + 5,
    ]) {
      const key = rand(32);
      const plain = rand(length);
      for (const [name, aead, nonceLength, from] of [
        ['chacha20poly1305', chacha20poly1305, 12, crossover?.seal],
        ['xchacha20poly1305', xchacha20poly1305, 24, crossover?.xseal],
      ] as const) {
        const nonce = rand(nonceLength);
        const expected = REFERENCE.seal(key, nonce, new Uint8Array(0), plain);
        const sealed = onTier(name, length, from, () => aead(key, nonce).encrypt(plain));
        assertBytes(sealed, expected, `${name}, ${length} bytes`);
        const inPlace = new Uint8Array(length + 16);
        inPlace.set(plain);
        aead(key, nonce).encrypt(inPlace.subarray(0, length), inPlace);
        assertBytes(inPlace, expected, `${name} in place, ${length} bytes`);
      }
      for (const [name, cipher, nonceLength, counter, from] of [
        ['chacha20', chacha20, 12, 0xffffffff - (length >> 6) - 2, crossover?.chacha20],
        ['xchacha20', xchacha20, 24, 2n ** 40n + 3n, crossover?.xchacha20],
      ] as const) {
        const nonce = rand(nonceLength);
        const low = Number(BigInt(counter) & 0xffffffffn);
        const high = Number(BigInt(counter) >> 32n);
        const expected = REFERENCE.xor(key, nonce, low, high, 10, plain);
        assertBytes(
          onTier(name, length, from, () => cipher(key, nonce, plain, undefined, counter)),
          expected,
          `${name}, ${length} bytes`,
        );
        const out = new Uint8Array(length);
        cipher(key, nonce, plain, out, counter);
        assertBytes(out, expected, `${name} into an output, ${length} bytes`);
        out.set(plain);
        cipher(key, nonce, out, out, counter);
        assertBytes(out, expected, `${name} in place, ${length} bytes`);
      }
    }
  });

  // A browser bundle has the stand-in (package.json's "browser" field), whose grown() never grows: nothing there has node:crypto's results to grow.
  const STAND_IN = RUNTIME === undefined && "not applicable: this engine runs the browser build's stand-in for the native tier";
  it('grown: a result alone on its buffer grows in place where the engine has transfer(), its bytes kept; else undefined', { skip: STAND_IN }, () => {
    const hasTransfer = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';
    const bytes = rand(6000);
    const alone = bytes.slice();
    const result = grown(alone, 6016);
    if (!hasTransfer) assert.equal(result, undefined);
    else {
      assert.ok(result !== undefined && result.buffer.byteLength === 6016 && result.byteOffset === 0);
      assertBytes(result.subarray(0, 6000), bytes);
      assert.equal(alone.length, 0, 'the original is detached');
    }
    // A view that shares its buffer (a pooled Buffer, a subarray) is never moved.
    const shared = new Uint8Array(8192);
    assert.equal(grown(shared.subarray(16, 6016), 6016), undefined);
    assert.equal(grown(shared.subarray(0, 6000), 6016), undefined);
    assert.equal(shared.length, 8192);
  });

  it('the key (or XChaCha subkey) copied for node:crypto is zeroed after every call, a forgery too', () => {
    const length = 1 << 16;
    const key = rand(32);
    const data = rand(length);
    for (const [aead, nonceLength, seal, open] of [
      [chacha20poly1305, 12, crossover?.seal, crossover?.open],
      [xchacha20poly1305, 24, crossover?.xseal, crossover?.xopen],
    ] as const) {
      const nonce = rand(nonceLength);
      const sealed = onTier('encrypt', length, seal, () => aead(key, nonce).encrypt(data));
      assert.ok(isAllZero(NATIVE_KEY), 'after a seal');
      assertBytes(
        onTier('decrypt', length, open, () => aead(key, nonce).decrypt(sealed)),
        data,
      );
      assert.ok(isAllZero(NATIVE_KEY), 'after an open');
      sealed[3] = sealed[3]! ^ 1;
      assert.throws(() => aead(key, nonce).decrypt(sealed), AuthenticationError);
      assert.ok(isAllZero(NATIVE_KEY), 'after a forgery');
    }
    for (const [cipher, nonceLength, from] of [
      [chacha20, 12, crossover?.chacha20],
      [xchacha20, 24, crossover?.xchacha20],
    ] as const) {
      onTier('keystream', length, from, () => cipher(key, rand(nonceLength), data));
      assert.ok(isAllZero(NATIVE_KEY), 'after a keystream');
    }
  });

  it('a counter that would pass its limit is refused before node:crypto sees it', () => {
    const length = Math.max(crossover?.chacha20 ?? 0, 128);
    assert.throws(() => chacha20(rand(32), rand(12), new Uint8Array(length), undefined, 0xffffffff), RangeError);
    assert.throws(() => xchacha20(rand(32), rand(24), new Uint8Array(length), undefined, 2n ** 64n - 1n), RangeError);
  });

  it('ready({ tier }) keeps calls on fourfold’s own tier; ready() lets them go native again', async () => {
    const large = rand(1 << 17);
    const key = rand(32);
    const nonce = rand(12);
    const expected = chacha20poly1305(key, nonce).encrypt(large);
    for (const own of ENGINE_HAS_SIMD ? (['simd', 'js'] as const) : (['js'] as const)) {
      await ready({ tier: own });
      assertBytes(chacha20poly1305(key, nonce).encrypt(large), expected, own);
      assert.equal(tier(), own);
      assertBytes(chacha20(key, nonce, large), jsChacha.xor(key, nonce, 0, 0, 10, large), own);
      assert.equal(tier(), own);
    }
    await ready();
    onTier('after ready()', large.length, crossover?.seal, () => chacha20poly1305(key, nonce).encrypt(large));
  });
});
