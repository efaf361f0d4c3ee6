/**
 * A page served with `Content-Security-Policy: script-src 'self'` (no
 * 'wasm-unsafe-eval'), where browsers refuse to compile (Chromium,
 * Firefox) or instantiate (WebKit) WebAssembly: three families give the
 * right bytes on the js tier before and after ready(), tier() says 'js',
 * fourfold/sodium's `ready` resolves (its calls stay on the js tier, with
 * libsodium's bytes), and fourfold costs one securitypolicyviolation report at most (its one
 * probe; none where the engine reports none for WebAssembly, or has no
 * SIMD and so never tries).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ready, tier } from 'fourfold';
import { chacha20, xchacha20poly1305 } from 'fourfold/chacha';
import { blake3 } from 'fourfold/blake3';
import { ctr } from 'fourfold/serpent';
import sodium from 'fourfold/sodium';
import { chacha20 as nobleChacha20, xchacha20poly1305 as nobleXchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import { refCtr } from '../serpent/reference.js';
import { hex, pattern, until } from './page.js';

/** What serve.ts's page records from its first line on. */
const violations = (globalThis as unknown as { __fourfoldViolations: { directive: string; blocked: string }[] }).__fourfoldViolations;

const key = pattern(32, 1);
const iv = pattern(16, 2);
const nonce24 = pattern(24, 3);
const data = pattern(5000, 4);

function threeFamilies(): void {
  assert.equal(hex(chacha20(key, iv.subarray(0, 12), data)), hex(nobleChacha20(key, iv.subarray(0, 12), data)));
  assert.equal(tier(), 'js');
  assert.equal(hex(xchacha20poly1305(key, nonce24).encrypt(data)), hex(nobleXchacha20poly1305(key, nonce24).encrypt(data)));
  assert.equal(hex(blake3(data)), hex(nobleBlake3(data)));
  assert.equal(tier(), 'js');
  assert.equal(hex(ctr(key, iv).encrypt(data)), hex(refCtr(key, iv, data)));
  assert.equal(tier(), 'js');
}

it('three families give the right bytes on the js tier before ready()', () => {
  threeFamilies();
});

it("ready() resolves to 'js', calls stay there, and { tier: 'simd' } is refused", async () => {
  assert.equal(await ready(), 'js');
  assert.equal(tier(), 'js');
  threeFamilies();
  await assert.rejects(ready({ tier: 'simd' }), /simd tier is not available/);
  threeFamilies();
});

it("fourfold/sodium's ready resolves; its calls run on the js tier", async () => {
  assert.equal(await sodium.ready, undefined);
  assert.equal(sodium.crypto_generichash(32, data, null, 'hex'), hex(nobleBlake2b(data, { dkLen: 32 })));
  assert.equal(tier(), 'js');
  const sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(data, null, null, nonce24, key);
  assert.equal(tier(), 'js');
  assert.equal(hex(sealed), hex(nobleXchacha20poly1305(key, nonce24).encrypt(data)));
});

it('fourfold caused one securitypolicyviolation report at most', async () => {
  // A violation of our own after fourfold's: once its report arrives, every earlier one has.
  assert.throws(() => new Function('return 1'), EvalError);
  await until(() => violations.some((v) => v.blocked === 'eval'), "the page's own eval violation is reported");
  const ours = violations.slice(
    0,
    violations.findIndex((v) => v.blocked === 'eval'),
  );
  assert.ok(ours.length <= 1, `fourfold caused ${ours.length} reports: ${JSON.stringify(ours)}`);
  for (const v of ours) assert.deepEqual(v, { directive: 'script-src', blocked: 'wasm-eval' });
});

it('the policy does forbid WebAssembly in this engine (so the checks above are not vacuous)', () => {
  const empty = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
  assert.throws(() => new WebAssembly.Instance(new WebAssembly.Module(empty), {}));
});
