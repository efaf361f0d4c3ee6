/**
 * What ChaCha's differential tests share (differential.test.ts,
 * differential-limits.test.ts): the AEADs' calling modes checked against
 * a case @noble/ciphers sealed (new, in place, caller output, unaligned
 * views with guard bytes), and random IETF counters.
 */
import assert from 'node:assert/strict';
import { AuthenticationError } from 'fourfold';
import { assertBytes, blocksOf, guarded, rand, randInt, TWO32 } from '../helpers.js';
import { noble } from './peers.js';

export type AeadFn = (
  key: Uint8Array,
  nonce: Uint8Array,
  aad?: Uint8Array,
) => {
  encrypt(pt: Uint8Array, output?: Uint8Array): Uint8Array;
  decrypt(ct: Uint8Array, output?: Uint8Array): Uint8Array;
};

/** Guard offsets for the AEADs' unaligned views (the stream checks use the same, checkStreamModes's default). */
const OFFSETS = [1, 3, 7];

/** A random 32-bit counter that leaves room for `len` bytes under the IETF limit. */
export function randomIetfCounter(len: number): number {
  return randInt(TWO32 - Math.max(blocksOf(len), 1) + 1);
}

export interface AeadCase {
  key: Uint8Array;
  nonce: Uint8Array;
  aad: Uint8Array | undefined;
  pt: Uint8Array;
  sealed: Uint8Array;
}

export function checkAeadModes(make: AeadFn, label: string, c: AeadCase, all = true): void {
  const { key, nonce, aad, pt, sealed } = c;
  const len = pt.length;
  const mk = () => (aad === undefined ? make(key, nonce) : make(key, nonce, aad));

  const input = pt.slice();
  assertBytes(mk().encrypt(input), sealed, `${label}: encrypt`);
  assertBytes(input, pt, `${label}: encrypt modified its input`);
  const sIn = sealed.slice();
  assertBytes(mk().decrypt(sIn), pt, `${label}: decrypt`);
  assertBytes(sIn, sealed, `${label}: decrypt modified its input`);

  // In place: the plaintext at the start of a buffer with room for the tag.
  const buf = new Uint8Array(len + 16);
  buf.set(pt);
  const encView = buf.subarray(0, len);
  assert.equal(mk().encrypt(encView, buf), buf, `${label}: in-place encrypt must return the output`);
  assertBytes(buf, sealed, `${label}: in-place encrypt`);
  const decOut = buf.subarray(0, len);
  assert.equal(mk().decrypt(buf, decOut), decOut, `${label}: in-place decrypt must return the output`);
  assertBytes(decOut, pt, `${label}: in-place decrypt`);

  // A flipped bit anywhere (ciphertext or tag) is rejected and the output is wiped.
  const bad = sealed.slice();
  const bit = randInt(bad.length * 8);
  bad[bit >> 3]! ^= 1 << (bit & 7);
  const wiped = new Uint8Array(len).fill(0xee);
  assert.throws(() => mk().decrypt(bad, wiped), AuthenticationError, `${label}: flipped bit ${bit}`);
  assert.ok(
    wiped.every((x) => x === 0),
    `${label}: output not wiped after a failed decrypt`,
  );
  if (!all) return;

  const eo = new Uint8Array(len + 16).fill(0x5a);
  assert.equal(mk().encrypt(pt, eo), eo);
  assertBytes(eo, sealed, `${label}: encrypt into caller output`);
  const dout = new Uint8Array(len).fill(0x5a);
  assert.equal(mk().decrypt(sealed, dout), dout);
  assertBytes(dout, pt, `${label}: decrypt into caller output`);

  const o = OFFSETS[len % 3]!;
  const gp = guarded(pt, o);
  const ge = guarded(new Uint8Array(len + 16), OFFSETS[(len + 1) % 3]!);
  const gk = guarded(key, OFFSETS[(len + 2) % 3]!);
  const gn = guarded(nonce, o);
  const ga = aad === undefined ? undefined : guarded(aad, OFFSETS[(len + 1) % 3]!);
  const unaligned = () => (ga === undefined ? make(gk.view, gn.view) : make(gk.view, gn.view, ga.view));
  assert.equal(unaligned().encrypt(gp.view, ge.view), ge.view);
  assertBytes(ge.view, sealed, `${label}: unaligned encrypt`);
  const gs = guarded(sealed, OFFSETS[(len + 2) % 3]!);
  const gd = guarded(new Uint8Array(len), o);
  assert.equal(unaligned().decrypt(gs.view, gd.view), gd.view);
  assertBytes(gd.view, pt, `${label}: unaligned decrypt`);
  assert.ok(
    [gp, ge, gk, gn, gs, gd, ...(ga ? [ga] : [])].every((g) => g.intact()),
    `${label}: wrote outside the views`,
  );

  if (aad === undefined) {
    assertBytes(make(key, nonce, new Uint8Array(0)).encrypt(pt), sealed, `${label}: empty aad equals no aad`);
  }
}

export function aadFor(len: number, withAad: boolean): Uint8Array | undefined {
  return withAad ? rand((len * 7 + 1) % 301) : undefined;
}

/** A random case sealed by @noble/ciphers: `nonceLength` 12 is ChaCha20-Poly1305, 24 XChaCha20-Poly1305. */
export function aeadCase(nonceLength: 12 | 24, len: number, withAad: boolean): AeadCase {
  const key = rand(32);
  const nonce = rand(nonceLength);
  const aad = aadFor(len, withAad);
  const pt = rand(len);
  const seal = nonceLength === 12 ? noble.chacha20poly1305 : noble.xchacha20poly1305;
  return { key, nonce, aad, pt, sealed: seal(key, nonce, aad).encrypt(pt) };
}
