/**
 * The package's public surface: the root re-exports every primitive of the
 * subpath entry points, as the same objects.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as root from 'fourfold';
import * as chacha from 'fourfold/chacha';
import * as poly from 'fourfold/poly1305';

const CHACHA = ['chacha20', 'chacha20orig', 'xchacha20', 'chacha8', 'chacha12', 'hchacha20', 'chacha20poly1305', 'xchacha20poly1305'];

it("'fourfold/chacha' exports every ChaCha primitive as a function", () => {
  for (const name of CHACHA) assert.equal(typeof (chacha as Record<string, unknown>)[name], 'function', name);
});

it("'fourfold/poly1305' exports poly1305 with create()", () => {
  assert.equal(typeof poly.poly1305, 'function');
  assert.equal(typeof poly.poly1305.create, 'function');
});

it("'fourfold' exports ready, tier, AuthenticationError and re-exports the subpaths' primitives", () => {
  assert.equal(typeof root.ready, 'function');
  assert.equal(typeof root.tier, 'function');
  assert.equal(typeof root.AuthenticationError, 'function');
  for (const name of CHACHA) {
    assert.equal((root as Record<string, unknown>)[name], (chacha as Record<string, unknown>)[name], `${name} is the same object`);
  }
  assert.equal(root.poly1305, poly.poly1305);
});

it('ready() resolves to a tier that tier() then reports', async () => {
  const t = await root.ready();
  assert.ok(t === 'simd' || t === 'js');
  assert.equal(root.tier(), t);
});

it("the AEAD constructors carry @noble/ciphers' nonceLength, tagLength and blockSize", async () => {
  const noble = { ...(await import('@noble/ciphers/chacha.js')), ...(await import('@noble/ciphers/salsa.js')) };
  const ours = root as unknown as Record<string, { nonceLength: number; tagLength: number; blockSize: number }>;
  for (const name of ['chacha20poly1305', 'xchacha20poly1305', 'xsalsa20poly1305'] as const) {
    const theirs = noble[name] as unknown as { nonceLength: number; tagLength: number; blockSize: number };
    assert.deepEqual(
      { nonceLength: ours[name].nonceLength, tagLength: ours[name].tagLength, blockSize: ours[name].blockSize },
      { nonceLength: theirs.nonceLength, tagLength: theirs.tagLength, blockSize: theirs.blockSize },
      name,
    );
  }
});
